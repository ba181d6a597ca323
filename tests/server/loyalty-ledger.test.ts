import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { type Envelope } from '../support/server';
import { seededMenu } from '../support/shopMenu';
import { callerTokens, type Who } from '../support/adminMatrix';
import { useServer } from '../support/harness';
import * as t from '../../server/db/schema';
import type { Db } from '../../server/db/client';
import { ledgerMismatches, postToLedger, setBalance, type Account } from '../../server/loyalty/ledger';

/**
 * The loyalty ledger (docs/decisions.md "Loyalty"): balances never go below zero, a key is applied
 * once, the ledger's sums equal the cached balances after every step, and the order lifecycle
 * earns, returns and takes back through it.
 */
let menu: Awaited<ReturnType<typeof seededMenu>>;
let tokens: Record<Who, string | undefined>;
let orderKey = 0;
const db = () => server.database.db as unknown as Db;
const CUSTOMER = 5;

const server = useServer();
beforeAll(async () => {
  menu = await seededMenu(server);
  tokens = await callerTokens(server);
}, 120_000);

async function balance(userId: number, brandId: number, account: Account) {
  const col = { wallet: t.customerWallets.balance, credit: t.customerWallets.credit, points: t.customerWallets.points, punches: t.customerWallets.punches, freeItems: t.customerWallets.freeItems }[account];
  const [row] = await db().select({ v: col }).from(t.customerWallets).where(and(eq(t.customerWallets.userId, userId), eq(t.customerWallets.brandId, brandId)));
  return Number(row?.v ?? 0);
}
const ledgerCount = async () => Number((await db().select({ n: sql<number>`count(*)::int` }).from(t.walletLedger))[0].n);
const wallets = () => db().select().from(t.customerWallets).orderBy(t.customerWallets.userId, t.customerWallets.brandId);
const expectInvariant = async () => expect(await ledgerMismatches(db())).toEqual([]);

/** A fresh registered customer, so tests do not share balances. */
let phone = 0;
async function newCustomer() {
  const [u] = await db().insert(t.users).values({
    userName: `ledger${++phone}`, fullName: `Ledger Customer ${phone}`, role: 'CUSTOMER', phoneNumber: `+9656${String(phone).padStart(7, '0')}`, passwordHash: '!',
  }).returning();
  // A customer of brand 7 (a wallet there): staff credit only customers of their brands.
  await db().insert(t.customerWallets).values({ userId: u.id, brandId: 7 });
  return u.id;
}

const spend = (userId: number, amount: number, key: string, account: Account = 'points') => db().transaction((tx) => postToLedger(tx, {
  userId, brandId: 7, account, amount: -amount, reason: 'test spend', reference: { type: 'adjustment', id: null }, createdBy: null, key,
}));
const earn = (userId: number, amount: number, key: string, account: Account = 'points') => db().transaction((tx) => postToLedger(tx, {
  userId, brandId: 7, account, amount, reason: 'test earn', reference: { type: 'adjustment', id: null }, createdBy: null, key,
}));

