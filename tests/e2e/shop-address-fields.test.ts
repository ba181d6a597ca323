import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DESKTOP, PHONE, screenshot, signIn } from '../support/browser';
import { useServerAndBrowser } from '../support/harness';

/**
 * Issue 23: the brand's address fields shape the shop's address form (SPEC.md 7 BrandAddressFields,
 * /brands/BrandDeliveryAddressField/{id}). A company admin (the /brands/... screens are ADMIN and
 * COMPANY_ADMIN, SPEC.md 2.2) asks Mango Coffee's customers for a required "Building / tower" first
 * and hides the jadda; the shop's form follows at 1280 px in English (refused without the building,
 * saved with it) and on a 390 px phone in Arabic.
 */
const API = '/api/services/app';
const CUSTOMER_ID = 5;
const { server, openPage } = useServerAndBrowser();

/** The form's field labels in order (the required mark left out), and any horizontal overflow. */
const formLayout = (page: Page) => page.evaluate(() => ({
  labels: [...document.querySelectorAll('.address-form .acct-field > span:not(.acct-field__error)')].map((e) => e.textContent!.replace(/\s*\*$/, '')),
  required: [...document.querySelectorAll('.address-form__grid .acct-field')].filter((l) => l.querySelector('.acct-field__required')).map((l) => l.querySelector('span')!.textContent!.replace(/\s*\*$/, '')),
  messages: [...document.querySelectorAll('.acct-field__error')].map((e) => e.textContent),
  overflow: document.documentElement.scrollWidth - window.innerWidth,
}));

/** A shop page as the demo customer, in `language`. */
async function shopAs(viewport: { width: number; height: number }, language: 'en' | 'ar') {
  const page = await openPage(viewport);
  const token = await server.api.login('customer');
  await page.context().addInitScript(({ language, token, userId }) => {
    if (sessionStorage.getItem('init-done')) return;
    sessionStorage.setItem('init-done', '1');
    localStorage.setItem('language', language);
    localStorage.setItem('token', token);
    localStorage.setItem('userId', String(userId));
    localStorage.setItem('role', 'CUSTOMER');
  }, { language, token, userId: CUSTOMER_ID });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { page, errors };
}

describe("the brand's address fields shape the shop's address form", () => {
  it('before any change the shop asks today\'s fields; the company admin sets them in the console; the shop follows in English and Arabic', async () => {
    // Today's form, for a brand with no address fields.
    const before = await shopAs(DESKTOP, 'en');
    await before.page.goto('/address-details');
    await before.page.getByRole('button', { name: 'Save address' }).waitFor();
    expect((await formLayout(before.page)).labels).toEqual(['Region', 'Area', 'Block', 'Street', 'House', 'Floor', 'Jadda', 'Additional info']);
    await before.page.context().close();

    // The console: Building asked as "Building / tower", required, first; the jadda hidden.
    const staff = await openPage(DESKTOP);
    await signIn(staff, 'companyadmin');
    await staff.goto('/brands/BrandDeliveryAddressField/7');
    const add = async (field: string, fill: (form: ReturnType<Page['getByRole']>) => Promise<void>) => {
      await staff.getByRole('button', { name: 'New address field' }).click();
      const form = staff.getByRole('form', { name: 'New address field' });
      await form.waitFor();
      await form.getByLabel('Field').selectOption({ label: field });
      await fill(form);
      await form.getByRole('button', { name: 'Save' }).click();
      await form.waitFor({ state: 'detached', timeout: 20_000 });
    };
    await add('Building', async (form) => {
      await form.getByLabel('Shown as').fill('Building / tower');
      await form.getByText('Required', { exact: true }).click();
      await form.getByLabel('Order').fill('0');
    });
    await add('Jadda', async (form) => {
      await form.getByLabel('Shown as').fill('Jadda');
      await form.getByText('Shown in the address form', { exact: true }).click();
      await form.getByLabel('Order').fill('5');
    });
    const list = staff.getByRole('region', { name: 'Brand Delivery Address Fields' });
    await list.getByText('Building / tower').waitFor();
    await list.getByText('Hidden').waitFor();
    await screenshot(staff, 'shop-address-fields-console-1280');

    // The shop at 1280 px in English: the brand's order, its required building.
    const { page, errors } = await shopAs(DESKTOP, 'en');
    await page.goto('/select-location');
    await page.getByRole('button', { name: 'Hawalli' }).click();
    await page.getByRole('button', { name: /^Salmiya/ }).click();
    await page.getByRole('button', { name: 'Done' }).click();
    await page.waitForURL('**/address-details');
    await page.getByLabel('Block').fill('4');
    await page.getByLabel('Street').fill('Qatar St');
    await page.getByLabel('House').fill('12');
    await page.getByLabel('Floor').fill('3');
    await page.getByRole('button', { name: 'Save address' }).click();
    await page.getByText('Building / tower is required').waitFor();
    const en = await formLayout(page);
    expect(en.labels).toEqual(['Region', 'Area', 'Block', 'Street', 'House', 'Building / tower', 'Floor', 'Additional info']);
    expect(en.required).toEqual(['Block', 'Street', 'House', 'Building / tower']);
    expect(en.messages).toEqual(['Building / tower is required']);
    expect(en.overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'shop-address-fields-refused-1280-en');
    const saved = async () => (await server.api.get(`${API}/CustomerDeliveryAddress/GetCustomerDeliveryAddressListByUserId`, { token: await server.api.login('customer'), query: { userId: CUSTOMER_ID } })).body.result as { street: string; buildingNumber: string | null; floor: string | null }[];
    expect((await saved()).filter((a) => a.street === 'Qatar St')).toEqual([]);
    await page.getByLabel('Building / tower').fill('Tower 2');
    await page.getByRole('button', { name: 'Save address' }).click();
    await page.waitForURL('**/profile');
    expect((await saved()).filter((a) => a.street === 'Qatar St')).toMatchObject([{ buildingNumber: 'Tower 2', floor: '3' }]);
    expect(errors).toEqual([]);

    // A 390 px phone in Arabic: the same fields, in the shop's Arabic, the building required.
    const ar = await shopAs(PHONE, 'ar');
    await ar.page.goto('/address-details');
    await ar.page.getByRole('button', { name: 'احفظ العنوان' }).click();
    await ar.page.getByText('المبنى مطلوب').waitFor();
    const arabic = await formLayout(ar.page);
    expect(arabic.labels).toEqual(['المحافظة', 'المنطقة', 'القطعة', 'الشارع', 'المنزل', 'المبنى', 'الطابق', 'معلومات إضافية']);
    expect(arabic.required).toEqual(['القطعة', 'الشارع', 'المنزل', 'المبنى']);
    expect(arabic.messages.at(-1)).toBe('المبنى مطلوب');
    expect(arabic.overflow).toBeLessThanOrEqual(0);
    expect(await ar.page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await screenshot(ar.page, 'shop-address-fields-refused-390-ar');
    expect(ar.errors).toEqual([]);
  });
});
