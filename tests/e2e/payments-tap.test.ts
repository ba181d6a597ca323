import { describe, expect, it } from 'vitest';
import { PHONE, newContext, screenshot, shotOnFailure } from '../support/browser';
import { startFakeTap } from '../support/fakeTap';
import { guestOrdersFromShop, serverWithGateway } from '../support/paymentGateways';
import { useServerAndBrowser, useStarted } from '../support/harness';
import { TEXT } from '../../domain/constants';

/**
 * Issue 21 in Chromium, "Providers", for Tap: a guest pays a KNET order through the simulated Tap
 * page (tests/support/fakeTap.ts, its documented protocol: the hosted page at transaction.url, the
 * return to redirect.url with tap_id, the charge posted to post.url signed in `hashstring`) and
 * lands on /track-order paid. The server is configured as in production, by TAP_* (with the fake's
 * base URL); the brand switches on KNET (Tap), payment method 6.
 */
const TAP_KEY = 'sk_test_e2e_tap_key';
const tap = useStarted('the fake Tap', () => startFakeTap({ secretKey: TAP_KEY }));
const { server, browser } = useServerAndBrowser(() => serverWithGateway({ TAP_SECRET_KEY: TAP_KEY, TAP_BASE_URL: tap.url }, [6]));

describe('a guest pays with KNET through Tap', () => {
  it('orders from the shop, pays on the Tap page and lands on /track-order paid, with the receipt', async () => {
    const page = await (await newContext(browser, server.url, PHONE)).newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await shotOnFailure(page, 'tap-pay', async () => {
      await guestOrdersFromShop(page, 'KNET (Tap)');

      // The simulated Tap page, on its own origin.
      await page.waitForURL(`${tap.url}/pay/**`);
      expect(await page.locator('.amount').textContent()).toMatch(/^\d+\.\d{3} KWD$/);
      await page.getByRole('button', { name: 'Pay' }).click();

      await page.waitForURL('**/track-order?**');
      await page.getByText(TEXT.transactionSuccess).waitFor();
      await page.getByTestId('payment-receipt').waitFor();
      await screenshot(page, 'tap-track-order-390');
    });
    const url = new URL(page.url());
    expect(url.searchParams.get('payment')).toBeNull();
    const orderId = Number(url.searchParams.get('orderId'));
    const detail = await server.api.get('/api/services/app/Store/GetOrderDetail', { token: await server.api.guestToken(), query: { orderId, ohash: url.searchParams.get('ohash') } });
    expect(detail.body.result).toMatchObject({ id: orderId, paymentSystemId: 6, isPaid: true });
    // One charge for the order, captured once; the receipt shows Tap's references.
    const charges = [...tap.charges.values()].filter((c) => c.reference.order === detail.body.result.orderNumber || c.redirect.url.includes(`o=${orderId}`));
    expect(charges.map((c) => c.status)).toEqual(['CAPTURED']);
    const [charge] = charges;
    expect(await page.getByTestId('receipt-payment-id').textContent()).toBe(charge.reference.payment);
    expect(await page.getByTestId('receipt-track-id').textContent()).toBe(charge.reference.track);
    expect(errors).toEqual([]);
  });
});
