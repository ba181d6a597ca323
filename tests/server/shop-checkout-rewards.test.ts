import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { seededMenu } from '../support/shopMenu';
import { useServer } from '../support/harness';
import { customerWallets, orders, walletLedger } from '../../server/db/schema';
import { ORDER_TEXT } from '../../server/services/store/planOrder';

/**
 * Issue 24, "Points can't be spent" and "An estimate of the time": what the checkout shows before
 * Place order comes from the server (Store/QuoteOrder prices the points and the ready time), a
 * double submit spends the points once, and a rejection retried at once gives them back once.
 */
const API = '/api/services/app';
let menu: Awaited<ReturnType<typeof seededMenu>>;
let customer: string;
let branchUser: string;
let key = 0;

const server = useServer();
beforeAll(async () => {
  menu = await seededMenu(server);
  [customer, branchUser] = await Promise.all([server.api.login('customer'), server.api.login('branchuser')]);
}, 120_000);

const points = async () => {
  const [w] = await server.database.db.select({ points: customerWallets.points }).from(customerWallets)
    .where(and(eq(customerWallets.userId, 5), eq(customerWallets.brandId, 7)));
  return w?.points ?? 0;
};
const body = (espressoRedeemed: boolean, quantity = 1) => ({
  brandId: 7, paymentSystem: 2, deliveryOptions: { branchId: 1, isPickup: true }, products: [
    { productId: menu.product('Espresso'), quantity, isRedeem: espressoRedeemed },
    { productId: menu.product('Pistachio Cookie'), quantity: 1 },
  ],
});
const quote = (b: unknown) => server.api.post(`${API}/Store/QuoteOrder`, { token: customer, body: b });

describe('points at checkout', () => {
  it('the quote says what a line paid with points spends, and never more points than the balance', async () => {
    const before = await points();
    expect(before).toBe(120); // the seed's opening balance
    const paid = await quote(body(false));
    const redeemed = await quote(body(true));
    expect(redeemed.status, JSON.stringify(redeemed.body)).toBe(200);
    expect(redeemed.body.result.points).toBe(100);
    expect(paid.body.result.points).toBe(0);
    expect(redeemed.body.result.total).toBeCloseTo(paid.body.result.total - 0.9, 3); // Espresso's 0.900 KD is paid with points
    // Two espressos cost 200 points: more than the 120 held.
    const tooMany = await quote(body(true, 2));
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error!.message).toBe(ORDER_TEXT.notEnoughPoints);
    expect(await points()).toBe(before); // a quote spends nothing
  });

  it('a double submit spends them once, and a rejection sent twice at once gives them back once', async () => {
    const before = await points();
    const k = `rewards-${++key}`;
    const place = () => server.api.post(`${API}/Store/SaveNewOrderVS1`, { token: customer, headers: { 'idempotency-key': k }, body: body(true) });
    const [a, b] = await Promise.all([place(), place()]);
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(b.body.result.orderId).toBe(a.body.result.orderId);
    const orderId = a.body.result.orderId as number;
    expect(await points()).toBe(before - 100);

    const reject = () => server.api.put(`${API}/Store/UpdateOrderStatus`, { token: branchUser, body: { orderId, status: 'rejected', reason: 'Item sold out' } });
    const answers = (await Promise.all([reject(), reject()])).map((r) => r.status).sort();
    expect(answers).toEqual([200, 409]);
    expect(await points()).toBe(before);
    const ledger = await server.database.db.select().from(walletLedger).where(eq(walletLedger.orderId, orderId));
    expect(ledger.map((l) => [l.account, Number(l.amount)]).sort()).toEqual([['points', -100], ['points', 100]]);
  });
});

describe('ready-time estimate', () => {
  it("the quote and the order give the branch's preparation time plus its announced delay", async () => {
    const plain = await quote(body(false));
    expect(plain.body.result.readyMinutes).toBe(15); // the default preparation time
    const delayed = await server.api.put(`${API}/Branch/UpdateBusyMode`, { token: branchUser, body: { isBusy: false, delayMinutes: 30, forMinutes: 60 } });
    expect(delayed.status, JSON.stringify(delayed.body)).toBe(200);
    try {
      expect((await quote(body(false))).body.result.readyMinutes).toBe(45);
      const placed = await server.api.post(`${API}/Store/SaveNewOrderVS1`, { token: customer, headers: { 'idempotency-key': `rewards-${++key}` }, body: body(false) });
      expect(placed.status, JSON.stringify(placed.body)).toBe(200);
      const [row] = await server.database.db.select({ createdAt: orders.createdAt, readyEstimateAt: orders.readyEstimateAt }).from(orders).where(eq(orders.id, placed.body.result.orderId));
      expect((row.readyEstimateAt!.getTime() - row.createdAt.getTime()) / 60_000).toBeCloseTo(45, 0);
    } finally {
      await server.api.put(`${API}/Branch/UpdateBusyMode`, { token: branchUser, body: { isBusy: false, delayMinutes: 0 } });
    }
  });
});

describe('a sold-out line', () => {
  it('is named in the refusal (products[i]), so the shop marks that line instead of refusing the whole order', async () => {
    const cookie = menu.product('Pistachio Cookie');
    const off = await server.api.get(`${API}/Branch/GetProductSwitchForBranchUser`, { token: branchUser, query: { productId: cookie, branchId: 1, Switch: false } });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    try {
      const refused = await quote(body(false));
      expect(refused.status).toBe(400);
      expect(refused.body.error!.validationErrors).toEqual([{ message: refused.body.error!.message, members: ['products[1]'] }]);
    } finally {
      await server.api.get(`${API}/Branch/GetProductSwitchForBranchUser`, { token: branchUser, query: { productId: cookie, branchId: 1, Switch: true } });
    }
  });
});
