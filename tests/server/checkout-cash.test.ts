import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { seededMenu } from '../support/shopMenu';
import { useServer } from '../support/harness';
import * as t from '../../server/db/schema';

/**
 * Issue 21, "Checkout and cash" (PGlite, and PostgreSQL with TEST_DATABASE_URL):
 * - a second Place order with the same cart and key answers the first order, never a second row
 *   (the shop keeps the key for the cart: machines/checkout.ts);
 * - closing or serving a cash order with the cash collected pays it in the same step, so payment
 *   history, the dashboard's revenue and /unpaidorders are right; closed without, it stays owed.
 */
const STORE = '/api/services/app/Store';
const SAVE = `${STORE}/SaveNewOrderVS1`;
const CASH = 2;
const CARD = 1;

let customer: string;
let branch: string;
let manager: string;
let menu: Awaited<ReturnType<typeof seededMenu>>;
let keySeq = 0;

const server = useServer();
beforeAll(async () => {
  menu = await seededMenu(server);
  [customer, branch, manager] = await Promise.all([server.api.login('customer'), server.api.login('branchuser'), server.api.login('brandmanager')]);
});

const cart = (paymentSystem: number, carService = false) => ({
  brandId: 7, paymentSystem,
  ...(carService ? { carDetails: 'White Land Cruiser 12345' } : {}),
  deliveryOptions: { branchId: 1, ...(carService ? { isCarService: true } : { isPickup: true }) },
  products: [{ productId: menu.product('Cold Brew'), quantity: 2, additions: [{ additionId: menu.option('Cold Brew', 'Size', 'Large') }] }],
});

