import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DESKTOP, PHONE, newContext, screenshot, shotOnFailure, signIn } from '../support/browser';
import { useServerAndBrowser } from '../support/harness';
import { addDays, clockText, dayKey, dayMonthText, formatMoment } from '../../domain/time';

/**
 * Issue 25, "a full slot offers the next one", in Chromium at 390 px (and 1280 px): Salmiya takes
 * one pickup order a slot. A guest chooses tomorrow's first free time at checkout; meanwhile a
 * customer's order takes that slot; Place order answers the server's sentence and "Take HH:MM"
 * (the next free time), which places the same order for that time, and the tracker shows it.
 */
const API = '/api/services/app';
const { server, browser } = useServerAndBrowser();
let espresso: number;
beforeAll(async () => {
  const menu = await server.api.get(`${API}/Products/GetProductsGroupedByTypeAndSubtypeAsCustomerForMangoes`, { query: { brandId: 7, branchId: 1 } });
  const products = (menu.body.result as { subtypes: { products: { id: number; name: string }[] }[] }[]).flatMap((t) => t.subtypes.flatMap((s) => s.products));
  espresso = products.find((p) => p.name === 'Espresso')!.id;
}, 120_000);

interface Slot { start: string; state: string; taken: number }
const slotsOf = async (day: string): Promise<Slot[]> =>
  (await server.api.get(`${API}/Store/GetOrderSlots`, { query: { branchId: 1, mode: 'pickup', day } })).body.result.slots;

/** A guest's cart of espressos at Salmiya, then the checkout with the guest's details. */
async function guestCheckout(page: Page) {
  await page.goto('/');
  const brand = page.getByRole('button', { name: /Mango Coffee/ });
  await brand.waitFor();
  if ((await brand.getAttribute('aria-expanded')) !== 'true') await brand.click();
  await page.getByRole('button', { name: /Salmiya/ }).click();
  await page.waitForURL('**/products');
  await page.goto(`/product-detail/${espresso}`);
  await page.getByRole('button', { name: /Add to Cart/ }).click();
  await page.waitForURL('**/products');
  await page.goto('/cart');
  await page.getByRole('link', { name: 'Checkout as guest' }).click();
  await page.waitForURL('**/check-out');
  await page.getByLabel('Name').fill('Noura Later');
  await page.getByLabel('Phone').fill('50000071');
}

describe('order for later', () => {
  it('a full slot offers the next one: "Take HH:MM" places the order for it, and the tracker shows the chosen time', async () => {
    const admin = await server.api.login('admin');
    expect((await server.api.put(`${API}/Branch/Update`, { token: admin, body: { id: 1, pickupSlotMax: 1 } })).status).toBe(200);
    const tomorrow = addDays(dayKey(new Date()), 1);
    const free = (await slotsOf(tomorrow)).filter((s) => s.state === 'free');
    expect(free.length).toBeGreaterThan(1);
    const [chosen, next] = [free[0]!.start, free[1]!.start];
    const page = await (await newContext(browser, server.url, PHONE)).newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      await shotOnFailure(page, 'shop-order-later', async () => {
        await guestCheckout(page);
        await page.getByText('Later', { exact: true }).click();
        await page.getByLabel('Day').selectOption(tomorrow);
        const time = page.getByLabel('Time');
        await page.locator(`#when-time option[value="${new Date(chosen).toISOString()}"]`).waitFor({ state: 'attached' });
        await time.selectOption(new Date(chosen).toISOString());
        const ready = page.getByTestId('checkout-ready');
        await ready.waitFor();
        expect(await ready.textContent()).toContain(`For ${formatMoment(chosen, { weekday: 'short', day: 'numeric', month: 'short' }, 'en-KW')}, ${clockText(chosen)}`);
        await screenshot(page, 'shop-order-later-chosen-390');

        // Another customer's order takes the slot before the guest places theirs.
        const customer = await server.api.login('customer');
        const first = await server.api.post(`${API}/Store/SaveNewOrderVS1`, {
          token: customer, headers: { 'idempotency-key': randomUUID() },
          body: { brandId: 7, paymentSystem: 2, deliveryOptions: { branchId: 1, isPickup: true }, products: [{ productId: espresso, quantity: 1 }], scheduledFor: chosen },
        });
        expect(first.status).toBe(200);

        await page.getByRole('button', { name: 'Place order' }).click();
        const error = page.getByTestId('checkout-error');
        await error.waitFor();
        expect(await error.textContent()).toMatch(new RegExp(`^This time is full\\. The next free time is .*${clockText(next)}\\.$`));
        const take = page.getByTestId('take-next-time');
        expect(await take.textContent()).toMatch(new RegExp(`^Take (\\w{3} )?${clockText(next)}$`));
        await screenshot(page, 'shop-order-later-full-390');
        await page.setViewportSize(DESKTOP);
        await screenshot(page, 'shop-order-later-full-1280');
        await page.setViewportSize(PHONE);

        await take.click();
        await page.waitForURL('**/track-order**');
        const when = page.getByTestId('order-scheduled-for');
        await when.waitFor();
        expect(await when.textContent()).toBe(`For ${formatMoment(next, { weekday: 'short', day: 'numeric', month: 'short' }, 'en-KW')}, ${clockText(next)}`);
        await screenshot(page, 'shop-order-later-tracker-390');
      });
      // The branch sees the time on the order's row.
      const consolePage = await (await newContext(browser, server.url, DESKTOP)).newPage();
      await shotOnFailure(consolePage, 'shop-order-later-console', async () => {
        await signIn(consolePage, 'branchuser');
        await consolePage.waitForURL('**/order');
        const rows = consolePage.getByTestId('order-scheduled-for');
        await rows.first().waitFor();
        expect(await rows.allTextContents()).toEqual(expect.arrayContaining([`For ${dayMonthText(chosen)} ${clockText(chosen)}`, `For ${dayMonthText(next)} ${clockText(next)}`]));
        await screenshot(consolePage, 'shop-order-later-console-1280');
      });
      // One order in each slot: the full one kept its one, the offered one took the guest's.
      const after = await slotsOf(tomorrow);
      expect(after.find((s) => s.start === chosen)).toMatchObject({ state: 'full', taken: 1 });
      expect(after.find((s) => s.start === next)).toMatchObject({ state: 'full', taken: 1 });
    } finally {
      await server.api.put(`${API}/Branch/Update`, { token: admin, body: { id: 1, pickupSlotMax: null } });
    }
    expect(errors).toEqual([]);
  }, 240_000);
});
