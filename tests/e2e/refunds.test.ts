import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { startServerProcess, type ServerProcess } from '../support/serverProcess';
import { DESKTOP, PHONE, newContext, screenshot, shotOnFailure, signIn } from '../support/browser';
import { guestOrderBody } from '../support/guestOrders';
import { useServerAndBrowser } from '../support/harness';

/**
 * Issue 21 in Chromium, "Refunds that happen by themselves": a customer pays a KNET order on the
 * payment page, the branch rejects it, and the customer's tracker tells them when the money went
 * back, with no reload. The payment page is the sandbox's (the simulated MyFatoorah page is the
 * providers' work). The sandbox refunds at once (the worker is woken by the rejection's commit), so
 * "is being returned" is read on a server whose refund worker is off (the refund stays pending),
 * and "Returned on …" on one whose worker runs.
 */
const STORE = '/api/services/app/Store';
// The timed work (and with it the refund worker) runs only when a deadline is given: an hour keeps it out of the way.
const { server, browser } = useServerAndBrowser({ acceptDeadlineSeconds: 3600 });

/** The customer's KNET order, paid on the sandbox page in a phone-sized browser: its id, amount text and the tracker page. */
async function paidKnetOrder(on: ServerProcess) {
  const token = await on.api.login('customer');
  const body = { ...guestOrderBody(), paymentSystem: 1, guestCustomerName: undefined, guestPhoneNumber: undefined };
  const placed = await on.api.post(`${STORE}/SaveNewOrderVS1`, { token, body, headers: { 'idempotency-key': randomUUID() } });
  expect(placed.status, JSON.stringify(placed.body)).toBe(200);
  const { orderId, paymentUrl } = placed.body.result as { orderId: number; paymentUrl: string };
  expect(paymentUrl).toContain('/payments/sandbox/');
  const page = await (await newContext(browser, on.url, PHONE)).newPage();
  await page.goto('/');
  await page.evaluate((t) => { localStorage.setItem('token', t); localStorage.setItem('userId', '5'); }, token);
  await shotOnFailure(page, 'refund-pay', async () => {
    await page.goto(paymentUrl);
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL('**/track-order?**');
    await page.locator('[data-testid="order-progress"][data-status="pending"]').waitFor();
  });
  const detail = await on.api.get(`${STORE}/GetOrderDetail`, { token, query: { orderId } });
  expect(detail.body.result).toMatchObject({ isPaid: true, refunds: [] });
  return { token, orderId, page, orderNumber: detail.body.result.orderNumber as string, amount: `${Number(detail.body.result.total).toFixed(3)} KD` };
}

describe('while the money is on its way', () => {
  it('the tracker says it is being returned to the KNET card (a server whose refund worker is off: the refund stays pending)', async () => {
    const quiet = await startServerProcess();
    try {
      const { orderId, page, amount } = await paidKnetOrder(quiet);
      const rejected = await quiet.api.put(`${STORE}/UpdateOrderStatus`, { token: await quiet.api.login('branchuser'), body: { orderId, status: 'rejected', reason: 'Item sold out' } });
      expect(rejected.status).toBe(200);
      await shotOnFailure(page, 'refund-returning', async () => {
        const returning = page.locator('[data-testid="order-refunds"] [data-state="returning"]');
        await returning.waitFor({ timeout: 15_000 });
        expect(await returning.textContent()).toBe(`${amount} is being returned to your KNET card.`);
        await screenshot(page, 'track-order-refund-returning-390');
      });
    } finally {
      await quiet.close();
    }
  }, 120_000);
});

describe('a paid order the branch rejects', () => {
  it('the customer pays on the payment page, the branch rejects, the tracker shows the refund returned and the inbox both notices', async () => {
    const { token, orderId, page, orderNumber, amount } = await paidKnetOrder(server);

    const branch = await server.api.login('branchuser');
    const rejected = await server.api.put(`${STORE}/UpdateOrderStatus`, { token: branch, body: { orderId, status: 'rejected', reason: 'Item sold out' } });
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);

    await shotOnFailure(page, 'refund-tracker', async () => {
      const returned = page.locator('[data-testid="order-refunds"] [data-state="returned"]');
      await returned.waitFor({ timeout: 20_000 });
      expect(await returned.textContent()).toMatch(new RegExp(`^Returned on .+: ${amount.replace('.', '\\.')} to your KNET card\\.$`));
      await screenshot(page, 'track-order-refund-returned-390');
    });
    const after = await server.api.get(`${STORE}/GetOrderDetail`, { token, query: { orderId } });
    expect(after.body.result.refunds).toMatchObject([{ state: 'returned' }]);
    // The customer's inbox has both notifications.
    const inbox = await server.api.get('/api/services/app/Notifications/GetMyNotifications', { token, query: { MaxResultCount: 10 } });
    const texts = (inbox.body.result.data as { text: string }[]).map((n) => n.text);
    expect(texts).toContain(`${amount} is being returned to your KNET card.`);
    expect(texts).toContain(`${amount} was returned to your KNET card.`);

    // Staff see it on the order (its drawer) and in Payment History.
    const staff = await (await newContext(browser, server.url, DESKTOP)).newPage();
    await shotOnFailure(staff, 'refund-console', async () => {
      await signIn(staff, 'brandmanager');
      await staff.goto(`/order?q=${encodeURIComponent(orderNumber)}`);
      await staff.locator(`[data-order-id="${orderId}"][data-column="customer"]`).click();
      const refunds = staff.locator('.order-drawer [data-testid="order-refunds"]');
      await refunds.locator('[data-refund-status="refunded"]').waitFor();
      expect(await refunds.textContent()).toContain('Rejected by the branch');
      await screenshot(staff, 'console-order-drawer-refund-1280');
      await staff.goto(`/payment-history?Search=${encodeURIComponent(orderNumber)}`);
      await staff.locator('[data-refund-status="refunded"]', { hasText: `Refunded · ${amount}` }).first().waitFor();
      await screenshot(staff, 'console-payment-history-refund-1280');
    });
  }, 120_000);
});