async function place(paymentSystem: number, opts: { carService?: boolean; key?: string } = {}) {
  const res = await server.api.post(SAVE, { token: customer, body: cart(paymentSystem, opts.carService), headers: { 'idempotency-key': opts.key ?? `cash-${++keySeq}` } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result as { orderId: number; ohash: string; paymentUrl: string | null; total: number; isPaid: boolean };
}
const ordersOfCustomer = async () => (await server.database.db.select({ id: t.orders.id }).from(t.orders).where(eq(t.orders.userId, 5))).length;
const orderRow = async (id: number) => (await server.database.db.select().from(t.orders).where(eq(t.orders.id, id)))[0];
const paymentRows = (orderId: number) => server.database.db.select().from(t.payments).where(eq(t.payments.orderId, orderId)).orderBy(t.payments.id);

async function accept(orderId: number) {
  const res = await server.api.put(`${STORE}/UpdateOrderStatus`, { token: branch, body: { orderId, status: 'accepted' } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}
const close = (orderId: number, cashCollected?: boolean) =>
  server.api.put(`${STORE}/UpdateOrderStatus`, { token: branch, body: { orderId, status: 'closed', ...(cashCollected === undefined ? {} : { cashCollected }) } });
const serve = (orderId: number, cashCollected?: boolean) =>
  server.api.post(`${STORE}/CustomerServed`, { token: branch, body: { orderId, ...(cashCollected === undefined ? {} : { cashCollected }) } });

/** Branch 1's figures as the console's dashboard and Payment History read them. */
async function branchFigures() {
  const stat = await server.api.get('/api/services/app/Statistic/GetStatisticByBrand', { token: manager, query: { brandId: 7 } });
  expect(stat.status, JSON.stringify(stat.body)).toBe(200);
  const history = await server.api.get('/api/services/app/PaymentDashboard/GetBrandCustomerPaymentsHistoryAccessibleForCurrentUser', {
    token: manager, query: { brandId: 7, branchId: 1, MaxResultCount: 100 },
  });
  expect(history.status, JSON.stringify(history.body)).toBe(200);
  const unpaid = await server.api.get(`${STORE}/GetUnPaidUserOrdersAsBranchUser`, { token: manager, query: { MaxResultCount: 100 } });
  expect(unpaid.status).toBe(200);
  return {
    revenue: (stat.body.result.revenueByBranch as { branchId: number; revenue: number }[]).find((b) => b.branchId === 1)!.revenue,
    paidIds: (history.body.result.data as { id: number }[]).map((p) => p.id),
    historyTotal: history.body.result.totalAmount as number,
    unpaidIds: (unpaid.body.result.data as { id: number }[]).map((o) => o.id),
  };
}

describe('a second Place order with the same cart', () => {
  it('replays the key and answers the first order and its payment page; no second row', async () => {
    const before = await ordersOfCustomer();
    const first = await place(CARD, { key: 'checkout-back-1' });
    expect(first.paymentUrl).toMatch(/\/payments\/sandbox\//);
    const again = await Promise.all([1, 2, 3].map(() => place(CARD, { key: 'checkout-back-1' })));
    for (const a of again) expect(a).toMatchObject({ orderId: first.orderId, ohash: first.ohash, paymentUrl: first.paymentUrl, isPaid: false });
    expect(await ordersOfCustomer()).toBe(before + 1);
    expect(await paymentRows(first.orderId)).toHaveLength(1);
  });
});

describe('closing or serving a cash order', () => {
  it('with the cash collected: paid in the same step, in payment history and revenue, not in /unpaidorders', async () => {
    const start = await branchFigures();
    const o = await place(CASH);
    await accept(o.orderId);
    const closed = await close(o.orderId, true);
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    expect(closed.body.result).toMatchObject({ id: o.orderId, status: 'closed', payment: 'paid', isCash: true });
    const row = await orderRow(o.orderId);
    expect(row).toMatchObject({ status: 'closed', payment: 'paid', version: 2 }); // accept, then one step for close + paid
    expect(row.paidAt).not.toBeNull();
    expect((await paymentRows(o.orderId)).map((p) => [p.provider, p.status])).toEqual([['cash', 'paid']]);

    const after = await branchFigures();
    expect(after.revenue).toBeCloseTo(start.revenue + o.total, 3);
    expect(after.paidIds).toContain(o.orderId);
    expect(after.historyTotal).toBeCloseTo(start.historyTotal + o.total, 3);
    expect(after.unpaidIds).not.toContain(o.orderId);
  });

  it('without it: closed and owed, in /unpaidorders, revenue and history unchanged', async () => {
    const start = await branchFigures();
    const o = await place(CASH);
    await accept(o.orderId);
    const closed = await close(o.orderId, false);
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    expect(closed.body.result).toMatchObject({ status: 'closed', payment: 'unpaid' });
    const after = await branchFigures();
    expect(after.revenue).toBeCloseTo(start.revenue, 3);
    expect(after.historyTotal).toBeCloseTo(start.historyTotal, 3);
    expect(after.paidIds).not.toContain(o.orderId);
    expect(after.unpaidIds).toContain(o.orderId);
    expect((await paymentRows(o.orderId)).map((p) => p.status)).toEqual(['pending']);
  });

  it('a drive-thru order served with the cash collected is paid and closed in one step', async () => {
    const o = await place(CASH, { carService: true });
    await accept(o.orderId);
    const served = await serve(o.orderId, true);
    expect(served.status, JSON.stringify(served.body)).toBe(200);
    expect(served.body.result).toMatchObject({ status: 'closed', arrival: 'served', payment: 'paid' });
    expect((await branchFigures()).paidIds).toContain(o.orderId);
  });

  it('cash collected with any other step is a 400 and writes nothing; a refused close does not pay either', async () => {
    const o = await place(CASH);
    const rejected = await server.api.put(`${STORE}/UpdateOrderStatus`, { token: branch, body: { orderId: o.orderId, status: 'rejected', reason: 'Item sold out', cashCollected: true } });
    expect(rejected.status).toBe(400);
    expect(rejected.body.error!.message).toBe('Cash is collected only when an order is closed or served.');
    // Pending: the machine refuses the close, and with it the payment (one step, or nothing).
    const early = await close(o.orderId, true);
    expect(early.status).toBe(409);
    expect(await orderRow(o.orderId)).toMatchObject({ status: 'pending', payment: 'unpaid', version: 0 });
    // A customer may not close orders: 403, whatever the body says.
    expect((await server.api.put(`${STORE}/UpdateOrderStatus`, { token: customer, body: { orderId: o.orderId, status: 'closed', cashCollected: 'yes' } })).status).toBe(403);
  });

  it("the dashboard's revenue for the cash branch equals the cash orders closed as collected", async () => {
    // Every order of this file is branch 1's; the card order above was never paid.
    const collected: number[] = [];
    for (const [i, withCash] of [true, false, true, true, false].entries()) {
      const o = await place(CASH, { carService: i === 3 });
      await accept(o.orderId);
      const res = i === 3 ? await serve(o.orderId, withCash) : await close(o.orderId, withCash);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const rows = await server.database.db.select().from(t.orders).where(eq(t.orders.branchId, 1));
    for (const r of rows) if (r.payment === 'paid') collected.push(Number(r.total));
    const expected = rows.filter((r) => r.status === 'closed' && r.payment === 'paid' && r.paymentSystemId === CASH).reduce((s, r) => s + Number(r.total), 0);
    expect(collected.reduce((s, x) => s + x, 0)).toBeCloseTo(expected, 3);
    expect(expected).toBeGreaterThan(0);
    const figures = await branchFigures();
    expect(figures.revenue).toBeCloseTo(expected, 3);
    expect(figures.historyTotal).toBeCloseTo(expected, 3);
    // The closed but uncollected ones are the branch's owed cash, listed as unpaid.
    const owed = rows.filter((r) => r.status === 'closed' && r.payment === 'unpaid').map((r) => r.id);
    expect(owed.length).toBeGreaterThanOrEqual(3);
    for (const id of owed) expect(figures.unpaidIds).toContain(id);
  });
});
