import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { type Envelope } from '../support/server';
import { callerTokens, type Who } from '../support/adminMatrix';
import { useServer } from '../support/harness';
import * as t from '../../server/db/schema';
import type { Db } from '../../server/db/client';
import { ledgerMismatches } from '../../server/loyalty/ledger';
import { allowedDecisions, nextApprovalState, type ApprovalEvent, type ApprovalStatus } from '../../machines/approvalMachine';

/**
 * Items and punches requests decided by the approval machine (machines/approvalMachine.ts):
 * a model-based test drives the machine and the real server with the same random decisions and
 * compares them after every step; only approval pays, and never twice.
 */
let tokens: Record<Who, string | undefined>;
const db = () => server.database.db as unknown as Db;
const API = '/api/services/app/Customer';

const server = useServer();
beforeAll(async () => {
  tokens = await callerTokens(server);
}, 120_000);

let phone = 0;
async function newCustomer() {
  const [u] = await db().insert(t.users).values({
    userName: `request${++phone}`, fullName: `Request Customer ${phone}`, role: 'CUSTOMER', phoneNumber: `+9657${String(phone).padStart(7, '0')}`, passwordHash: '!',
  }).returning();
  // A customer of brand 7 (a wallet there): staff credit only customers of their brands.
  await db().insert(t.customerWallets).values({ userId: u.id, brandId: 7 });
  return u.id;
}
async function balance(userId: number, account: 'punches' | 'freeItems') {
  const [w] = await db().select().from(t.customerWallets).where(and(eq(t.customerWallets.userId, userId), eq(t.customerWallets.brandId, 7)));
  return w ? w[account] : 0;
}
const ask = (who: Who, body: Record<string, unknown>) => server.api.post(`${API}/InsertUserPunchesInfoDetail`, { token: tokens[who], body });
const send = (who: Who, event: ApprovalEvent['type'], id: number) =>
  server.api.put(`${API}/${event === 'request.approve' ? 'ApproveUserPunchesInfoDetail' : 'UpdateRejectCustomerFreeItemsAndPunches'}`, { token: tokens[who], body: { id, reason: 'Model decision' } });
/** The company admin asks and the brand manager decides: two people (four eyes). */
const PARTIES = { requestedBy: 2, decidedBy: 3 };

describe('approval machine', () => {
  it('pending → approved | rejected, both final', () => {
    expect(nextApprovalState('pending', { type: 'request.approve' }, PARTIES)).toBe('approved');
    expect(nextApprovalState('pending', { type: 'request.reject' }, PARTIES)).toBe('rejected');
    for (const s of ['approved', 'rejected'] as const) {
      expect(nextApprovalState(s, { type: 'request.approve' }, PARTIES)).toBeNull();
      expect(allowedDecisions(s, PARTIES)).toEqual([]);
    }
    expect(allowedDecisions('pending', PARTIES)).toEqual(['request.approve', 'request.reject']);
  });

  it('model-based: random decisions on the real server follow the machine, and only approval pays', async () => {
    const customer = await newCustomer();
    let steps = 0;
    await fc.assert(fc.asyncProperty(
      fc.array(fc.record({
        account: fc.constantFrom('punches' as const, 'freeItems' as const),
        amount: fc.integer({ min: 1, max: 20 }),
        decisions: fc.array(fc.constantFrom('request.approve' as const, 'request.reject' as const), { minLength: 0, maxLength: 4 }),
      }), { minLength: 1, maxLength: 4 }),
      async (requests) => {
        for (const r of requests) {
          const model = { punches: await balance(customer, 'punches'), freeItems: await balance(customer, 'freeItems') };
          const created = await ask('companyadmin', { customerId: customer, brandId: 7, account: r.account, amount: r.amount, reason: 'Paper card' });
          expect(created.status, JSON.stringify(created.body)).toBe(200);
          let status: ApprovalStatus = 'pending';
          expect(created.body.result.status).toBe(status);
          for (const d of r.decisions) {
            steps++;
            const next = nextApprovalState(status, { type: d }, PARTIES);
            const res = await send('brandmanager', d, created.body.result.id);
            expect(res.status, `${status} + ${d}`).toBe(next ? 200 : 409);
            if (next) {
              if (next === 'approved') model[r.account] += r.amount;
              status = next;
              expect(res.body.result.status).toBe(status);
            }
            expect(await balance(customer, r.account)).toBe(model[r.account]);
            expect(await ledgerMismatches(db())).toEqual([]);
          }
        }
      },
    ), { numRuns: 8 });
    console.log(`model-based approval steps: ${steps}`);
  }, 120_000);

  it('two approvals at once pay once', async () => {
    const customer = await newCustomer();
    const created = await ask('brandmanager', { customerId: customer, brandId: 7, account: 'punches', amount: 5, reason: 'Twice' });
    const results = await Promise.all([send('admin', 'request.approve', created.body.result.id), send('companyadmin', 'request.approve', created.body.result.id)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await balance(customer, 'punches')).toBe(5);
    const rows = await db().select().from(t.walletLedger).where(and(eq(t.walletLedger.referenceType, 'request'), eq(t.walletLedger.referenceId, created.body.result.id)));
    expect(rows).toHaveLength(1);
  });

  it('refuses bad input and callers out of scope, writing nothing', async () => {
    const customer = await newCustomer();
    const count = async () => Number((await db().select({ n: sql<number>`count(*)::int` }).from(t.customerRequests))[0].n);
    const expectRefused = async (what: string, status: number, call: () => Promise<{ status: number; body: Envelope }>) => {
      const [before, ledger] = [await count(), await db().select().from(t.walletLedger)];
      const res = await call();
      expect(res.status, `${what}: ${JSON.stringify(res.body.error)}`).toBe(status);
      expect(res.body.error?.message, what).toBeTruthy();
      expect(await count(), what).toBe(before);
      expect(await db().select().from(t.walletLedger), what).toEqual(ledger);
    };
    const ok = { customerId: customer, brandId: 7, account: 'punches', amount: 2, reason: 'r' };
    await expectRefused('no reason', 400, () => ask('admin', { ...ok, reason: '' }));
    await expectRefused('zero amount', 400, () => ask('admin', { ...ok, amount: 0 }));
    await expectRefused('wallet is no request account', 400, () => ask('admin', { ...ok, account: 'wallet' }));
    await expectRefused('unknown customer', 404, () => ask('admin', { ...ok, customerId: 999999 }));
    await expectRefused('brand of another company', 400, () => ask('companyadmin', { ...ok, brandId: 8 }));
    await expectRefused('branch user', 403, () => ask('branchuser', ok));
    await expectRefused('customer', 403, () => ask('customer', ok));
    await expectRefused('anonymous', 401, () => ask('anonymous', ok));
    await db().insert(t.customerWallets).values({ userId: customer, brandId: 8 }); // a customer of brand 8 too
    const created = await ask('admin', { ...ok, brandId: 8 });
    expect(created.status).toBe(200);
    await expectRefused('brand manager, request of another brand', 404, () => send('brandmanager', 'request.approve', created.body.result.id));
    await expectRefused('unknown request', 404, () => send('admin', 'request.approve', 999999));
    await expectRefused('branch user deciding', 403, () => send('branchuser', 'request.approve', created.body.result.id));
    const list = await server.api.get(`${API}/GetUserPunchesInfoDetail?Status=pending`, { token: tokens.brandmanager });
    expect(list.status).toBe(200);
    expect(list.body.result.data.every((r: { brandId: number }) => r.brandId === 7)).toBe(true);
  });
});
