import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { randomUUID } from 'node:crypto';
import { PHONE, screenshot, shotOnFailure } from '../support/browser';
import { useServerAndBrowser } from '../support/harness';

/**
 * Issue 24 "The customer is told", in Chromium on a 390 px phone: the signed-in customer's bell
 * lists "accepted" once the operator accepts their order, in the language the customer uses the
 * shop in (the shop sends it with the bell's call; the server keeps it: server/notify/language.ts),
 * with no web push configured. English, then Arabic.
 */

const { server, browser } = useServerAndBrowser();

/** Signs the demo customer in on /login by the fields' names (their labels follow the language). */
async function signInAsCustomer(page: Page) {
  await page.goto('/login');
  await page.locator('input[name="login"]').fill('customer');
  await page.locator('input[name="password"]').fill('123qwe');
  await page.locator('button[type="submit"]').click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'), { timeout: 60_000 });
}

/** A time on Kuwait's clock (UTC+3 all year), worked out by hand: 'HH:MM'. */
const kuwaitClock = (iso: string) => new Date(Date.parse(iso) + 3 * 3600_000).toISOString().slice(11, 16);

const LANGUAGES = [
  { code: 'en', locale: 'en-US', accepted: 'Your order was accepted and is being prepared.', rejectedLater: /^Sorry, the branch could not take your order for \w{3}, \w{3} \d{1,2}, (\d\d:\d\d): Closing early\.$/ },
  { code: 'ar', locale: 'ar-KW', accepted: 'تم قبول طلبك ويجري تحضيره.', rejectedLater: /^عذرًا، لم يتمكن الفرع من قبول طلبك لموعد \S+، \d{1,2} \S+, (\d\d:\d\d): Closing early\.$/ },
] as const;

describe("the customer's bell", () => {
  for (const lang of LANGUAGES) {
    it(`lists 'accepted' after the operator accepts the order (${lang.code})`, async () => {
      const context = await browser.newContext({ baseURL: server.url, viewport: PHONE, deviceScaleFactor: 1, locale: lang.locale });
      const page = await context.newPage();
      try {
        await shotOnFailure(page, `order-notices-${lang.code}`, async () => {
          await signInAsCustomer(page);
          const bell = page.getByTestId('notification-bell');
          await bell.waitFor({ timeout: 30_000 });
          const unreadBefore = Number((await page.getByTestId('notification-count').textContent({ timeout: 2_000 }).catch(() => '0')) ?? 0);

          const customer = await server.api.login('customer');
          const placed = await server.api.post('/api/services/app/Store/SaveNewOrderVS1', {
            token: customer, headers: { 'idempotency-key': randomUUID() },
            body: { brandId: 7, paymentSystem: 2, deliveryOptions: { branchId: 1, isPickup: true }, products: [{ productId: 1, quantity: 1 }] },
          });
          expect(placed.status, JSON.stringify(placed.body)).toBe(200);
          const { orderId, orderNumber } = placed.body.result as { orderId: number; orderNumber: string };
          const accepted = await server.api.put('/api/services/app/Store/UpdateOrderStatus', {
            token: await server.api.login('branchuser'), body: { orderId, status: 'accepted' },
          });
          expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);

          // The bell asks again when the shop is opened again (and every minute, or when a push arrives).
          await page.reload();
          await expect.poll(async () => Number(await page.getByTestId('notification-count').textContent().catch(() => '0')), { timeout: 30_000 }).toBe(unreadBefore + 1);
          await page.getByTestId('notification-bell').click();
          const item = page.getByTestId('notification-panel').getByTestId('notification-item').filter({ hasText: orderNumber });
          await item.waitFor();
          expect(await item.textContent()).toContain(lang.accepted);
          await screenshot(page, `order-notices-accepted-${lang.code}-390`);
        });
      } finally {
        await context.close();
      }
    }, 120_000);
  }
  for (const lang of LANGUAGES) {
    it(`names the chosen time of an order for later (${lang.code})`, async () => {
      const context = await browser.newContext({ baseURL: server.url, viewport: PHONE, deviceScaleFactor: 1, locale: lang.locale });
      const page = await context.newPage();
      try {
        await shotOnFailure(page, `order-notices-later-${lang.code}`, async () => {
          await signInAsCustomer(page);
          await page.getByTestId('notification-bell').waitFor({ timeout: 30_000 });
          // Tomorrow's first free pickup time, as the shop offers it; the branch cannot make it and says why before it fires.
          const tomorrow = new Date(Date.now() + 3 * 3600_000 + 86_400_000).toISOString().slice(0, 10);
          const slots = await server.api.get('/api/services/app/Store/GetOrderSlots', { query: { branchId: 1, mode: 'pickup', day: tomorrow } });
          const slot = (slots.body.result.slots as { start: string; state: string }[]).find((s) => s.state === 'free')!.start;
          const placed = await server.api.post('/api/services/app/Store/SaveNewOrderVS1', {
            token: await server.api.login('customer'), headers: { 'idempotency-key': randomUUID() },
            body: { brandId: 7, paymentSystem: 2, deliveryOptions: { branchId: 1, isPickup: true }, products: [{ productId: 1, quantity: 1 }], scheduledFor: slot },
          });
          expect(placed.status, JSON.stringify(placed.body)).toBe(200);
          const { orderId, orderNumber } = placed.body.result as { orderId: number; orderNumber: string };
          const rejected = await server.api.put('/api/services/app/Store/UpdateOrderStatus', {
            token: await server.api.login('branchuser'), body: { orderId, status: 'rejected', reason: 'Closing early' },
          });
          expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
          await page.reload();
          await page.getByTestId('notification-bell').click();
          const item = page.getByTestId('notification-panel').getByTestId('notification-item').filter({ hasText: orderNumber });
          await item.waitFor({ timeout: 30_000 });
          const text = item.getByText(lang.rejectedLater);
          await text.waitFor();
          expect(lang.rejectedLater.exec((await text.textContent())!)![1]).toBe(kuwaitClock(slot));
          await screenshot(page, `order-notices-later-${lang.code}-390`);
        });
      } finally {
        await context.close();
      }
    }, 120_000);
  }
});
