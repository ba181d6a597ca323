import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PHONE, newContext, screenshot, shotOnFailure } from '../support/browser';
import { useServerAndBrowser } from '../support/harness';
import { localDayAndMinutes } from '../../domain/schedule';
import { openAllDay } from '../support/branchSchedule';
import { addDays, dayKey, fromZoneInput } from '../../domain/time';

/**
 * Issue 25's story "a customer orders tomorrow's breakfast for 07:00 at 21:00 and sees the breakfast
 * menu", in Chromium on a 390 px phone. Breakfast (a product type) is served 06:00–11:00 on
 * tomorrow's weekday. The phone's clock says 21:00 tonight (Kuwait): for "as soon as possible" the
 * menu marks breakfast unavailable; with "Later · Tomorrow · 07:00" chosen on the menu, breakfast is
 * on it, goes into the cart, the checkout keeps the time, and the tracker says "Scheduled for …".
 *
 * The clock: only the browser's is set (Playwright's page clock, installed at 21:00 of the server's
 * own Kuwait date); the server keeps its real clock, nothing of it is faked. The dates are chosen so
 * the server judges the same thing: tomorrow 07:00 on the server's calendar is always ahead of its
 * now and within its 7 days, and a window on tomorrow's weekday is never open at its now, so the
 * menu for "as soon as possible" (read at the server's now) has no breakfast whatever the real hour.
 */
const APP = '/api/services/app';
const PTS = `${APP}/ProductTypesAndSubtypes`;
const { server, browser } = useServerAndBrowser();
const today = dayKey(new Date());
const tomorrow = addDays(today, 1);
const tonight = fromZoneInput(`${today}T21:00`)!;
const breakfastTime = fromZoneInput(`${tomorrow}T07:00`)!;
const tomorrowWeekday = (localDayAndMinutes(new Date()).dayOfWeek + 1) % 7;
let admin = '';

const ok = async (call: Promise<{ status: number; body: any }>) => {
  const res = await call;
  expect(res.status, JSON.stringify(res.body.error)).toBe(200);
  return res.body.result;
};

beforeAll(async () => {
  admin = await server.api.login('admin');
  // Salmiya takes online orders all day, every day, so tomorrow 07:00 is a time it takes.
  await openAllDay(server.api, admin, 1);
  const typeId = (await ok(server.api.post(`${PTS}/CreateProductType`, {
    token: admin, body: { brandId: 7, name: 'Breakfast', availabilityWindows: [{ weekday: tomorrowWeekday, fromMinute: 6 * 60, toMinute: 11 * 60 }] },
  }))).id;
  const subtypeId = (await ok(server.api.post(`${PTS}/CreateProductSubType`, { token: admin, body: { typeId, name: 'Eggs' } }))).id;
  await ok(server.api.post(`${APP}/Products/CreateProducts`, { token: admin, body: { subtypeId, name: 'Shakshuka', price: 2.25 } }));
}, 120_000);

const shakshuka = (page: Page) => page.getByTestId('product-list').getByRole('link', { name: /Shakshuka/ });

describe("tomorrow's breakfast, ordered tonight", () => {
  it('at 21:00 the customer picks tomorrow 07:00, sees breakfast, orders it, and the tracker says "Scheduled for …"', async () => {
    const context = await newContext(browser, server.url, PHONE);
    await context.clock.install({ time: new Date(tonight) });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      await shotOnFailure(page, 'shop-breakfast-later', async () => {
        await page.goto('/');
        expect(await page.evaluate(() => new Date().toISOString().slice(0, 13))).toBe(tonight.slice(0, 13));
        const brand = page.getByRole('button', { name: /Mango Coffee/ });
        await brand.waitFor();
        if ((await brand.getAttribute('aria-expanded')) !== 'true') await brand.click();
        await page.getByRole('button', { name: /Salmiya/ }).click();
        await page.waitForURL('**/products');

        // As soon as possible (tonight): breakfast is shown but not served.
        await shakshuka(page).getByText('Unavailable').waitFor();
        await screenshot(page, 'shop-breakfast-later-asap-390');

        // Later · Tomorrow · 07:00: the menu is read at that time.
        await page.getByText('Later', { exact: true }).click();
        const day = page.getByLabel('Day');
        expect(await day.locator('option:checked').textContent()).toBe('Today');
        await day.selectOption(tomorrow);
        expect(await day.locator('option:checked').textContent()).toBe('Tomorrow');
        await page.locator(`#when-time option[value="${breakfastTime}"]`).waitFor({ state: 'attached' });
        await page.getByLabel('Time').selectOption(breakfastTime);
        await expect.poll(() => shakshuka(page).getByText('Unavailable').count(), { timeout: 15_000 }).toBe(0);
        await screenshot(page, 'shop-breakfast-later-tomorrow-390');

        await shakshuka(page).click();
        await page.getByRole('button', { name: /Add to Cart/ }).click();
        await page.waitForURL('**/products');
        await page.goto('/cart');
        // The cart's check reads at the same time: the line is not marked.
        await page.getByRole('link', { name: 'Checkout as guest' }).waitFor();
        expect(await page.getByTestId('sold-out').count()).toBe(0);
        await page.getByRole('link', { name: 'Checkout as guest' }).click();
        await page.waitForURL('**/check-out');
        await page.getByLabel('Name').fill('Huda Breakfast');
        await page.getByLabel('Phone').fill('50000072');
        // The checkout starts at the time chosen on the menu.
        const ready = page.getByTestId('checkout-ready');
        await ready.waitFor();
        expect(await ready.textContent()).toMatch(/For \w{3}, \w{3} \d{1,2}, 07:00/);
        expect(await page.getByLabel('Time').inputValue()).toBe(breakfastTime);
        await screenshot(page, 'shop-breakfast-later-checkout-390');

        await page.getByRole('button', { name: 'Place order' }).click();
        await page.waitForURL('**/track-order**');
        const when = page.getByTestId('order-scheduled-for');
        await when.waitFor();
        expect(await when.textContent()).toMatch(/^For \w{3}, \w{3} \d{1,2}, 07:00$/);
        await page.getByText(/^Scheduled for \w{3}, \w{3} \d{1,2}, 07:00\. The branch starts on it in time\.$/).waitFor();
        await screenshot(page, 'shop-breakfast-later-tracker-390');
      });
      // The server holds the order for tomorrow 07:00, scheduled, with the breakfast line.
      const orders = await ok(server.api.get(`${APP}/Store/GetUserOrdersAsBranchUser`, {
        token: await server.api.login('branchuser'), query: { MaxResultCount: 5, Status: 'scheduled' },
      }));
      const order = (orders.data as { scheduledFor: string; status: string; customerName?: string }[]).find((o) => o.scheduledFor === breakfastTime);
      expect(order).toMatchObject({ status: 'scheduled', scheduledFor: breakfastTime });
    } finally {
      await context.close();
    }
    expect(errors).toEqual([]);
  }, 240_000);
});
