import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { type Envelope } from '../support/server';
import { callerTokens, type Who } from '../support/adminMatrix';
import { useServer } from '../support/harness';
import * as t from '../../server/db/schema';
import type { Db } from '../../server/db/client';
import { ledgerMismatches } from '../../server/loyalty/ledger';

/**
 * Wallet and credit balance requests (/Request): the same table, approval machine and decision
 * path as the items and punches requests, in KD. Anyone of the main three may ask; a company
 * manager decides (as the …ByCompanyManager calls). Only approval pays, once, however many
 * approvals arrive at the same moment.
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
    userName: `balance${++phone}`, fullName: `Balance Customer ${phone}`, role: 'CUSTOMER', phoneNumber: `+9656${String(phone).padStart(7, '0')}`, passwordHash: '!',
  }).returning();
  // A customer of brand 7 (a wallet there): staff credit only customers of their brands.
  await db().insert(t.customerWallets).values({ userId: u.id, brandId: 7 });
  return u.id;
}
async function balance(userId: number, account: 'wallet' | 'credit') {
  const [w] = await db().select().from(t.customerWallets).where(and(eq(t.customerWallets.userId, userId), eq(t.customerWallets.brandId, 7)));
  return w ? Number(account === 'wallet' ? w.balance : w.credit) : 0;
}
const ask = (who: Who, body: Record<string, unknown>) => server.api.post(`${API}/InsertCustomerBalanceRequest`, { token: tokens[who], body });
const approve = (who: Who, id: number) => server.api.put(`${API}/ApproveCustomerBalanceRequest`, { token: tokens[who], body: { id } });
const reject = (who: Who, id: number) => server.api.put(`${API}/RejectCustomerBalanceRequest`, { token: tokens[who], body: { id, reason: 'Not justified' } });
const requestRows = (id: number) => db().select().from(t.walletLedger).where(and(eq(t.walletLedger.referenceType, 'request'), eq(t.walletLedger.referenceId, id)));

describe('wallet and credit balance requests (/Request)', () => {
  it('a brand manager asks, nothing is paid; a company admin approves and the wallet grows by exactly the amount, once', async () => {
    const customer = await newCustomer();
    const created = await ask('brandmanager', { customerId: customer, brandId: 7, account: 'wallet', amount: 2.5, reason: 'Paid cash at the counter' });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.result).toMatchObject({ status: 'pending', account: 'wallet', amount: 2.5, customerName: `Balance Customer ${phone}` });
    expect(await requestRows(created.body.result.id)).toEqual([]);
    expect(await balance(customer, 'wallet')).toBe(0);

    // Money is decided by a company manager: the brand manager may ask but not approve.
    expect((await approve('brandmanager', created.body.result.id)).status).toBe(403);
    const ok = await approve('companyadmin', created.body.result.id);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.result.status).toBe('approved');
    expect(await balance(customer, 'wallet')).toBe(2.5);
    const rows = await requestRows(created.body.result.id);
    expect(rows.map((r) => [r.account, Number(r.amount), r.idempotencyKey])).toEqual([['wallet', 2.5, `request:${created.body.result.id}:approved`]]);
    expect((await approve('admin', created.body.result.id)).status).toBe(409);
    expect((await reject('admin', created.body.result.id)).status).toBe(409);
    expect(await balance(customer, 'wallet')).toBe(2.5);
  });

  it('12 approvals at the same moment pay once', async () => {
    const customer = await newCustomer();
    // Asked by the brand manager: the deciders are others (four eyes, tests/server/money-four-eyes.test.ts).
    const created = await ask('brandmanager', { customerId: customer, brandId: 7, account: 'credit', amount: 10.125, reason: 'Corporate account' });
    const started = Date.now();
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => approve(i % 2 ? 'admin' : 'companyadmin', created.body.result.id)));
    console.log(`12 parallel approvals answered in ${Date.now() - started} ms`);
    expect(results.map((r) => r.status).sort()).toEqual([200, ...Array(11).fill(409)]);
    expect(await balance(customer, 'credit')).toBe(10.125);
    expect(await requestRows(created.body.result.id)).toHaveLength(1);
    expect(await ledgerMismatches(db())).toEqual([]);
  }, 120_000);

  it('a rejection writes nothing to the ledger, and approval after it is refused', async () => {
    const customer = await newCustomer();
    const created = await ask('admin', { customerId: customer, brandId: 7, account: 'wallet', amount: 1, reason: 'Typo' });
    expect((await reject('companyadmin', created.body.result.id)).body.result.status).toBe('rejected');
    expect((await approve('companyadmin', created.body.result.id)).status).toBe(409);
    expect(await requestRows(created.body.result.id)).toEqual([]);
    expect(await balance(customer, 'wallet')).toBe(0);
  });

  it('each screen lists only its own kind of request', async () => {
    const customer = await newCustomer();
    await ask('admin', { customerId: customer, brandId: 7, account: 'credit', amount: 3, reason: 'Money' });
    await server.api.post(`${API}/InsertUserPunchesInfoDetail`, { token: tokens.admin, body: { customerId: customer, brandId: 7, account: 'punches', amount: 3, reason: 'Card' } });
    const money = await server.api.get(`${API}/GetCustomerBalanceRequests?CustomerId=${customer}`, { token: tokens.brandmanager });
    const items = await server.api.get(`${API}/GetUserPunchesInfoDetail?CustomerId=${customer}`, { token: tokens.brandmanager });
    expect([money.status, items.status]).toEqual([200, 200]);
    expect(money.body.result.data.map((r: { account: string }) => r.account)).toEqual(['credit']);
    expect(items.body.result.data.map((r: { account: string }) => r.account)).toEqual(['punches']);
    // A punches request cannot be decided through the money calls, nor the other way round.
    expect((await approve('admin', items.body.result.data[0].id)).status).toBe(404);
    expect((await server.api.put(`${API}/ApproveUserPunchesInfoDetail`, { token: tokens.admin, body: { id: money.body.result.data[0].id } })).status).toBe(404);
  });

  it('refuses bad input and callers out of scope, writing nothing; 401 and 403 come before the body', async () => {
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
    const ok = { customerId: customer, brandId: 7, account: 'wallet', amount: 2, reason: 'r' };
    await expectRefused('no reason', 400, () => ask('admin', { ...ok, reason: ' ' }));
    await expectRefused('zero amount', 400, () => ask('admin', { ...ok, amount: 0 }));
    await expectRefused('negative amount', 400, () => ask('admin', { ...ok, amount: -5 }));
    await expectRefused('more than 3 decimals', 400, () => ask('admin', { ...ok, amount: 1.0005 }));
    await expectRefused('amount as text', 400, () => ask('admin', { ...ok, amount: 'ten' }));
    await expectRefused('points are no request account', 400, () => ask('admin', { ...ok, account: 'points' }));
    await expectRefused('punches belong to /CustomerRequest', 400, () => ask('admin', { ...ok, account: 'punches' }));
    await expectRefused('unknown customer', 404, () => ask('admin', { ...ok, customerId: 999999 }));
    await expectRefused('brand of another company', 400, () => ask('companyadmin', { ...ok, brandId: 8 }));
    await expectRefused('branch user', 403, () => ask('branchuser', { ...ok, amount: 'bad' }));
    await expectRefused('customer', 403, () => ask('customer', ok));
    await expectRefused('anonymous', 401, () => ask('anonymous', { ...ok, amount: 'bad' }));
    await db().insert(t.customerWallets).values({ userId: customer, brandId: 8 }); // a customer of brand 8 too
    const other = await ask('admin', { ...ok, brandId: 8 });
    expect(other.status).toBe(200);
    await expectRefused('company admin, request of another company', 404, () => approve('companyadmin', other.body.result.id));
    await expectRefused('unknown request', 404, () => approve('admin', 999999));
    await expectRefused('anonymous deciding', 401, () => approve('anonymous', other.body.result.id));
    const list = await server.api.get(`${API}/GetCustomerBalanceRequests?Status=pending`, { token: tokens.brandmanager });
    expect(list.status).toBe(200);
    expect(list.body.result.data.length).toBeGreaterThan(0);
    expect(list.body.result.data.every((r: { brandId: number }) => r.brandId === 7)).toBe(true);
  });
});
