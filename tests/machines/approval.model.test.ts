// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { describeModel } from '../support/describeModel';
import {
  allowedDecisions, approvalMachine, approvalRefusal, nextApprovalState, type ApprovalSnapshot, type ApprovalStatus,
} from '../../machines/approvalMachine';

/**
 * Model-based test of the approval machine (four eyes, issue 20) against the real server: every
 * path of the REAL machine, with the asker (the brand manager) and another approver (the company
 * admin) sending each decision, is replayed on a fresh request through the real REST calls, and
 * after each step the request must be in the machine's state, with exactly the decisions the
 * machine allows each person answered 200 and the others refused. A variant of the machine without
 * the four-eyes guard must fail against the same server. The paths come from the real machine
 * (tests/support/describeModel.ts).
 */
const ASKER = 3; // brandmanager (seed)
const OTHER = 2; // companyadmin (seed)
const WHO: Record<number, string> = { [ASKER]: 'brandmanager', [OTHER]: 'companyadmin' };
const API = '/api/services/app/Customer';
const EVENTS = [ASKER, OTHER].flatMap((by) => (['request.approve', 'request.reject'] as const).map((type) => ({ type, by })));
type Step = { event: (typeof EVENTS)[number] };

let server: TestServer;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  server = await startTestServer();
  for (const who of Object.values(WHO)) tokens[who] = await server.api.login(who);
});
afterAll(async () => { await server?.close(); });

const decide = (step: Step, id: number) => server.api.put(`${API}/${step.event.type === 'request.approve' ? 'ApproveUserPunchesInfoDetail' : 'UpdateRejectCustomerFreeItemsAndPunches'}`, {
  token: tokens[WHO[step.event.by]], body: { id, reason: 'Model step' },
});
const ask = async () => {
  const res = await server.api.post(`${API}/InsertUserPunchesInfoDetail`, {
    token: tokens.brandmanager, body: { customerId: 5, brandId: 7, account: 'points', amount: 1, reason: 'Model' },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result.id as number;
};

/** After each step: the stored status is the machine's, and each party's refused decisions are refused by the server too. */
const statesFor = async (id: number, snapshot: ApprovalSnapshot) => {
  const status = snapshot.value as ApprovalStatus;
  const listed = await server.api.get(`${API}/GetUserPunchesInfoDetail?CustomerId=5`, { token: tokens.companyadmin });
  expect(listed.body.result.data.find((r: { id: number }) => r.id === id)?.status).toBe(status);
  for (const event of EVENTS) {
    const parties = { requestedBy: ASKER, decidedBy: event.by };
    if (allowedDecisions(status, parties).includes(event.type)) continue;
    const refused = await decide({ event }, id);
    expect(refused.status, `${status}: ${WHO[event.by]} ${event.type}`).toBe(approvalRefusal(status, event, parties) === 'ownRequest' ? 403 : 409);
  }
};

const steps = Object.fromEntries(['request.approve', 'request.reject'].map((type) => [type, async (id: number, step: Step) => {
  const res = await decide(step, id);
  expect(res.status, `${WHO[step.event.by]} ${type}: ${JSON.stringify(res.body.error)}`).toBe(200);
}]));

describe('approval machine (four eyes): the pure rule', () => {
  it('nobody decides their own request; a decided request stays decided', () => {
    expect(nextApprovalState('pending', { type: 'request.approve' }, { requestedBy: ASKER, decidedBy: ASKER })).toBeNull();
    expect(nextApprovalState('pending', { type: 'request.approve' }, { requestedBy: ASKER, decidedBy: OTHER })).toBe('approved');
    expect(allowedDecisions('pending', { requestedBy: ASKER, decidedBy: null })).toEqual([]);
    expect(allowedDecisions('approved', { requestedBy: ASKER, decidedBy: OTHER })).toEqual([]);
  });
});

describeModel('approval machine (four eyes), walked on the real server', {
  machine: approvalMachine,
  input: { requestedBy: ASKER },
  events: EVENTS,
  // One fresh request per path, asked by the brand manager.
  start: ask,
  steps: steps as never,
  states: { '*': statesFor },
  broken: [{
    // Without the four-eyes guard the model lets the asker decide; the server answers 403.
    name: 'a machine without the four-eyes guard',
    spec: { machine: approvalMachine.provide({ guards: { notTheAsker: () => true } }) },
    pick: (p) => p.steps.some((s) => s.event.by === ASKER),
    failsWith: /brandmanager request\.(approve|reject).*403|expected 403 to be 200/,
  }],
});
