import { beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { DESKTOP, PHONE, newContext, screenshot, shotOnFailure, signIn } from '../support/browser';
import { guestOrderBody } from '../support/guestOrders';
import { useServerAndBrowser } from '../support/harness';

/**
 * Issue 11 in Chromium, the customer's side: a guest follows the order on /track-order by its
 * ohash link, with no reload, while the branch acts in the console. The branch user rejects with
 * a reason from the dialog and the guest reads it; an order readied by the branch shows 'ready'
 * on the guest's page within a couple of seconds (median and worst of 20 measured).
 */
const STORE = '/api/services/app/Store';
let guestToken: string;
let branchToken: string;
const { server, browser } = useServerAndBrowser();
beforeAll(async () => {
  guestToken = await server.api.guestToken();
  branchToken = await server.api.login('branchuser');
});

/** A guest's pickup order; answers its id and the /track-order link the shop sends the guest to. */
async function guestOrder(name = 'Tracking Guest') {
  const res = await server.api.post(`${STORE}/SaveNewOrderVS1`, { token: guestToken, body: guestOrderBody({ name }), headers: { 'idempotency-key': randomUUID() } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const { orderId, ohash } = res.body.result as { orderId: number; ohash: string };
  return { id: orderId, link: `/track-order?${new URLSearchParams({ orderId: String(orderId), ohash })}` };
}

const setStatus = async (orderId: number, status: string) => {
  const res = await server.api.put(`${STORE}/UpdateOrderStatus`, { token: branchToken, body: { orderId, status } });
  expect(res.status, JSON.stringify(res.body.error)).toBe(200);
};

/** A guest's browser: the guest session the shop keeps after a guest checkout (token and user 18), as the checkout leaves it. */
async function guestPage(viewport: { width: number; height: number } = PHONE) {
  const page = await (await newContext(browser, server.url, viewport)).newPage();
  await page.goto('/');
  await page.evaluate((token) => { localStorage.setItem('token', token); localStorage.setItem('userId', '18'); }, guestToken);
  return page;
}

const progress = (page: Page, status: string) => page.locator(`[data-testid="order-progress"][data-status="${status}"]`);

describe('the guest follows the order on /track-order', () => {
  it('the branch user rejects with a reason picked in the dialog; the guest reads it with no reload', async () => {
    const order = await guestOrder('Reason Guest');
    const guest = await guestPage();
    const staff = await (await newContext(browser, server.url, DESKTOP)).newPage();
    await shotOnFailure(guest, 'track-reject-guest', async () => {
      await guest.goto(order.link);
      await progress(guest, 'pending').waitFor();
      await screenshot(guest, 'track-order-pending-390');
    });
    await shotOnFailure(staff, 'track-reject-console', async () => {
      await signIn(staff, 'branchuser');
      const reject = staff.locator(`[data-order-id="${order.id}"] [data-action="order.reject"], [data-order-id="${order.id}"][data-action="order.reject"]`).first();
      await reject.waitFor({ timeout: 30_000 });
      await reject.click();
      const dialog = staff.getByRole('dialog', { name: `Reject order #${order.id}?` });
      await dialog.waitFor();
      // Nothing is sent before a reason is chosen.
      expect(await dialog.getByRole('button', { name: 'Reject the order' }).isDisabled()).toBe(true);
      // Blueprint draws its own radio over the input: click the label, as a person does.
      await dialog.getByText('Another reason', { exact: true }).click();
      await dialog.getByLabel('Your reason').fill('The espresso machine is being repaired');
      await screenshot(staff, 'console-reject-dialog-1280');
      await dialog.getByRole('button', { name: 'Reject the order' }).click();
      await dialog.waitFor({ state: 'detached' });
    });
    await shotOnFailure(guest, 'track-reject-guest', async () => {
      const t0 = Date.now();
      await progress(guest, 'rejected').waitFor({ timeout: 15_000 });
      console.log(`guest saw the rejection ${Date.now() - t0} ms after the dialog closed`);
      expect(await guest.getByTestId('order-reason').textContent()).toBe('Reason: The espresso machine is being repaired');
      await screenshot(guest, 'track-order-rejected-390');
    });
  });

  it('ready shows on the guest page without a reload: ready → page, median and worst of 20', async () => {
    const page = await guestPage();
    const latencies: number[] = [];
    await shotOnFailure(page, 'track-ready', async () => {
      for (let i = 0; i < 20; i++) {
        const order = await guestOrder(`Ready Guest ${i}`);
        await setStatus(order.id, 'accepted');
        await page.goto(order.link);
        await progress(page, 'accepted').waitFor();
        const navigations = await page.evaluate(() => performance.getEntriesByType('navigation').length);
        const t0 = Date.now();
        await setStatus(order.id, 'ready');
        await progress(page, 'ready').waitFor({ timeout: 15_000 });
        latencies.push(Date.now() - t0);
        // The same document: no reload happened.
        expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(navigations);
        if (i === 0) {
          await screenshot(page, 'track-order-ready-390');
          await setStatus(order.id, 'closed');
          await progress(page, 'closed').waitFor({ timeout: 15_000 });
          await screenshot(page, 'track-order-closed-390');
        }
      }
    });
    const sorted = [...latencies].sort((a, b) => a - b);
    const median = (sorted[9] + sorted[10]) / 2;
    console.log(`ready → guest page (20 orders): median ${median} ms, worst ${sorted[19]} ms, all ${latencies.join(' ')}`);
    // "Within a couple of seconds": generous on a loaded machine; the figures are what the report gives.
    expect(median).toBeLessThan(3_000);
    expect(sorted[19]).toBeLessThan(10_000);
  });

  it('busy mode: the branch user announces +30 min for 30 minutes; the console and the shop say so; ending it clears both', async () => {
    const staff = await (await newContext(browser, server.url, DESKTOP)).newPage();
    const shop = await guestPage(DESKTOP);
    await shotOnFailure(staff, 'busy-console', async () => {
      await signIn(staff, 'branchuser');
      await staff.getByTestId('busy-mode-button').click();
      const dialog = staff.getByRole('dialog', { name: 'Busy mode' });
      await dialog.getByText('Take no new orders', { exact: true }).click();
      expect(await dialog.getByRole('checkbox', { name: 'Take no new orders' }).isChecked()).toBe(true);
      await dialog.getByLabel('Announce a longer wait').selectOption('30');
      await dialog.getByLabel('Switch off by itself after').selectOption('30');
      await dialog.getByRole('button', { name: 'Start busy mode' }).click();
      const banner = staff.getByTestId('console-busy-banner');
      await banner.waitFor();
      expect(await banner.textContent()).toContain('This branch is busy');
      expect(await banner.textContent()).toContain('Customers are told to expect 30 minutes more');
      await screenshot(staff, 'console-busy-mode-1280');
    });
    await shotOnFailure(shop, 'busy-shop', async () => {
      await shop.goto('/');
      const banner = shop.getByTestId('busy-banner');
      await banner.waitFor();
      expect(await banner.textContent()).toContain('This branch is busy and is not taking new orders until');
      await screenshot(shop, 'shop-busy-banner-1280');
    });
    await shotOnFailure(staff, 'busy-console', async () => {
      await staff.getByRole('button', { name: 'End busy mode now' }).click();
      await staff.getByTestId('console-busy-banner').waitFor({ state: 'detached' });
    });
    await shop.reload();
    await shop.getByRole('heading').first().waitFor();
    expect(await shop.getByTestId('busy-banner').count()).toBe(0);
  });
});
