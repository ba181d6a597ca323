import { beforeAll, describe, expect, it } from 'vitest';
import { countRows } from '../support/server';
import { callerTokens, type Who } from '../support/adminMatrix';
import { useServer } from '../support/harness';
import * as t from '../../server/db/schema';
import { NOT_ACCEPTED_IN_TIME } from '../../machines/orderLifecycle';

/**
 * QualityReport/GetBranchQualityReport and Support/GetSupportInfo (the /QualityReport and
 * /SupportPage screens, docs/decisions.md): known orders with known times, then the exact figures.
 */
const API = '/api/services/app';
let token: Record<Who, string | undefined>;
const as = (who: Who) => ({ token: token[who] });

const at = (hhmm: string, plusSeconds = 0) => new Date(new Date(`2026-11-10T${hhmm}:00Z`).getTime() + plusSeconds * 1000);

const server = useServer();
beforeAll(async () => {
  token = await callerTokens(server);
  expect(await countRows(server, 'orders'), 'the seed has no orders').toBe(0);
  let n = 0;
  const order = (branchId: number, created: string, extra: Partial<typeof t.orders.$inferInsert> = {}) => ({
    orderNumber: `Q-${++n}`, brandId: branchId === 1 ? 7 : 8, branchId, userId: 5, deliverySystem: 'pickup', paymentSystemId: 2,
    ohash: `quality-${n}`, total: '1.000', subtotal: '1.000', createdAt: at(created), status: 'closed', ...extra,
  });
  await server.database.db.insert(t.orders).values([
    order(1, '10:00', { acceptedAt: at('10:00', 60), readyAt: at('10:00', 360) }),
    order(1, '11:00', { acceptedAt: at('11:00', 180), readyAt: at('11:00', 780) }),
    order(1, '12:00', { acceptedAt: at('12:00', 120), arrival: 'noShow', statusReason: 'Customer did not come' }),
    order(1, '13:00', { status: 'rejected', statusReason: 'Out of milk' }),
    order(1, '14:00', { status: 'rejected', statusReason: NOT_ACCEPTED_IN_TIME }),
    order(1, '15:00', { acceptedAt: at('15:00', 30), status: 'rejected', payment: 'paid', refund: 'approved', total: '2.000' }),
    order(2, '10:30', { acceptedAt: at('10:30', 240), status: 'accepted' }),
  ]);
}, 120_000);

const REPORT = `${API}/QualityReport/GetBranchQualityReport`;
const BRANCH_1 = {
  orders: 6, accepted: 4, medianAcceptSeconds: 90, p90AcceptSeconds: 162, medianReadySeconds: 450,
  rejected: 2, notAcceptedInTime: 1, noShows: 1, refunded: 1, refundedAmount: 2,
};

