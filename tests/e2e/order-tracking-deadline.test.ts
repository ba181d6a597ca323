import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { PHONE, newContext, screenshot, shotOnFailure } from '../support/browser';
import { guestOrderBody } from '../support/guestOrders';
import { useServerAndBrowser } from '../support/harness';
import { NOT_ACCEPTED_IN_TIME } from '../../machines/orderLifecycle';

/**
 * Issue 11, browser story 2: an order nobody accepts is rejected by the server when its acceptance
 * deadline passes, with the reason 'Not accepted in time', and the guest's /track-order page says so
 * with no reload. The server runs its timed work with a deadline of DEADLINE_S seconds (the product's is
 * 10 minutes), long enough for the guest's page to show the order pending first.
 */
const DEADLINE_S = 20;
const { server, browser } = useServerAndBrowser({ acceptDeadlineSeconds: DEADLINE_S });

describe('the acceptance deadline, seen by the guest', () => {
  it('an order left alone past the deadline is rejected with "Not accepted in time" on the guest page, with no reload', async () => {
    const guestToken = await server.api.guestToken();
    const res = await server.api.post('/api/services/app/Store/SaveNewOrderVS1', {
      token: guestToken, body: guestOrderBody({ name: 'Deadline Guest' }), headers: { 'idempotency-key': randomUUID() },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const placed = Date.now();
    const { orderId, ohash } = res.body.result as { orderId: number; ohash: string };

    const page = await (await newContext(browser, server.url, PHONE)).newPage();
    await shotOnFailure(page, 'track-deadline', async () => {
      await page.goto('/');
      await page.evaluate((token) => { localStorage.setItem('token', token); localStorage.setItem('userId', '18'); }, guestToken);
      await page.goto(`/track-order?${new URLSearchParams({ orderId: String(orderId), ohash })}`);
      await page.locator('[data-testid="order-progress"][data-status="pending"]').waitFor();
      await screenshot(page, 'track-deadline-pending-390');
      const navigations = await page.evaluate(() => performance.getEntriesByType('navigation').length);

      // Nobody accepts it. The server rejects it at the deadline (swept every second here).
      await page.locator('[data-testid="order-progress"][data-status="rejected"]').waitFor({ timeout: (DEADLINE_S + 30) * 1000 });
      const after = (Date.now() - placed) / 1000;
      console.log(`guest saw the rejection ${after.toFixed(1)} s after placing (deadline ${DEADLINE_S} s)`);
      // Never before the deadline (less the time the placing request took to answer).
      expect(after).toBeGreaterThanOrEqual(DEADLINE_S - 3);
      expect(await page.getByTestId('order-reason').textContent()).toBe(`Reason: ${NOT_ACCEPTED_IN_TIME}`);
      // the page no longer reads as a success (it said 'Transaction Successfull' and 'Please pay at the branch')
      await page.getByRole('heading', { name: 'Order rejected' }).waitFor();
      expect(await page.getByText('Please pay at the branch').count()).toBe(0);
      expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(navigations);
      await screenshot(page, 'track-deadline-rejected-390');
    });
  });
});
