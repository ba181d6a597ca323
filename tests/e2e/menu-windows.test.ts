import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DESKTOP, PHONE, screenshot, signIn, shotOnFailure } from '../support/browser';
import { useServerAndBrowser } from '../support/harness';
import { openAllDay } from '../support/branchSchedule';
import { localDayAndMinutes } from '../../domain/schedule';

/**
 * Menus by time of day (issue 25) in Chromium: a brand manager gives the Breakfast type its hours
 * on /store (06:00–11:00, tomorrow's weekday), and the form refuses a window with no length; the
 * shop marks breakfast unavailable now; served today, it can be put in the cart; when the hours
 * leave it out again, the cart marks that line "Not served now", as it marks a sold-out one.
 */
const { server, openPage } = useServerAndBrowser();
const APP = '/api/services/app';
const PTS = `${APP}/ProductTypesAndSubtypes`;
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const weekdayIn = (days: number) => (localDayAndMinutes(new Date()).dayOfWeek + days) % 7;
let admin = '';
let typeId = 0;
const step = <T>(page: Page, name: string, work: () => Promise<T>) => shotOnFailure(page, `menu-windows-${name}`, work);
const ok = async (call: Promise<{ status: number; body: any }>) => {
  const res = await call;
  expect(res.status, JSON.stringify(res.body.error)).toBe(200);
  return res.body.result;
};
const setHours = (windows: object[]) => ok(server.api.put(`${PTS}/UpdateProductType`, { token: admin, body: { id: typeId, availabilityWindows: windows } }));

beforeAll(async () => {
  admin = await server.api.login('admin');
  // Branch 1 takes online orders all day, every day, so only the menu's hours decide.
  await openAllDay(server.api, admin, 1);
  typeId = (await ok(server.api.post(`${PTS}/CreateProductType`, { token: admin, body: { brandId: 7, name: 'Breakfast' } }))).id;
  const subtypeId = (await ok(server.api.post(`${PTS}/CreateProductSubType`, { token: admin, body: { typeId, name: 'Eggs' } }))).id;
  await ok(server.api.post(`${APP}/Products/CreateProducts`, { token: admin, body: { subtypeId, name: 'Shakshuka', price: 2.25 } }));
});

async function shopMenu(page: Page) {
  await page.goto('/');
  const brand = page.getByRole('button', { name: /Mango Coffee/ });
  await step(page, 'picker', () => brand.waitFor());
  if ((await brand.getAttribute('aria-expanded')) !== 'true') await brand.click();
  await page.getByRole('button', { name: /Salmiya/ }).click();
  await page.waitForURL('**/products');
  const card = page.getByTestId('product-list').getByRole('link', { name: /Shakshuka/ });
  await step(page, 'card', () => card.waitFor());
  return card;
}

describe('menus by time of day in Chromium', () => {
  it("the console's product-type form edits the hours; the shop marks breakfast outside them", async () => {
    const page = await openPage(DESKTOP);
    await signIn(page, 'brandmanager');
    await page.goto('/store');
    await step(page, 'store', () => page.getByText('Breakfast').first().waitFor());
    await page.getByRole('button', { name: 'Menu hours of Breakfast' }).click();
    const form = page.getByRole('form', { name: 'Menu hours of the product type Breakfast' });
    await form.waitFor();
    await form.getByRole('button', { name: 'Add hours' }).click();
    await form.getByLabel('Weekday 1').selectOption(String(weekdayIn(1)));
    await form.getByLabel('From 1').fill('06:00');
    await form.getByLabel('To 1').fill('06:00');
    await form.getByRole('button', { name: 'Save' }).click();
    await step(page, 'refused', () => form.getByRole('alert').getByText(/the start and the end are the same time/).waitFor());
    await form.getByLabel('To 1').fill('11:00');
    await screenshot(page, 'menu-windows-dialog-1280');
    await form.getByRole('button', { name: 'Save' }).click();
    const tag = `${WEEKDAYS[weekdayIn(1)].slice(0, 3)} 06:00–11:00`;
    await step(page, 'saved', async () => {
      await form.waitFor({ state: 'detached' });
      await page.locator('.mm-row--type', { hasText: 'Breakfast' }).getByText(tag).waitFor();
    });
    await screenshot(page, 'menu-windows-store-1280');
    const types = await ok(server.api.get(`${PTS}/GetProductTypeWithSubtypesDictionary`, { token: admin, query: { brandId: 7 } }));
    expect(types.find((t: any) => t.id === typeId).availabilityWindows).toEqual([{ weekday: weekdayIn(1), fromMinute: 360, toMinute: 660 }]);

    // The shop, now: breakfast is tomorrow's, so it is shown but marked, and cannot be added.
    const guest = await openPage(PHONE);
    const card = await shopMenu(guest);
    await step(guest, 'unavailable', () => card.getByText('Unavailable').waitFor());
    await screenshot(guest, 'menu-windows-shop-390');
  });

  it('the cart marks a line that the hours leave out', async () => {
    await setHours([{ weekday: weekdayIn(0), fromMinute: 0, toMinute: 1440 }]);
    const guest = await openPage(PHONE);
    const card = await shopMenu(guest);
    expect(await card.getByText('Unavailable').count()).toBe(0);
    await card.click();
    const add = guest.getByRole('button', { name: /Add to Cart/ });
    await step(guest, 'product', () => add.waitFor());
    await add.click();
    await guest.waitForURL('**/products');
    // Tomorrow's breakfast only, again: the line is not on the menu at the order's time.
    await setHours([{ weekday: weekdayIn(1), fromMinute: 360, toMinute: 660 }]);
    await guest.getByRole('link', { name: /View Cart/ }).click();
    await guest.waitForURL('**/cart');
    await step(guest, 'cart', () => guest.getByTestId('sold-out').getByText('Shakshuka is not on the menu at the time of this order. Remove it to place your order.').waitFor());
    expect(await guest.getByTestId('sold-out').getByText('Not served now').count()).toBe(1);
    await screenshot(guest, 'menu-windows-cart-390');
  });
});
