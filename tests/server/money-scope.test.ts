import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { callerTokens, type Who } from '../support/adminMatrix';
import { useServer } from '../support/harness';
import * as t from '../../server/db/schema';
import type { Db } from '../../server/db/client';

/**
 * Customers of another company (issue 20): staff add to a group, credit, scan or read only the
 * customers they already see (server/services/customer/loyalty.ts `visibleCustomer`), and a write
 * in a brand only that brand's customers. Anyone else is answered exactly as an unknown id, and a
 * staff call never subscribes a customer to a brand. Runs on PGlite, and on PostgreSQL with TEST_DATABASE_URL.
 */
let tokens: Record<Who, string | undefined>;
const db = () => server.database.db as unknown as Db;
const API = '/api/services/app';
const UNKNOWN = 2_000_000_000;

let phone = 0;
/** A registered customer with a wallet (a subscription) in each of `brands`. */
async function customer(brands: number[]) {
  const [u] = await db().insert(t.users).values({
    userName: `scope${++phone}`, fullName: `Scope Customer ${phone}`, role: 'CUSTOMER', phoneNumber: `+9657${String(phone).padStart(7, '0')}`,
    emailAddress: `scope${phone}@example.test`, birthDate: '1990-01-01', passwordHash: '!',
  }).returning();
  if (brands.length) await db().insert(t.customerWallets).values(brands.map((brandId) => ({ userId: u.id, brandId })));
  return u.id;
}
const walletRows = (userId: number, brandId: number) =>
  db().select().from(t.customerWallets).where(and(eq(t.customerWallets.userId, userId), eq(t.customerWallets.brandId, brandId)));
const ledgerRows = (userId: number) => db().select().from(t.walletLedger).where(eq(t.walletLedger.userId, userId));
const get = (who: Who, path: string, query: Record<string, unknown>) => server.api.get(`${API}/${path}`, { token: tokens[who], query });
const post = (who: Who, path: string, body: unknown) => server.api.post(`${API}/${path}`, { token: tokens[who], body });
const put = (who: Who, path: string, body: unknown) => server.api.put(`${API}/${path}`, { token: tokens[who], body });
/** Status and body as the client receives them. */
const seen = (r: { status: number; body: unknown }) => JSON.stringify([r.status, r.body]);

let foreign: number;
let own: number;

const server = useServer();
beforeAll(async () => {
  tokens = await callerTokens(server);
  foreign = await customer([8]);
  // brand 8, company 2: not brandmanager's (brand 7, company 1)
  own = await customer([7]);
}, 120_000);

