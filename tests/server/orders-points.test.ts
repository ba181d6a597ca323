import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { seededMenu } from '../support/shopMenu';
import { useServer } from '../support/harness';
import { customerWallets, walletLedger } from '../../server/db/schema';

/** No point is lost: points spent on an order come back once when the sale is undone. */
let menu: Awaited<ReturnType<typeof seededMenu>>;
let customer: string;
let branchUser: string;
let brandManager: string;
let key = 0;

const server = useServer();
beforeAll(async () => {
  menu = await seededMenu(server);
  [customer, branchUser, brandManager] = await Promise.all([server.api.login('customer'), server.api.login('branchuser'), server.api.login('brandmanager')]);
});

const points = async () => {
  const [w] = await server.database.db.select({ points: customerWallets.points }).from(customerWallets)
    .where(and(eq(customerWallets.userId, 5), eq(customerWallets.brandId, 7)));
  return w.points;
};

async function redeemEspresso(paymentSystem = 2) {
  const res = await server.api.post('/api/services/app/Store/SaveNewOrderVS1', {
    token: customer,
    headers: { 'idempotency-key': `points-${++key}` },
    body: { brandId: 7, paymentSystem, deliveryOptions: { branchId: 1, isPickup: true }, products: [
      { productId: menu.product('Espresso'), quantity: 1, isRedeem: true },
      { productId: menu.product('Pistachio Cookie'), quantity: 1 },
    ] },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result.orderId as number;
}

describe('redeemed points', () => {
  it('come back when the branch rejects the order, exactly once', async () => {
    const before = await points();
    const orderId = await redeemEspresso();
    expect(await points()).toBe(before - 100);
    const reject = await server.api.put('/api/services/app/Store/UpdateOrderStatus', { token: branchUser, body: { orderId, status: 'rejected', reason: 'Item sold out' } });
    expect(reject.status).toBe(200);
    expect(await points()).toBe(before);
    const again = await server.api.put('/api/services/app/Store/UpdateOrderStatus', { token: branchUser, body: { orderId, status: 'rejected', reason: 'Item sold out' } });
    expect(again.status).toBe(409);
    expect(await points()).toBe(before);
    const ledger = await server.database.db.select().from(walletLedger).where(eq(walletLedger.orderId, orderId));
    expect(ledger.map((l) => [l.account, Number(l.amount)]).sort()).toEqual([['points', -100], ['points', 100]]);
  });

  it('come back once when a paid order is rejected, which refunds it by itself (no refund request is taken for it)', async () => {
    const before = await points();
    const orderId = await redeemEspresso();
    await server.api.put('/api/services/app/Store/UpdateOrderToPaidStatus', { token: branchUser, body: { orderId } });
    await server.api.put('/api/services/app/Store/UpdateOrderStatus', { token: branchUser, body: { orderId, status: 'rejected', reason: 'Item sold out' } });
    expect(await points()).toBe(before);
    // Issue 21: the rejection refunds the paid order without anyone asking, so a refund request is refused.
    const ask = await server.api.post('/api/services/app/Refund/InitiateRefundRequest', { token: branchUser, body: { orderId, reason: 'Closed early' } });
    expect(ask.status).toBe(409);
    expect(await points()).toBe(before);
  });

  it('come back when a refund of an accepted order is approved', async () => {
    const before = await points();
    const orderId = await redeemEspresso();
    await server.api.put('/api/services/app/Store/UpdateOrderStatus', { token: branchUser, body: { orderId, status: 'accepted' } });
    await server.api.put('/api/services/app/Store/UpdateOrderToPaidStatus', { token: branchUser, body: { orderId } });
    await server.api.post('/api/services/app/Refund/InitiateRefundRequest', { token: branchUser, body: { orderId, reason: 'Wrong drink' } });
    expect(await points()).toBe(before - 100);
    await server.api.post('/api/services/app/Refund/ApproveRefundRequest', { token: brandManager, body: { orderId } });
    expect(await points()).toBe(before);
  });
});