describe('the ledger', () => {
  it('the seeded database keeps the invariant, and the ledger refuses edits and removals', async () => {
    await expectInvariant();
    await expect(db().execute(sql`update wallet_ledger set amount = 0`)).rejects.toThrow();
    await expect(db().execute(sql`delete from wallet_ledger`)).rejects.toThrow();
    await expect(db().execute(sql`update customer_wallets set points = -1 where user_id = 5`)).rejects.toThrow();
  });

  it('50 parallel spends never take a balance below zero, and the sum equals the balance', async () => {
    const user = await newCustomer();
    await earn(user, 120, `par-earn-${user}`);
    const started = Date.now();
    const results = await Promise.allSettled(Array.from({ length: 50 }, (_, i) => spend(user, 7, `par-spend-${user}-${i}`)));
    console.log(`50 parallel spends: ${Date.now() - started} ms`);
    const ok = results.filter((r) => r.status === 'fulfilled').length;
    expect(ok).toBe(Math.floor(120 / 7));
    for (const r of results) if (r.status === 'rejected') expect((r.reason as { status?: number }).status).toBe(400);
    expect(await balance(user, 7, 'points')).toBe(120 - 7 * ok);
    await expectInvariant();
  }, 60_000);

  it('the same adjustment key sent 10 times in parallel writes one row', async () => {
    const user = await newCustomer();
    const before = await ledgerCount();
    // ADMIN: a grant that applies at once (anyone below ADMIN asks for it: tests/server/money-four-eyes.test.ts).
    const results = await Promise.all(Array.from({ length: 10 }, () => server.api.put('/api/services/app/Customer/UpdateDepositWalletByid', {
      token: tokens.admin, body: { customerId: user, brandId: 7, amount: 2.5, reason: 'Goodwill', idempotencyKey: 'deposit-once' },
    })));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(results.filter((r) => r.body.result.applied)).toHaveLength(1);
    expect(await ledgerCount()).toBe(before + 1);
    expect(await balance(user, 7, 'wallet')).toBe(2.5);
    await expectInvariant();
  }, 60_000);

  it('a randomized sequence of earn / spend / refund / adjust keeps the invariant after every step', async () => {
    const user = await newCustomer();
    let step = 0;
    const op = fc.oneof(
      fc.record({ kind: fc.constant('earn' as const), n: fc.integer({ min: 1, max: 50 }) }),
      fc.record({ kind: fc.constant('spend' as const), n: fc.integer({ min: 1, max: 60 }) }),
      fc.record({ kind: fc.constant('refund' as const), n: fc.nat() }),
      fc.record({ kind: fc.constant('adjust' as const), n: fc.integer({ min: 0, max: 80 }) }),
    );
    await fc.assert(fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
      let model = await balance(user, 7, 'points');
      const spends: Array<{ key: string; n: number }> = [];
      for (const o of ops) {
        const key = `rand-${user}-${++step}`;
        if (o.kind === 'earn') { await earn(user, o.n, key); model += o.n; }
        if (o.kind === 'spend') {
          const res = await spend(user, o.n, key).then(() => true, (err: { status?: number }) => { expect(err.status).toBe(400); return false; });
          expect(res).toBe(model >= o.n);
          if (res) { model -= o.n; spends.push({ key, n: o.n }); }
        }
        if (o.kind === 'refund' && spends.length) {
          // A refund gives a spend back once, however often it is asked.
          const s = spends[o.n % spends.length];
          const first = await earn(user, s.n, `refund:${s.key}`);
          const again = await earn(user, s.n, `refund:${s.key}`);
          if (first.applied) model += s.n;
          expect(again.applied).toBe(false);
        }
        if (o.kind === 'adjust') {
          await db().transaction((tx) => setBalance(tx, { userId: user, brandId: 7, account: 'points', balance: o.n, reason: 'set', reference: { type: 'adjustment', id: null }, createdBy: null, key }));
          model = o.n;
        }
        expect(await balance(user, 7, 'points')).toBe(model);
        await expectInvariant();
      }
    }), { numRuns: 12 });
  }, 120_000);
});

