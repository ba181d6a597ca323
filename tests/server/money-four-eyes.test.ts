import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { callerTokens, type Who } from '../support/adminMatrix';
import { useServer } from '../support/harness';
import * as t from '../../server/db/schema';
import type { Db } from '../../server/db/client';
import { hashPassword } from '../../server/auth/password';
import { ledgerMismatches, type Account } from '../../server/loyalty/ledger';

/**
 * Four eyes on every grant (issue 20, docs/decisions.md "Loyalty: four eyes"): a grant of wallet
 * money, credit, points, punches or free items by anyone below ADMIN becomes a pending request and
 * writes nothing to the ledger, through the direct adjustment calls too; nobody decides their own
 * request (a 403, under the row lock, however many tries race); a reject names its reason; ADMIN's
 * direct grants and everyone's decreases apply at once.
 */
let tokens: Record<Who | 'brandmanager2', string | undefined>;
const db = () => server.database.db as unknown as Db;
const API = '/api/services/app/Customer';

const server = useServer();
beforeAll(async () => {
  const matrix = await callerTokens(server);
  // A second brand manager of brand 7: the one who may decide the first one's points, punches and free items.
  const [bm2] = await db().insert(t.users).values({
    userName: 'brandmanager2', fullName: 'Second Manager', role: 'BRAND_MANAGER', companyId: 1, brandId: 7, passwordHash: await hashPassword('123qwe'),
  }).returning();
  await db().insert(t.brandManagers).values({ userId: bm2.id, brandId: 7 });
  tokens = { ...matrix, brandmanager2: await server.api.login('brandmanager2') };
}, 120_000);

type Caller = keyof typeof tokens;
let phone = 0;
/** A registered customer of brand 7 (a wallet there: visible to brand 7's staff). */
async function newCustomer() {
  const [u] = await db().insert(t.users).values({
    userName: `foureyes${++phone}`, fullName: `Four Eyes ${phone}`, role: 'CUSTOMER', phoneNumber: `+9654${String(phone).padStart(7, '0')}`, passwordHash: '!',
  }).returning();
  await db().insert(t.customerWallets).values({ userId: u.id, brandId: 7 });
  return u.id;
}
const COLUMN = { wallet: 'balance', credit: 'credit', points: 'points', punches: 'punches', freeItems: 'freeItems' } as const;
async function balance(userId: number, account: Account) {
  const [w] = await db().select().from(t.customerWallets).where(and(eq(t.customerWallets.userId, userId), eq(t.customerWallets.brandId, 7)));
  return w ? Number(w[COLUMN[account]]) : 0;
}
const ledgerOf = (userId: number) => db().select().from(t.walletLedger).where(eq(t.walletLedger.userId, userId));
const requestOf = async (id: number) => (await db().select().from(t.customerRequests).where(eq(t.customerRequests.id, id)))[0];
const put = (who: Caller, name: string, body: Record<string, unknown>) => server.api.put(`${API}/${name}`, { token: tokens[who], body });
const post = (who: Caller, name: string, body: Record<string, unknown>) => server.api.post(`${API}/${name}`, { token: tokens[who], body });
const MONEY = { approve: 'ApproveCustomerBalanceRequest', reject: 'RejectCustomerBalanceRequest', insert: 'InsertCustomerBalanceRequest' };
const COUNTS = { approve: 'ApproveUserPunchesInfoDetail', reject: 'UpdateRejectCustomerFreeItemsAndPunches', insert: 'InsertUserPunchesInfoDetail' };