describe('QualityReport/GetBranchQualityReport', () => {
  it('ADMIN: each branch and the whole, with true medians over every order (not medians of medians)', async () => {
    const res = await server.api.get(REPORT, as('admin'));
    expect(res.status, JSON.stringify(res.body.error)).toBe(200);
    const { overall, branches } = res.body.result;
    // accept times 30, 60, 120, 180 (branch 1) and 240 (branch 2)
    expect(overall).toEqual({ ...BRANCH_1, orders: 7, accepted: 5, medianAcceptSeconds: 120, p90AcceptSeconds: 216 });
    expect(branches.map((b: { branchId: number }) => b.branchId)).toEqual([1, 2, 3]);
    expect(branches[0]).toEqual({ branchId: 1, branchName: 'Salmiya', brandId: 7, brandName: 'Mango Coffee', ...BRANCH_1 });
    expect(branches[1]).toMatchObject({ branchId: 2, orders: 1, accepted: 1, medianAcceptSeconds: 240, p90AcceptSeconds: 240, medianReadySeconds: null, rejected: 0 });
    expect(branches[2]).toMatchObject({ branchId: 3, orders: 0, accepted: 0, medianAcceptSeconds: null, refundedAmount: 0 });
  });

  it('scoped: a branch user, a brand manager and a company admin of company 1 see branch 1 only', async () => {
    for (const who of ['branchuser', 'brandmanager', 'companyadmin'] as const) {
      const res = await server.api.get(REPORT, as(who));
      expect(res.status, who).toBe(200);
      expect(res.body.result.branches.map((b: { branchId: number }) => b.branchId), who).toEqual([1]);
      expect(res.body.result.overall, who).toEqual(BRANCH_1);
    }
  });

  it('a period counts the orders placed in it; a brand narrows the report', async () => {
    const res = await server.api.get(REPORT, { ...as('admin'), query: { fromDate: at('12:00').toISOString(), toDate: at('14:00').toISOString() } });
    expect(res.body.result.overall).toMatchObject({ orders: 2, accepted: 1, medianAcceptSeconds: 120, rejected: 1, noShows: 1, notAcceptedInTime: 0 });
    const brand8 = await server.api.get(REPORT, { ...as('admin'), query: { brandId: 8 } });
    expect(brand8.body.result.branches.map((b: { branchId: number }) => b.branchId)).toEqual([2, 3]);
    expect(brand8.body.result.overall).toMatchObject({ orders: 1, medianAcceptSeconds: 240 });
  });

  it('bad input is a clear 400; a place outside the scope is refused like an unknown one; 401/403 first', async () => {
    const bad = async (who: Who, query: Record<string, unknown>, text: RegExp) => {
      const res = await server.api.get(REPORT, { ...as(who), query });
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(`${res.body.error?.message} ${JSON.stringify(res.body.error?.validationErrors)}`).toMatch(text);
    };
    await bad('admin', { fromDate: at('14:00').toISOString(), toDate: at('12:00').toISOString() }, /start date must come before/);
    await bad('admin', { fromDate: 'soon' }, /fromDate/);
    await bad('brandmanager', { brandId: 8 }, /no brand 8/);
    await bad('branchuser', { branchId: 2 }, /no branch 2/);
    await bad('admin', { branchId: 0 }, /branchId/);
    expect((await server.api.get(REPORT, { query: { fromDate: 'x' } })).status).toBe(401);
    expect((await server.api.get(REPORT, { ...as('customer'), query: { fromDate: 'x' } })).status).toBe(403);
  });
});

describe('Support/GetSupportInfo', () => {
  const SUPPORT = `${API}/Support/GetSupportInfo`;
  const roles = (res: { body: { result: { contacts: { role: string }[] } } }) => res.body.result.contacts.map((c) => c.role);

  it("a branch user: their branch's phone, then their brand's managers, their company's admins and the platform's", async () => {
    const before = Date.now();
    const res = await server.api.get(SUPPORT, as('branchuser'));
    expect(res.status, JSON.stringify(res.body.error)).toBe(200);
    const info = res.body.result;
    expect(info.branchPhoneNumber).toBe('+96522200001');
    expect(Math.abs(new Date(info.serverTime).getTime() - before)).toBeLessThan(60_000);
    expect(info.contacts.slice(0, 3)).toEqual([
      { id: 3, role: 'BRAND_MANAGER', fullName: 'Bader Brand', phoneNumber: null, emailAddress: 'brand@brewops.test' },
      { id: 2, role: 'COMPANY_ADMIN', fullName: 'Khaled Company', phoneNumber: null, emailAddress: 'company@brewops.test' },
      { id: 1, role: 'ADMIN', fullName: 'Amal Admin', phoneNumber: null, emailAddress: 'admin@brewops.test' },
    ].map((c) => expect.objectContaining({ id: c.id, role: c.role, fullName: c.fullName, emailAddress: c.emailAddress })));
  });

  it('a brand manager turns to company admins of their company (never another company), a company admin to the platform', async () => {
    // a company admin of company 2 and an inactive admin must not be offered
    await server.database.db.insert(t.users).values([
      { userName: 'other-ca', fullName: 'Other Company Admin', role: 'COMPANY_ADMIN', companyId: 2, passwordHash: '!' },
      { userName: 'gone-admin', fullName: 'Gone Admin', role: 'ADMIN', isActive: false, passwordHash: '!' },
    ]);
    const bm = await server.api.get(SUPPORT, as('brandmanager'));
    expect(roles(bm)).toEqual(['COMPANY_ADMIN', 'ADMIN']);
    expect(bm.body.result.contacts.map((c: { fullName: string }) => c.fullName)).toEqual(['Khaled Company', 'Amal Admin']);
    expect(bm.body.result.branchPhoneNumber).toBeNull();
    expect(roles(await server.api.get(SUPPORT, as('companyadmin')))).toEqual(['ADMIN']);
    expect(roles(await server.api.get(SUPPORT, as('admin')))).toEqual([]);
  });

  it('only staff of the order screens; 401 and 403 otherwise', async () => {
    expect((await server.api.get(SUPPORT, {})).status).toBe(401);
    expect((await server.api.get(SUPPORT, as('customer'))).status).toBe(403);
  });
});
