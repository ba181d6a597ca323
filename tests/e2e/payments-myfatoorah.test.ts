import { describe, expect, it } from 'vitest';
import { startServerProcess } from '../support/serverProcess';
import { DESKTOP, PHONE, newContext, screenshot, shotOnFailure, signIn } from '../support/browser';
import { startFakeMyFatoorah } from '../support/fakeMyFatoorah';
import { TEXT } from '../../domain/constants';
import { randomUUID } from 'node:crypto';
import { guestOrderBody } from '../support/guestOrders';
import { guestOrdersFromShop, serverWithGateway } from '../support/paymentGateways';
import { useServerAndBrowser, useStarted } from '../support/harness';

/**
 * Issue 21 in Chromium, "Providers": a guest pays a KNET order through the simulated MyFatoorah
 * page (tests/support/fakeMyFatoorah.ts, its documented protocol) and lands on /track-order paid.
 * The server is configured as in production, by MYFATOORAH_* (with the fake's base URL); the
 * brand switches on KNET (MyFatoorah), payment method 4.
 */
const MF = { apiKey: 'mf-e2e-api-key', webhookSecret: 'mf-e2e-webhook-secret' };
const mf = useStarted('the fake MyFatoorah', () => startFakeMyFatoorah(MF));

/** A server configured for MyFatoorah as in production (MYFATOORAH_*, the fake's base URL), with KNET (MyFatoorah) on for brand 7. */
async function serverWithMyFatoorah(opts: Parameters<typeof startServerProcess>[0] = {}) {
  const started = await serverWithGateway({ MYFATOORAH_API_KEY: MF.apiKey, MYFATOORAH_WEBHOOK_SECRET: MF.webhookSecret, MYFATOORAH_BASE_URL: mf.url }, [4], opts);
  mf.setWebhookUrl(`${started.url}/payments/myfatoorah/webhook`);
  return started;
}

const { server, browser } = useServerAndBrowser(() => serverWithMyFatoorah());

describe('a guest pays with KNET through MyFatoorah', () => {
  it('orders from the shop, pays on the MyFatoorah page and lands on /track-order paid', async () => {
    const page = await (await newContext(browser, server.url, PHONE)).newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await shotOnFailure(page, 'myfatoorah-pay', async () => {
      await guestOrdersFromShop(page, 'KNET (MyFatoorah)');

      // The simulated MyFatoorah page, on its own origin.
      await page.waitForURL(`${mf.url}/pay/**`);
      expect(await page.locator('.amount').textContent()).toMatch(/^\d+\.\d{3} KWD$/);
      await page.getByRole('button', { name: 'Pay' }).click();

      await page.waitForURL('**/track-order?**');
      await page.getByText(TEXT.transactionSuccess).waitFor();
      // The receipt KNET asks for: date and time, result, amount, payment id and track id.
      await page.getByTestId('payment-receipt').waitFor();
      await screenshot(page, 'myfatoorah-track-order-390');
    });
    const url = new URL(page.url());
    expect(url.searchParams.get('payment')).toBeNull();
    const orderId = Number(url.searchParams.get('orderId'));
    const detail = await server.api.get('/api/services/app/Store/GetOrderDetail', { token: await server.api.guestToken(), query: { orderId, ohash: url.searchParams.get('ohash') } });
    expect(detail.body.result).toMatchObject({ id: orderId, paymentSystemId: 4, isPaid: true });
    // Paid once: the return and the webhook both asked MyFatoorah, the invoice has one transaction.
    const invoice = [...mf.invoices.values()].find((i) => i.customerReference === detail.body.result.orderNumber)!;
    expect(invoice.transactions.map((t) => t.status)).toEqual(['Succss']);
    const [paid] = invoice.transactions;
    expect(await page.getByTestId('receipt-result').textContent()).toBe('CAPTURED');
    expect(await page.getByTestId('receipt-payment-id').textContent()).toBe(paid.paymentId);
    expect(await page.getByTestId('receipt-track-id').textContent()).toBe(paid.trackId);
    expect(errors).toEqual([]);

    // Staff: the reconciliation view lists it by state and provider with the provider's references.
    const staff = await (await newContext(browser, server.url, DESKTOP)).newPage();
    await signIn(staff, 'brandmanager');
    await staff.goto('/payment-reconciliation');
    await shotOnFailure(staff, 'payment-reconciliation-1280', async () => {
      const table = staff.locator('.resource-screen');
      await table.getByText(paid.trackId).waitFor({ timeout: 30_000 });
      await table.getByText(paid.paymentId).waitFor();
      await staff.getByLabel('State').selectOption({ label: 'Paid' });
      await staff.getByLabel('Provider').selectOption({ label: 'MyFatoorah' });
      await expect.poll(() => staff.getByText(/1–1 of 1/).count()).toBe(1);
      await screenshot(staff, 'payment-reconciliation-1280');
      await staff.getByLabel('Provider').selectOption({ label: 'Tap' });
      await staff.getByText('0 payments', { exact: true }).waitFor();
    });
  });
});

