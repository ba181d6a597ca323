import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { DESKTOP, newContext, screenshot, shotOnFailure, signIn } from '../support/browser';
import { useServerAndBrowser } from '../support/harness';

/**
 * Issue 21, cash: a cash order paid at the counter and then rejected owes the customer their cash
 * at the branch. In the console's order drawer a brand manager marks the refund as handed back,
 * after confirming; the refund reads Refunded, and the customer's inbox says so.
 */
const STORE = '/api/services/app/Store';
const { server, browser } = useServerAndBrowser();

describe('an owed cash refund', () => {
  it('is marked handed back from the order drawer, after a confirmation', async () => {
    const customer = await server.api.login('customer');
    const placed = await server.api.post(`${STORE}/SaveNewOrderVS1`, {
      token: customer, headers: { 'idempotency-key': randomUUID() },
      body: { brandId: 7, paymentSystem: 2, deliveryOptions: { branchId: 1, isPickup: true }, products: [{ productId: 1, quantity: 1 }] },
    });
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    const { orderId, orderNumber } = placed.body.result as { orderId: number; orderNumber: string };
    const branch = await server.api.login('branchuser');
    expect((await server.api.put(`${STORE}/UpdateOrderToPaidStatus`, { token: branch, body: { orderId } })).status).toBe(200);
    expect((await server.api.put(`${STORE}/UpdateOrderStatus`, { token: branch, body: { orderId, status: 'rejected', reason: 'Item sold out' } })).status).toBe(200);

    const staff = await (await newContext(browser, server.url, DESKTOP)).newPage();
    await shotOnFailure(staff, 'refund-handed-back', async () => {
      await signIn(staff, 'brandmanager');
      await staff.goto(`/order?q=${encodeURIComponent(orderNumber)}`);
      await staff.locator(`[data-order-id="${orderId}"][data-column="customer"]`).click();
      const refunds = staff.locator('.order-drawer [data-testid="order-refunds"]');
      await refunds.locator('[data-refund-status="owed"]').waitFor();
      // Cancel leaves it owed.
      await refunds.getByTestId('refund-hand-back').click();
      const alert = staff.locator('.bp6-alert');
      await alert.getByText(/Did the customer get .+ back in cash at the branch\?/).waitFor();
      await screenshot(staff, 'console-refund-hand-back-confirm-1280');
      await alert.getByRole('button', { name: 'Cancel' }).click();
      await alert.waitFor({ state: 'detached' });
      expect(await refunds.locator('[data-refund-status="owed"]').count()).toBe(1);
      // Confirmed: handed back once.
      await refunds.getByTestId('refund-hand-back').click();
      await staff.locator('.bp6-alert').getByRole('button', { name: 'Yes, handed back' }).click();
      await refunds.locator('[data-refund-status="refunded"]').waitFor();
      expect(await refunds.getByTestId('refund-hand-back').count()).toBe(0);
      await screenshot(staff, 'console-refund-handed-back-1280');
    });
    const staffView = await server.api.get('/api/services/app/Refund/GetOrderRefunds', { token: branch, query: { OrderId: orderId } });
    expect(staffView.body.result).toMatchObject([{ status: 'refunded', handedBackBy: 3 }]);
    const inbox = await server.api.get('/api/services/app/Notifications/GetMyNotifications', { token: customer, query: { MaxResultCount: 20 } });
    expect((inbox.body.result.data as { text: string }[]).map((n) => n.text)).toContain(`${Number(placed.body.result.total).toFixed(3)} KD was returned to you at the branch.`);
  }, 120_000);
});