describe('a customer of another company is an unknown id', () => {
  it('a group cannot be created with them, and the refusal is the unknown id\'s, naming no id', async () => {
    const name = `Harvest ${phone}`;
    const withForeign = await post('brandmanager', 'CustomersGroups/CreateNewCustomersGroup', { brandId: 7, name, customerIds: [own, foreign] });
    const withUnknown = await post('brandmanager', 'CustomersGroups/CreateNewCustomersGroup', { brandId: 7, name, customerIds: [own, UNKNOWN] });
    expect(withForeign.status).toBe(400);
    expect(seen(withForeign)).toBe(seen(withUnknown));
    expect(JSON.stringify(withForeign.body)).not.toContain(String(foreign));
    expect(withForeign.body.error?.validationErrors?.[0]?.members).toEqual(['customerIds']);
    expect(await db().select().from(t.customerGroups).where(eq(t.customerGroups.name, name))).toEqual([]);
  });

  it('they cannot be added to a group, and a member added before the rule is not read through it', async () => {
    const created = await post('brandmanager', 'CustomersGroups/CreateNewCustomersGroup', { brandId: 7, name: `Mine ${phone}`, customerIds: [own] });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const groupId = created.body.result.id as number;
    const added = await post('brandmanager', 'CustomersGroups/AddCustomersToExistingGroup', { groupId, customerIds: [foreign] });
    const unknown = await post('brandmanager', 'CustomersGroups/AddCustomersToExistingGroup', { groupId, customerIds: [UNKNOWN] });
    expect(added.status).toBe(400);
    expect(seen(added)).toBe(seen(unknown));
    expect(await db().select().from(t.customerGroupMembers).where(eq(t.customerGroupMembers.groupId, groupId))).toHaveLength(1);

    // A membership written before the fix (the old leak) stays unreadable.
    await db().insert(t.customerGroupMembers).values({ groupId, userId: foreign });
    const members = await get('brandmanager', 'Customer/GetCustomerDetailsByCustomersGroupId', { GroupId: groupId });
    expect(members.status).toBe(200);
    expect(members.body.result.data.map((c: { id: number }) => c.id)).toEqual([own]);
  });

  it('a 0.001 KD deposit is the unknown id\'s 404 and writes nothing: no wallet in the brand, no ledger row, nothing opened', async () => {
    for (const call of ['UpdateDepositWalletByid', 'UpdateCreditDepositWalletByid', 'UpdateCustomerWalletBalance', 'UpdateCustomerCreditWalletBalance']) {
      const field = call.startsWith('UpdateCustomer') ? 'balance' : 'amount';
      const body = (customerId: number) => ({ customerId, brandId: 7, [field]: 0.001, reason: 'Probe' });
      const toForeign = await put('brandmanager', `Customer/${call}`, body(foreign));
      expect(toForeign.status, call).toBe(404);
      expect(seen(toForeign), call).toBe(seen(await put('brandmanager', `Customer/${call}`, body(UNKNOWN))));
    }
    const points = { customerId: foreign, brandId: 7, punches: 1, freeItems: 1, reason: 'Probe' };
    expect(seen(await put('brandmanager', 'Customer/UpdateCustomerFreeItemsAndPunches', points)))
      .toBe(seen(await put('brandmanager', 'Customer/UpdateCustomerFreeItemsAndPunches', { ...points, customerId: UNKNOWN })));
    expect(await walletRows(foreign, 7)).toEqual([]);
    expect(await ledgerRows(foreign)).toEqual([]);

    for (const [path, query] of [
      ['Customer/GetCustomerDetailsById', (id: number) => ({ Id: id })],
      ['Cars/GetCustomerCarsForDashBoard', (id: number) => ({ CustomerId: id })],
      ['Customer/GetCustomerLedger', (id: number) => ({ CustomerId: id })],
      ['Customer/GetCustomerWalletPunchesAndFreeItemsDetails', (id: number) => ({ CustomerId: id, BrandId: 7 })],
      ['RewardCardScans/GetUserRewardCardScansInfoByCustomer', (id: number) => ({ CustomerId: id })],
    ] as const) {
      const read = await get('brandmanager', path, query(foreign));
      expect(read.status, path).toBe(404);
      expect(seen(read), path).toBe(seen(await get('brandmanager', path, query(UNKNOWN))));
    }
  });

  it('even ADMIN cannot subscribe a customer to a brand by a deposit; a customer of the brand is credited', async () => {
    const toForeign = await put('admin', 'Customer/UpdateDepositWalletByid', { customerId: foreign, brandId: 7, amount: 1, reason: 'Welcome gift' });
    expect(toForeign.status).toBe(404);
    expect(await walletRows(foreign, 7)).toEqual([]);
    // ADMIN still reads every customer.
    expect((await get('admin', 'Customer/GetCustomerDetailsById', { Id: foreign })).status).toBe(200);

    const toOwn = await put('admin', 'Customer/UpdateDepositWalletByid', { customerId: own, brandId: 7, amount: 1, reason: 'Welcome gift' });
    expect(toOwn.status, JSON.stringify(toOwn.body)).toBe(200);
    expect(toOwn.body.result).toMatchObject({ balance: 1, applied: true });
  });

  it('a request for them and a scan of them are the unknown id\'s refusals and write nothing', async () => {
    const before = await db().select().from(t.customerRequests);
    for (const [call, body] of [
      ['InsertCustomerBalanceRequest', { brandId: 7, account: 'wallet', amount: 5, reason: 'Probe' }],
      ['InsertUserPunchesInfoDetail', { brandId: 7, account: 'punches', amount: 1, reason: 'Probe' }],
    ] as const) {
      const asked = await post('brandmanager', `Customer/${call}`, { ...body, customerId: foreign });
      expect(asked.status, call).toBe(404);
      expect(seen(asked), call).toBe(seen(await post('brandmanager', `Customer/${call}`, { ...body, customerId: UNKNOWN })));
    }
    expect(await db().select().from(t.customerRequests)).toHaveLength(before.length);

    const scan = (customerId: number) => post('branchuser', 'RewardCardScans/InsertUserRewardCardScan', { customerId, branchId: 1, scanType: 'reward' });
    const scanned = await scan(foreign);
    expect(scanned.status).toBe(404);
    expect(seen(scanned)).toBe(seen(await scan(UNKNOWN)));
    expect(await db().select().from(t.rewardCardScans).where(eq(t.rewardCardScans.userId, foreign))).toEqual([]);
    expect((await scan(own)).status).toBe(200);
  });

  it('ids 1..140 give exactly the customers the brand manager sees; every other refusal is byte-identical', async () => {
    const created = await post('brandmanager', 'CustomersGroups/CreateNewCustomersGroup', { brandId: 7, name: `Sweep ${phone}`, customerIds: [own] });
    const groupId = created.body.result.id as number;
    const visible = await get('brandmanager', 'Customer/GetCustomersAccessibleForCurrentUser', { MaxResultCount: 1000 });
    const expected = new Set<number>((visible.body.result.data as { id: number }[]).map((c) => c.id).filter((id) => id <= 140));
    expect(expected.size).toBeGreaterThan(0);
    // Registered customers outside brand 7 exist among 1..140 (the demo's brand 8 customers, `foreign`).
    const all = await db().select({ id: t.users.id }).from(t.users)
      .where(and(eq(t.users.role, 'CUSTOMER'), eq(t.users.isGuest, false), inArray(t.users.id, Array.from({ length: 140 }, (_, i) => i + 1))));
    expect(all.length).toBeGreaterThan(expected.size);

    const accepted = new Set<number>();
    const refusals = new Set<string>();
    const detailRefusals = new Set<string>();
    const opened = new Set<number>();
    for (let id = 1; id <= 140; id++) {
      const r = await post('brandmanager', 'CustomersGroups/AddCustomersToExistingGroup', { groupId, customerIds: [id] });
      if (r.status === 200) accepted.add(id); else refusals.add(seen(r));
      const d = await get('brandmanager', 'Customer/GetCustomerDetailsById', { Id: id });
      if (d.status === 200) opened.add(id); else detailRefusals.add(seen(d));
    }
    expect([...accepted].sort((a, b) => a - b)).toEqual([...expected].sort((a, b) => a - b));
    expect([...opened].sort((a, b) => a - b)).toEqual([...expected].sort((a, b) => a - b));
    expect(refusals.size).toBe(1);
    expect(detailRefusals.size).toBe(1);
  }, 120_000);
});