describe('Customer balance calls', () => {
  async function expectNothingWritten(what: string, status: number, call: () => Promise<{ status: number; body: Envelope }>) {
    const [ledger, walletRows] = [await ledgerCount(), await wallets()];
    const res = await call();
    expect(res.status, `${what}: ${JSON.stringify(res.body.error)}`).toBe(status);
    expect(res.body.error?.message, what).toBeTruthy();
    expect(await ledgerCount(), what).toBe(ledger);
    expect(await wallets(), what).toEqual(walletRows);
  }

  it('sets a balance by writing the difference with the reason; the ledger history shows it', async () => {
    const user = await newCustomer();
    await earn(user, 10, `hist-${user}`, 'wallet');
    const res = await server.api.put('/api/services/app/Customer/UpdateCustomerWalletBalance', {
      token: tokens.brandmanager, body: { customerId: user, brandId: 7, balance: 4.25, reason: 'Corrected a double top-up' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result).toMatchObject({ balance: 4.25, applied: true, account: 'wallet' });
    const history = await server.api.get(`/api/services/app/Customer/GetCustomerLedger?CustomerId=${user}`, { token: tokens.brandmanager });
    expect(history.status).toBe(200);
    expect(history.body.result.data[0]).toMatchObject({ account: 'wallet', amount: -5.75, reason: 'Corrected a double top-up', referenceType: 'adjustment', createdBy: 3, createdByName: 'Bader Brand' });
    const details = await server.api.get(`/api/services/app/Customer/GetCustomerWalletPunchesAndFreeItemsDetails?CustomerId=${user}&BrandId=7`, { token: tokens.admin });
    expect(details.body.result).toMatchObject({ wallet: 4.25, credit: 0, points: 0 });
    // Raising balances applies at once for ADMIN only (four eyes); a brand manager's decrease above applied at once.
    const punches = await server.api.put('/api/services/app/Customer/UpdateCustomerFreeItemsAndPunches', {
      token: tokens.admin, body: { customerId: user, brandId: 7, punches: 3, freeItems: 1, reason: 'Paper card moved to the app' },
    });
    expect(punches.body.result).toMatchObject({ punches: 3, freeItems: 1 });
    const credit = await server.api.put('/api/services/app/Customer/UpdateCustomerCreditBalanceByCompanyManager', {
      token: tokens.admin, body: { customerId: user, brandId: 7, balance: 12, reason: 'Corporate account' },
    });
    expect(credit.body.result).toMatchObject({ balance: 12 });
    const read = await server.api.get(`/api/services/app/Customer/GetCustomerCreditBalanceByCompanyManager?CustomerId=${user}&BrandId=7`, { token: tokens.companyadmin });
    expect(read.body.result).toBe(12);
    await expectInvariant();
  });

  it('refuses bad input and callers out of scope, writing nothing', async () => {
    const user = await newCustomer();
    await earn(user, 1, `bad-${user}`, 'wallet');
    const put = (name: string, who: Who, body: unknown) => () => server.api.put(`/api/services/app/Customer/${name}`, { token: tokens[who], body });
    const ok = { customerId: user, brandId: 7, amount: 1, reason: 'r' };
    await expectNothingWritten('no reason', 400, put('UpdateDepositWalletByid', 'admin', { ...ok, reason: undefined }));
    await expectNothingWritten('blank reason', 400, put('UpdateDepositWalletByid', 'admin', { ...ok, reason: '   ' }));
    await expectNothingWritten('negative deposit', 400, put('UpdateDepositWalletByid', 'admin', { ...ok, amount: -1 }));
    await expectNothingWritten('fils below 0.001', 400, put('UpdateDepositWalletByid', 'admin', { ...ok, amount: 0.0001 }));
    await expectNothingWritten('negative balance', 400, put('UpdateCustomerWalletBalance', 'admin', { customerId: user, brandId: 7, balance: -3, reason: 'r' }));
    await expectNothingWritten('fractional punches', 400, put('UpdateCustomerFreeItemsAndPunches', 'admin', { customerId: user, brandId: 7, punches: 1.5, freeItems: 0, reason: 'r' }));
    await expectNothingWritten('unknown customer', 404, put('UpdateDepositWalletByid', 'admin', { ...ok, customerId: 999999 }));
    await expectNothingWritten('a staff user is no customer', 404, put('UpdateDepositWalletByid', 'admin', { ...ok, customerId: 3 }));
    await expectNothingWritten('unknown brand', 400, put('UpdateDepositWalletByid', 'admin', { ...ok, brandId: 999 }));
    // Scope matrix: company 1 owns brand 7, company 2 brand 8.
    await expectNothingWritten('brand manager, other brand', 400, put('UpdateDepositWalletByid', 'brandmanager', { ...ok, brandId: 8 }));
    await expectNothingWritten('company admin, other company', 400, put('UpdateCustomerWalletBalance', 'companyadmin', { customerId: user, brandId: 8, balance: 5, reason: 'r' }));
    await expectNothingWritten('branch user', 403, put('UpdateDepositWalletByid', 'branchuser', ok));
    await expectNothingWritten('customer', 403, put('UpdateDepositWalletByid', 'customer', ok));
    await expectNothingWritten('anonymous', 401, put('UpdateDepositWalletByid', 'anonymous', ok));
    await expectNothingWritten('brand manager on a company manager call', 403, put('UpdateCustomerWalletBalanceByCompanyManager', 'brandmanager', { customerId: user, brandId: 7, balance: 5, reason: 'r' }));
    await expectNothingWritten('401 before the body', 401, put('UpdateDepositWalletByid', 'anonymous', { nonsense: true }));
    await expectNothingWritten('403 before the body', 403, put('UpdateDepositWalletByid', 'customer', { nonsense: true }));
    for (const who of ['admin', 'companyadmin', 'brandmanager'] as const) {
      const res = await put('UpdateDepositWalletByid', who, { ...ok, idempotencyKey: `matrix-${who}` })();
      expect(res.status, who).toBe(200);
    }
    await expectInvariant();
  });

  it('lists customers: pages of 10, search by name and phone, each caller their own', async () => {
    const page = await server.api.get('/api/services/app/Customer/GetCustomersAccessibleForCurrentUser?MaxResultCount=10&Search=Ledger', { token: tokens.admin });
    expect(page.status).toBe(200);
    expect(page.body.result.data.length).toBeLessThanOrEqual(10);
    expect(page.body.result.totalCount).toBeGreaterThan(3);
    const byPhone = await server.api.get('/api/services/app/Customer/GetCustomersAccessibleForCurrentUser?Search=50000001', { token: tokens.brandmanager });
    expect(byPhone.body.result.data.map((c: { id: number }) => c.id)).toEqual([CUSTOMER]);
    const brand8 = await server.api.get('/api/services/app/Customer/GetCustomersSubscribedToBrandByBrandID?BrandId=8', { token: tokens.brandmanager });
    expect(brand8.status).toBe(400);
    const other = await server.api.get(`/api/services/app/Customer/GetCustomerDetailsById?Id=${CUSTOMER}`, { token: tokens.branchuser });
    expect(other.status).toBe(403);
    const details = await server.api.get(`/api/services/app/Customer/GetCustomerDetailsById?Id=${CUSTOMER}`, { token: tokens.brandmanager });
    expect(details.body.result).toMatchObject({ id: CUSTOMER, fullName: 'Sara Customer' });
    expect(details.body.result.balances.map((b: { brandId: number }) => b.brandId)).toEqual([7]);
    const edited = await server.api.put('/api/services/app/Customer/UpdateCustomerDetailsFromAdminPanel', { token: tokens.brandmanager, body: { id: CUSTOMER, gender: 'F', birthDate: '1994-05-01' } });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect((await server.api.get(`/api/services/app/Customer/GetCustomerDetailsById?Id=${CUSTOMER}`, { token: tokens.admin })).body.result).toMatchObject({ gender: 'F', birthDate: '1994-05-01', fullName: 'Sara Customer' });
    const [before] = await db().select().from(t.users).where(eq(t.users.id, CUSTOMER));
    expect((await server.api.put('/api/services/app/Customer/UpdateCustomerDetailsFromAdminPanel', { token: tokens.admin, body: { id: CUSTOMER, fullName: '  ' } })).status).toBe(400);
    expect((await server.api.put('/api/services/app/Customer/UpdateCustomerDetailsFromAdminPanel', { token: tokens.admin, body: { id: CUSTOMER, emailAddress: 'admin@brewops.test' } })).status).toBe(400);
    expect((await server.api.put('/api/services/app/Customer/UpdateCustomerDetailsFromAdminPanel', { token: tokens.admin, body: { id: 3, fullName: 'Staff' } })).status).toBe(404);
    expect((await server.api.put('/api/services/app/Customer/UpdateCustomerDetailsFromAdminPanel', { token: tokens.branchuser, body: { id: CUSTOMER, fullName: 'X' } })).status).toBe(403);
    const [after] = await db().select().from(t.users).where(eq(t.users.id, CUSTOMER));
    expect(after).toEqual(before);
    const [brand] = await db().select().from(t.carBrands).limit(1);
    const [type] = await db().select().from(t.carTypes).limit(1);
    const [color] = await db().select().from(t.carColors).limit(1);
    await db().insert(t.customerCars).values({ userId: CUSTOMER, carBrandId: brand.id, carTypeId: type.id, carColorId: color.id, plateNumber: '12-345' });
    const cars = await server.api.get(`/api/services/app/Cars/GetCustomerCarsForDashBoard?CustomerId=${CUSTOMER}`, { token: tokens.brandmanager });
    expect(cars.body.result.map((c: { plateNumber: string }) => c.plateNumber)).toEqual(['12-345']);
    expect((await server.api.get(`/api/services/app/Cars/GetCustomerCarsForDashBoard?CustomerId=3`, { token: tokens.admin })).status).toBe(404);
    expect((await server.api.get(`/api/services/app/Cars/GetCustomerCarsForDashBoard?CustomerId=${CUSTOMER}`, { token: tokens.branchuser })).status).toBe(403);
  });
});

describe('reward programs through the order lifecycle', () => {
  async function order(products: Array<{ productId: number; quantity: number; isRedeem?: boolean }>) {
    const res = await server.api.post('/api/services/app/Store/SaveNewOrderVS1', {
      token: tokens.customer, headers: { 'idempotency-key': `loyalty-${++orderKey}` },
      body: { brandId: 7, paymentSystem: 2, deliveryOptions: { branchId: 1, isPickup: true }, products },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return { id: res.body.result.orderId as number, total: res.body.result.total as number };
  }
  const status = (orderId: number, s: string) => server.api.put('/api/services/app/Store/UpdateOrderStatus', { token: tokens.branchuser, body: { orderId, status: s } });
  const createProgram = (kind: string, body: Record<string, unknown>, who: Who = 'brandmanager') =>
    server.api.post(`/api/services/app/RewardPrograms/Create${kind}`, { token: tokens[who], body });

  it('refuses bad programs and callers out of scope', async () => {
    const before = await db().select().from(t.rewardPrograms);
    expect((await createProgram('PointsCollection', { branchId: 2, name: 'X', pointsPerKd: 1 })).status).toBe(400);
    expect((await createProgram('PointsCollection', { branchId: 1, name: 'X', pointsPerKd: 0 })).status).toBe(400);
    expect((await createProgram('PointsCollection', { branchId: 1, name: 'X', pointsPerKd: 1 }, 'branchuser')).status).toBe(403);
    expect((await createProgram('PurchasesCollection', { branchId: 1, name: 'X', target: 5, productIds: [999999] })).status).toBe(400);
    expect((await createProgram('PurchasesCollection', { branchId: 1, name: 'X', target: 0, productIds: [menu.product('Espresso')] })).status).toBe(400);
    expect((await createProgram('ConstantDiscount', { branchId: 1, name: 'X', customerGroupId: 999999, discountPercent: 5 })).status).toBe(400);
    expect(await db().select().from(t.rewardPrograms)).toEqual(before);
  });

  it('points and punches are earned when the order is closed, spent points come back and earned ones go on refund', async () => {
    const points = await createProgram('PointsCollection', { branchId: 1, name: 'Bean points', pointsPerKd: 10 });
    expect(points.status, JSON.stringify(points.body)).toBe(200);
    const second = await createProgram('PointsCollection', { branchId: 1, name: 'Again', pointsPerKd: 1 });
    expect(second.status).toBe(400);
    const punch = await createProgram('PurchasesCollection', { branchId: 1, name: 'Espresso card', target: 2, productIds: [menu.product('Espresso')] });
    expect(punch.status, JSON.stringify(punch.body)).toBe(200);
    const listed = await server.api.get('/api/services/app/RewardPrograms/GetBranchActualRewardProgramsByBranchIdForUser?branchId=1', {});
    expect(listed.body.result.map((p: { kind: string }) => p.kind).sort()).toEqual(['points', 'purchases']);

    const start = { points: await balance(CUSTOMER, 7, 'points'), punches: await balance(CUSTOMER, 7, 'punches'), free: await balance(CUSTOMER, 7, 'freeItems') };
    const o = await order([{ productId: menu.product('Espresso'), quantity: 3 }]);
    expect(await balance(CUSTOMER, 7, 'points')).toBe(start.points); // not when placed
    expect((await status(o.id, 'accepted')).status).toBe(200);
    expect(await balance(CUSTOMER, 7, 'points')).toBe(start.points);
    expect((await status(o.id, 'closed')).status).toBe(200);
    const earned = Math.floor(o.total * 10);
    expect(earned).toBeGreaterThan(0);
    expect(await balance(CUSTOMER, 7, 'points')).toBe(start.points + earned);
    // 3 punches at a target of 2: one free item, one punch left.
    const punchesNow = start.punches + 3;
    expect(await balance(CUSTOMER, 7, 'freeItems')).toBe(start.free + Math.floor(punchesNow / 2));
    expect(await balance(CUSTOMER, 7, 'punches')).toBe(punchesNow % 2);
    await expectInvariant();

    // Pay with points, then refund: spent points come back, earned ones are taken back, once.
    const beforeRedeem = await balance(CUSTOMER, 7, 'points');
    const r = await order([{ productId: menu.product('Espresso'), quantity: 1, isRedeem: true }, { productId: menu.product('Pistachio Cookie'), quantity: 1 }]);
    expect(await balance(CUSTOMER, 7, 'points')).toBe(beforeRedeem - 100);
    await status(r.id, 'accepted');
    await server.api.put('/api/services/app/Store/UpdateOrderToPaidStatus', { token: tokens.branchuser, body: { orderId: r.id } });
    await status(r.id, 'closed');
    const earned2 = Math.floor(r.total * 10);
    expect(await balance(CUSTOMER, 7, 'points')).toBe(beforeRedeem - 100 + earned2);
    await server.api.post('/api/services/app/Refund/InitiateRefundRequest', { token: tokens.branchuser, body: { orderId: r.id, reason: 'Cold' } });
    const approve = await server.api.post('/api/services/app/Refund/ApproveRefundRequest', { token: tokens.brandmanager, body: { orderId: r.id } });
    expect(approve.status).toBe(200);
    expect(await balance(CUSTOMER, 7, 'points')).toBe(beforeRedeem);
    await server.api.post('/api/services/app/Refund/ApproveRefundRequest', { token: tokens.brandmanager, body: { orderId: r.id } });
    expect(await balance(CUSTOMER, 7, 'points')).toBe(beforeRedeem);
    const rows = await db().select().from(t.walletLedger).where(eq(t.walletLedger.orderId, r.id));
    expect(rows.map((l) => [l.account, Number(l.amount)]).sort()).toEqual([['points', -100], ['points', -earned2], ['points', 100], ['points', earned2]].sort());
    await expectInvariant();
  }, 60_000);

  it('a no-show earns no points and no punches: the customer never came for it', async () => {
    // The programs of the test above, or the same ones when this test runs alone (a second points program is refused).
    await createProgram('PointsCollection', { branchId: 1, name: 'Bean points', pointsPerKd: 10 });
    await createProgram('PurchasesCollection', { branchId: 1, name: 'Espresso card', target: 2, productIds: [menu.product('Espresso')] });
    const balances = async () => ({ points: await balance(CUSTOMER, 7, 'points'), punches: await balance(CUSTOMER, 7, 'punches'), free: await balance(CUSTOMER, 7, 'freeItems') });
    // The same order closed earns: the programs are active.
    const served = await order([{ productId: menu.product('Espresso'), quantity: 2 }]);
    const before = await balances();
    await status(served.id, 'accepted');
    await status(served.id, 'closed');
    expect((await balances()).points).toBeGreaterThan(before.points);

    const start = await balances();
    const o = await order([{ productId: menu.product('Espresso'), quantity: 2 }]);
    expect((await status(o.id, 'accepted')).status).toBe(200);
    const noShow = await server.api.post('/api/services/app/Store/CustomerNoShow', { token: tokens.branchuser, body: { orderId: o.id, reason: 'Customer did not come' } });
    expect(noShow.status, JSON.stringify(noShow.body)).toBe(200);
    const [row] = await db().select({ status: t.orders.status, arrival: t.orders.arrival }).from(t.orders).where(eq(t.orders.id, o.id));
    expect(row).toEqual({ status: 'closed', arrival: 'noShow' });
    expect(await balances()).toEqual(start);
    expect(await db().select().from(t.walletLedger).where(eq(t.walletLedger.orderId, o.id))).toEqual([]);
    await expectInvariant();
  });

  it('a constant discount is the group discount of the shop', async () => {
    const [group] = await db().insert(t.customerGroups).values({ brandId: 7, name: 'Regulars' }).returning();
    const res = await createProgram('ConstantDiscount', { branchId: 1, name: 'Regulars 15%', customerGroupId: group.id, discountPercent: 15 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [g] = await db().select().from(t.customerGroups).where(eq(t.customerGroups.id, group.id));
    expect(Number(g.discountPercent)).toBe(15);
    const edit = await server.api.post('/api/services/app/RewardPrograms/EditConstantDiscount', { token: tokens.brandmanager, body: { id: res.body.result.id, isActive: false } });
    expect(edit.status).toBe(200);
    const [off] = await db().select().from(t.customerGroups).where(eq(t.customerGroups.id, group.id));
    expect(Number(off.discountPercent)).toBe(0);
    const del = await server.api.delete(`/api/services/app/RewardPrograms/DeleteDiscountProgram?Id=${res.body.result.id}`, { token: tokens.companyadmin });
    expect(del.status).toBe(200);
  });
});