/**
 * Issue 21's first Chromium story: a customer pays through the simulated MyFatoorah page, the
 * branch rejects the order, and the tracker shows the refund. MyFatoorah answers a refund 'pending'
 * first (its finance team carries it out), so the tracker reads "is being returned" until the
 * refund worker's next status inquiry hears it was refunded, then "Returned on …".
 */
describe('a MyFatoorah-paid order the branch rejects', () => {
  it('the customer pays on the MyFatoorah page, the branch rejects, and the tracker shows the money being returned, then returned', async () => {
    // The timed work (and with it the refund worker) runs when a deadline is given: an hour keeps it out of the way.
    const withWorker = await serverWithMyFatoorah({ acceptDeadlineSeconds: 3600 });
    try {
      mf.state.refundMode = 'done';
      // The demo customer (user 5) orders KNET (MyFatoorah) and follows the order signed in, in a phone-sized browser.
      const token = await withWorker.api.login('customer');
      const placed = await withWorker.api.post('/api/services/app/Store/SaveNewOrderVS1', {
        token, body: { ...guestOrderBody(), paymentSystem: 4, guestCustomerName: undefined, guestPhoneNumber: undefined }, headers: { 'idempotency-key': randomUUID() },
      });
      expect(placed.status, JSON.stringify(placed.body)).toBe(200);
      const { orderId, paymentUrl } = placed.body.result as { orderId: number; paymentUrl: string };
      const page = await (await newContext(browser, withWorker.url, PHONE)).newPage();
      await page.goto('/');
      await page.evaluate((t) => { localStorage.setItem('token', t); localStorage.setItem('userId', '5'); }, token);
      let amount = '';
      await shotOnFailure(page, 'myfatoorah-refund', async () => {
        await page.goto(paymentUrl);
        await page.waitForURL(`${mf.url}/pay/**`);
        amount = (await page.locator('.amount').textContent())!.replace(' KWD', ' KD');
        await page.getByRole('button', { name: 'Pay' }).click();
        await page.waitForURL('**/track-order?**');
        await page.getByText(TEXT.transactionSuccess).waitFor();

        const rejected = await withWorker.api.put('/api/services/app/Store/UpdateOrderStatus', {
          token: await withWorker.api.login('branchuser'), body: { orderId, status: 'rejected', reason: 'Item sold out' },
        });
        expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);

        const returning = page.locator('[data-testid="order-refunds"] [data-state="returning"]');
        await returning.waitFor({ timeout: 30_000 });
        expect(await returning.textContent()).toBe(`${amount} is being returned to your KNET card.`);
        await screenshot(page, 'myfatoorah-refund-returning-390');

        // The worker asks MyFatoorah again after its first wait (30 s) and hears REFUNDED.
        const returned = page.locator('[data-testid="order-refunds"] [data-state="returned"]');
        await returned.waitFor({ timeout: 90_000 });
        expect(await returned.textContent()).toMatch(new RegExp(`^Returned on .+: ${amount.replace('.', '\\.')} to your KNET card\\.$`));
        await screenshot(page, 'myfatoorah-refund-returned-390');
      });
      // MyFatoorah was asked to refund once, for the whole amount, under the refund's own key.
      const asked = [...mf.refunds.values()];
      expect(asked).toHaveLength(1);
      expect(asked[0].amount.toFixed(3)).toBe(amount.replace(' KD', ''));
      expect(asked[0].key).toBeTruthy();
    } finally {
      await withWorker.close();
    }
  }, 180_000);
});