describe('four eyes on every grant', () => {
  it("a brand manager's direct deposit (1,000,000 KD, 100 KD) and wallet set become pending requests: no ledger row, balance unchanged", async () => {
    const customer = await newCustomer();
    const huge = await put('brandmanager', 'UpdateDepositWalletByid', { customerId: customer, brandId: 7, amount: 1_000_000, reason: 'Mint' });
    // Above the per-grant ceiling: refused outright (400), nothing asked for either.
    expect([200, 400]).toContain(huge.status);
    if (huge.status === 200) expect(huge.body.result).toMatchObject({ applied: false, balance: 0 });
    const deposit = await put('brandmanager', 'UpdateDepositWalletByid', { customerId: customer, brandId: 7, amount: 100, reason: 'Goodwill' });
    expect(deposit.status, JSON.stringify(deposit.body)).toBe(200);
    expect(deposit.body.result).toMatchObject({ customerId: customer, brandId: 7, account: 'wallet', balance: 0, applied: false });
    expect(deposit.body.result.requestId).toBeGreaterThan(0);
    expect(await requestOf(deposit.body.result.requestId)).toMatchObject({ status: 'pending', account: 'wallet', amount: '100.000', userId: customer });
    const set = await put('brandmanager', 'UpdateCustomerWalletBalance', { customerId: customer, brandId: 7, balance: 40, reason: 'Top-up' });
    expect(set.body.result).toMatchObject({ applied: false, balance: 0 });
    expect(await requestOf(set.body.result.requestId)).toMatchObject({ status: 'pending', account: 'wallet', amount: '40.000' });
    const credit = await put('companyadmin', 'UpdateCustomerCreditBalanceByCompanyManager', { customerId: customer, brandId: 7, balance: 12, reason: 'Corporate' });
    expect(credit.body.result).toMatchObject({ applied: false, balance: 0 });
    const items = await put('brandmanager', 'UpdateCustomerFreeItemsAndPunches', { customerId: customer, brandId: 7, punches: 3, freeItems: 1, reason: 'Paper card' });
    expect(items.status, JSON.stringify(items.body)).toBe(200);
    expect(items.body.result).toMatchObject({ punches: 0, freeItems: 0 });
    expect(items.body.result.requestIds).toHaveLength(2);
    // A retry with the same key asks once.
    const once = { customerId: customer, brandId: 7, amount: 5, reason: 'Retry', idempotencyKey: 'four-eyes-retry' };
    const [a, b] = [await put('brandmanager', 'UpdateCreditDepositWalletByid', once), await put('brandmanager', 'UpdateCreditDepositWalletByid', once)];
    expect(b.body.result.requestId).toBe(a.body.result.requestId);
    expect((await put('brandmanager', 'UpdateCreditDepositWalletByid', { ...once, amount: 6 })).status).toBe(422);
    expect(await ledgerOf(customer)).toEqual([]);
    for (const account of ['wallet', 'credit', 'punches', 'freeItems'] as const) expect(await balance(customer, account)).toBe(0);
  });

  it('nobody approves their own request: a company admin (wallet) and a brand manager (free items) get a 403; another authorised person approves once', async () => {
    const customer = await newCustomer();
    const wallet = await post('companyadmin', MONEY.insert, { customerId: customer, brandId: 7, account: 'wallet', amount: 1000, reason: 'Big' });
    expect(wallet.status, JSON.stringify(wallet.body)).toBe(200);
    const own = await put('companyadmin', MONEY.approve, { id: wallet.body.result.id });
    expect(own.status).toBe(403);
    expect(own.body.error?.message).toMatch(/another approver/);
    expect((await put('companyadmin', MONEY.reject, { id: wallet.body.result.id, reason: 'Mine' })).status).toBe(403);
    expect(await balance(customer, 'wallet')).toBe(0);
    const byAdmin = await put('admin', MONEY.approve, { id: wallet.body.result.id });
    expect(byAdmin.status, JSON.stringify(byAdmin.body)).toBe(200);
    expect(byAdmin.body.result).toMatchObject({ status: 'approved', customerName: `Four Eyes ${phone}`, account: 'wallet', amount: 1000, brandName: expect.any(String) });
    expect(await balance(customer, 'wallet')).toBe(1000);

    const free = await put('brandmanager', 'UpdateCustomerFreeItemsAndPunches', { customerId: customer, brandId: 7, punches: 0, freeItems: 2, reason: 'Birthday' });
    const [id] = free.body.result.requestIds;
    expect((await put('brandmanager', COUNTS.approve, { id })).status).toBe(403);
    expect(await balance(customer, 'freeItems')).toBe(0);
    // A second brand manager of the same brand decides points, punches and free items.
    const second = await put('brandmanager2', COUNTS.approve, { id });
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(await balance(customer, 'freeItems')).toBe(2);
    // …but not money: that is a company manager's.
    const money = await post('brandmanager', MONEY.insert, { customerId: customer, brandId: 7, account: 'credit', amount: 3, reason: 'r' });
    expect((await put('brandmanager2', MONEY.approve, { id: money.body.result.id })).status).toBe(403);
    expect(await ledgerMismatches(db())).toEqual([]);
  });

  it('parallel approvals pay once (one 200, the others 409); parallel self-approvals are all refused', async () => {
    const customer = await newCustomer();
    const asked = await post('brandmanager', COUNTS.insert, { customerId: customer, brandId: 7, account: 'punches', amount: 4, reason: 'Race' });
    const selfTries = await Promise.all(Array.from({ length: 6 }, () => put('brandmanager', COUNTS.approve, { id: asked.body.result.id })));
    expect(selfTries.map((r) => r.status)).toEqual(Array(6).fill(403));
    expect(await balance(customer, 'punches')).toBe(0);
    const deciders: Caller[] = ['admin', 'companyadmin', 'brandmanager2', 'admin', 'companyadmin', 'brandmanager2'];
    const results = await Promise.all(deciders.map((who) => put(who, COUNTS.approve, { id: asked.body.result.id })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    expect(await balance(customer, 'punches')).toBe(4);
    expect((await ledgerOf(customer)).filter((r) => r.referenceType === 'request')).toHaveLength(1);

    const money = await post('brandmanager', MONEY.insert, { customerId: customer, brandId: 7, account: 'wallet', amount: 7.5, reason: 'Race' });
    const mixed = await Promise.all([
      ...Array.from({ length: 3 }, () => put('brandmanager', MONEY.approve, { id: money.body.result.id })),
      put('admin', MONEY.approve, { id: money.body.result.id }), put('companyadmin', MONEY.approve, { id: money.body.result.id }),
    ]);
    expect(mixed.slice(0, 3).map((r) => r.status)).toEqual([403, 403, 403]);
    expect(mixed.slice(3).map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await balance(customer, 'wallet')).toBe(7.5);
    expect(await ledgerMismatches(db())).toEqual([]);
  });

  it('a reject takes a reason (400 without, nothing written) and keeps it; the answer names the customer, account and amount', async () => {
    const customer = await newCustomer();
    const asked = await post('brandmanager', COUNTS.insert, { customerId: customer, brandId: 7, account: 'freeItems', amount: 1, reason: 'Lost card' });
    for (const body of [{ id: asked.body.result.id }, { id: asked.body.result.id, reason: '' }, { id: asked.body.result.id, reason: '   ' }, { id: asked.body.result.id, reason: 'x'.repeat(501) }]) {
      const res = await put('companyadmin', COUNTS.reject, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect(await requestOf(asked.body.result.id)).toMatchObject({ status: 'pending', decidedBy: null, decisionReason: null });
    const rejected = await put('companyadmin', COUNTS.reject, { id: asked.body.result.id, reason: 'No proof of the card' });
    expect(rejected.status).toBe(200);
    expect(rejected.body.result).toMatchObject({ status: 'rejected', decisionReason: 'No proof of the card', customerName: `Four Eyes ${phone}`, account: 'freeItems', amount: 1 });
    expect(await ledgerOf(customer)).toEqual([]);
  });

  it('points: a request end to end, and the direct points call asks too; whole numbers only', async () => {
    const customer = await newCustomer();
    const asked = await post('brandmanager', COUNTS.insert, { customerId: customer, brandId: 7, account: 'points', amount: 25, reason: 'Survey' });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    expect(asked.body.result).toMatchObject({ status: 'pending', account: 'points', amount: 25 });
    expect((await post('brandmanager', COUNTS.insert, { customerId: customer, brandId: 7, account: 'points', amount: 2.5, reason: 'r' })).status).toBe(400);
    const list = await server.api.get(`${API}/GetUserPunchesInfoDetail?CustomerId=${customer}`, { token: tokens.companyadmin });
    expect(list.body.result.data.map((r: { account: string }) => r.account)).toEqual(['points']);
    expect((await put('brandmanager2', COUNTS.approve, { id: asked.body.result.id })).status).toBe(200);
    expect(await balance(customer, 'points')).toBe(25);
    const direct = await put('brandmanager', 'UpdateCustomerPointsBalance', { customerId: customer, brandId: 7, balance: 30, reason: 'Five more' });
    expect(direct.status, JSON.stringify(direct.body)).toBe(200);
    expect(direct.body.result).toMatchObject({ applied: false, balance: 25, account: 'points' });
    expect(await requestOf(direct.body.result.requestId)).toMatchObject({ account: 'points', amount: '5.000', status: 'pending' });
    expect(await balance(customer, 'points')).toBe(25);
  });

  it("ADMIN's direct grants apply at once, on the ledger with who did it; everyone's decreases apply at once with their reason", async () => {
    const customer = await newCustomer();
    const grant = await put('admin', 'UpdateDepositWalletByid', { customerId: customer, brandId: 7, amount: 50, reason: 'Operator grant' });
    expect(grant.body.result).toMatchObject({ applied: true, balance: 50, requestId: null });
    const points = await put('admin', 'UpdateCustomerPointsBalance', { customerId: customer, brandId: 7, balance: 10, reason: 'Operator points' });
    expect(points.body.result).toMatchObject({ applied: true, balance: 10 });
    const [row] = (await ledgerOf(customer)).filter((r) => r.account === 'wallet');
    const [admin] = await db().select().from(t.users).where(eq(t.users.userName, 'admin'));
    expect(row).toMatchObject({ createdBy: admin.id, reason: 'Operator grant', referenceType: 'adjustment' });

    const down = await put('brandmanager', 'UpdateCustomerWalletBalance', { customerId: customer, brandId: 7, balance: 20, reason: 'Double top-up taken back' });
    expect(down.body.result).toMatchObject({ applied: true, balance: 20, requestId: null });
    const pointsDown = await put('brandmanager', 'UpdateCustomerPointsBalance', { customerId: customer, brandId: 7, balance: 4, reason: 'Returned order' });
    expect(pointsDown.body.result).toMatchObject({ applied: true, balance: 4 });
    const taken = (await ledgerOf(customer)).filter((r) => Number(r.amount) < 0).map((r) => [r.account, Number(r.amount), r.reason]);
    expect(taken).toEqual([['wallet', -30, 'Double top-up taken back'], ['points', -6, 'Returned order']]);
    expect(await db().select().from(t.customerRequests).where(eq(t.customerRequests.userId, customer))).toEqual([]);
    expect(await ledgerMismatches(db())).toEqual([]);
  });

  it('the new request paths keep the 401/403 before the body, and the branch user and customer cannot decide', async () => {
    for (const name of [COUNTS.approve, COUNTS.reject, MONEY.approve, MONEY.reject]) {
      expect((await put('anonymous', name, { nonsense: true })).status).toBe(401);
      expect((await put('customer', name, { nonsense: true })).status).toBe(403);
      expect((await put('branchuser', name, { id: 1, reason: 'r' })).status).toBe(403);
    }
    expect((await put('branchuser', 'UpdateCustomerPointsBalance', { customerId: 1, brandId: 7, balance: 1, reason: 'r' })).status).toBe(403);
  });
});
