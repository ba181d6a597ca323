import { beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { DESKTOP, PHONE, newContext, screenshot, signIn } from '../support/browser';
import { useServerAndBrowser } from '../support/harness';
import { localDayAndMinutes } from '../../domain/schedule';

/**
 * Branches and brand settings in Chromium, then the shop following them: a company admin creates
 * a brand on /brands/new, gives it a tax, a delivery fee for Salmiya and cash payment (KNET added
 * and switched off), a branch with a logo and today's online-ordering hours; a guest then orders
 * from that branch for delivery to Salmiya, and the saved total holds the tax and the fee.
 */
let logo: Buffer;
const { server, browser } = useServerAndBrowser();
beforeAll(async () => {
  logo = await sharp({ create: { width: 120, height: 120, channels: 3, background: '#2f7d5b' } }).png().toBuffer();
});

const API = '/api/services/app';
const BRAND = 'Gulf Beans';
const BRANCH = 'Gulf Beans Sharq';
const PRODUCT = { name: 'Gulf Latte', price: 2 };
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
/** What the console made, for the shop's test. */
const made = { brandId: 0, branchId: 0 };


const timed = async <T>(what: string, work: () => Promise<T>) => {
  const started = Date.now();
  try { return await work(); } finally { console.log(`${what}: ${Date.now() - started} ms`); }
};

/** Opens the screen's "New …" form, lets `fill` fill it, saves, and waits until the drawer closed. */
async function addRow(page: Page, noun: string, fill: (form: ReturnType<Page['getByRole']>) => Promise<void>, shot?: string) {
  await page.getByRole('button', { name: `New ${noun}` }).click();
  const form = page.getByRole('form', { name: `New ${noun}` });
  await form.waitFor();
  await fill(form);
  if (shot) await screenshot(page, shot);
  const save = form.getByRole('button', { name: 'Save' });
  await save.scrollIntoViewIfNeeded();
  await save.click();
  await form.waitFor({ state: 'detached', timeout: 20_000 });
}

describe('branches and brand settings in the console, followed by the shop', () => {
  it('a company admin creates a brand with a tax, a delivery fee, payment methods, address fields and a branch with its schedule', async () => {
    const context = await newContext(browser, server.url, DESKTOP);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const token = await server.api.login('companyadmin');
    try {
      await signIn(page, 'companyadmin');

      // The brand, on the brands screen.
      await page.goto('/brands/new');
      const brandForm = page.getByRole('form', { name: 'New brand' });
      await brandForm.getByLabel(/^Name/).fill(BRAND);
      await brandForm.getByLabel('Currency').selectOption({ label: 'KD — Kuwaiti Dinar' });
      await brandForm.getByRole('button', { name: 'Save' }).click();
      await page.waitForURL('**/brands');
      const brands = (await server.api.get(`${API}/Brand/GetBrandsForCurrentUser`, { token })).body.result as { id: number; name: string }[];
      made.brandId = brands.find((b) => b.name === BRAND)!.id;
      expect(made.brandId).toBeGreaterThan(0);

      // Its menu (the menu screens are another issue's): one product, through the API.
      const type = await server.api.post(`${API}/ProductTypesAndSubtypes/CreateProductType`, { token, body: { brandId: made.brandId, name: 'Coffee' } });
      expect(type.status, JSON.stringify(type.body.error)).toBe(200);
      const subtype = await server.api.post(`${API}/ProductTypesAndSubtypes/CreateProductSubType`, { token, body: { typeId: type.body.result.id, name: 'Hot' } });
      const product = await server.api.post(`${API}/Products/CreateProducts`, { token, body: { subtypeId: subtype.body.result.id, name: PRODUCT.name, price: PRODUCT.price } });
      expect(product.status, JSON.stringify(product.body.error)).toBe(200);

      // A tax of 5 %.
      await page.goto(`/brands/taxes/${made.brandId}`);
      await addRow(page, 'tax', async (form) => {
        await form.getByLabel('Name').fill('Municipality');
        await form.getByLabel('Percent').fill('5');
      });
      await page.getByRole('region', { name: 'Brand Taxes' }).getByText('Municipality').waitFor();

      // A delivery fee for Salmiya (Hawalli): 1.250 KD, never free.
      await page.goto(`/brands/BrandDeliveryFee/${made.brandId}`);
      await page.getByText('No delivery fees').waitFor();
      await addRow(page, 'delivery fee', async (form) => {
        await expect.poll(() => form.getByLabel('Area').locator('option').count()).toBeGreaterThan(10);
        await form.getByLabel('Area').selectOption({ label: 'Salmiya' });
        await form.getByLabel('Fee (KD)').fill('1.250');
      }, 'admin-branches-fee-form-1280');
      const fees = page.getByRole('region', { name: 'Brand Delivery Fee' });
      await fees.getByText('Salmiya, Hawalli').waitFor();
      await fees.getByText('1.250 KD').waitFor();
      await screenshot(page, 'admin-branches-fees-1280');

      // Payment methods: cash on, KNET added and switched off in its row.
      await page.goto(`/brands/payments/${made.brandId}`);
      await addRow(page, 'payment method', async (form) => { await form.getByLabel('Payment method').selectOption({ label: 'Cash at branch' }); });
      await addRow(page, 'payment method', async (form) => { await form.getByLabel('Payment method').selectOption({ label: 'KNET' }); });
      const payments = page.getByRole('region', { name: 'Brand Payments' });
      await payments.getByText('KNET').waitFor();
      await page.getByRole('checkbox', { name: 'Payment method 1 on' }).click({ force: true });
      await page.getByRole('checkbox', { name: 'Payment method 1 off' }).waitFor();
      const methods = (await server.api.get(`${API}/BrandPayment/GetAllByBrandId`, { token, query: { brandId: made.brandId } })).body.result.data;
      expect(methods.map((m: { paymentSystemId: number; isActive: boolean }) => [m.paymentSystemId, m.isActive])).toEqual([[1, false], [2, true]]);
      await screenshot(page, 'admin-branches-payments-1280');

      // An address field: the floor, asked as "Floor / flat" and required.
      await page.goto(`/brands/BrandDeliveryAddressField/${made.brandId}`);
      await addRow(page, 'address field', async (form) => {
        await form.getByLabel('Field').selectOption({ label: 'Floor' });
        await form.getByLabel('Shown as').fill('Floor / flat');
        await form.getByText('Required', { exact: true }).click();
      });
      await page.getByRole('region', { name: 'Brand Delivery Address Fields' }).getByText('Floor / flat').waitFor();
      await screenshot(page, 'admin-branches-address-fields-1280');

      // The branch, with a logo.
      await page.goto('/branches');
      await page.getByRole('region', { name: 'Branches' }).getByText('Salmiya', { exact: true }).waitFor();
      await addRow(page, 'branch', async (form) => {
        await expect.poll(() => form.getByLabel('Brand').locator('option').allTextContents()).toContain(BRAND);
        await form.getByLabel('Brand').selectOption({ label: BRAND });
        await form.getByLabel(/^Name/).fill(BRANCH);
        await form.getByLabel(/^Address/).fill('Ahmad Al Jaber St, Sharq');
        await form.getByLabel('Phone').fill('+965 2220 0042');
        await form.getByLabel('Opens at').fill('00:00');
        await form.getByLabel('Closes at').fill('23:59');
        await form.getByLabel(/^Delivery text/).fill('Delivery in 30 minutes');
        await timed('branch logo upload', async () => {
          await form.locator('#field-logoUrl').setInputFiles({ name: 'branch.png', mimeType: 'image/png', buffer: logo });
          await form.locator('img.resource-image-preview').first().waitFor();
        });
      }, 'admin-branches-branch-form-1280');
      const list = page.getByRole('region', { name: 'Branches' });
      await list.getByText(BRANCH).waitFor();
      const branches = (await server.api.get(`${API}/Branch/GetBranchesForCurrentUser`, { token, query: { Search: BRANCH } })).body.result.data;
      expect(branches).toHaveLength(1);
      expect(branches[0]).toMatchObject({ brandId: made.brandId, name: BRANCH, openTime: '00:00', closeTime: '23:59', logoUrl: expect.stringMatching(/^\/uploads\//) });
      made.branchId = branches[0].id;
      await list.getByText(BRAND).first().waitFor();
      await screenshot(page, 'admin-branches-list-1280');

      // Its schedule: today all day, and Friday evening past midnight.
      await list.getByRole('link', { name: `Schedule of ${BRANCH}` }).click();
      await page.waitForURL(`**/branch/schedule/${made.branchId}`);
      await page.getByText(`${BRANCH}.`).waitFor();
      const today = localDayAndMinutes(new Date()).dayOfWeek;
      for (const [day, open, close] of [[today, '00:00', '23:59'], [(today + 2) % 7, '16:00', '01:00']] as const) {
        await addRow(page, 'day', async (form) => {
          await form.getByLabel('Weekday').selectOption({ label: WEEKDAYS[day] });
          await form.getByLabel('Opens at').fill(open);
          await form.getByLabel('Closes at').fill(close);
        });
      }
      const week = page.getByRole('region', { name: 'Branch Schedule' });
      await week.getByText('All day').waitFor();
      await week.getByText('16:00–01:00 (next day)').waitFor();
      await screenshot(page, 'admin-branches-schedule-1280');
      // A time that is not HH:MM stays in the form with its message.
      await page.getByRole('button', { name: 'New day' }).click();
      const bad = page.getByRole('form', { name: 'New day' });
      await bad.getByLabel('Opens at').fill('9am');
      await bad.getByLabel('Closes at').focus();
      await bad.getByText('Use HH:MM, from 00:00 to 23:59.').waitFor();
      await bad.getByRole('button', { name: 'Cancel' }).click();

      // A branch user of the new branch (through the API: user management is its own screen).
      const user = await server.api.post(`${API}/Branch/CreateBranchUserForBranch`, {
        token, body: { branchId: made.branchId, userName: 'sharq.barista', fullName: 'Sharq Barista', password: 'sharq-123' },
      });
      expect(user.status, JSON.stringify(user.body.error)).toBe(200);
      expect(errors).toEqual([]);
    } catch (e) {
      await screenshot(page, 'admin-branches-failed-1280');
      throw e;
    } finally {
      await context.close();
    }

    // The same screens on a phone.
    const phone = await newContext(browser, server.url, PHONE);
    const small = await phone.newPage();
    try {
      await signIn(small, 'companyadmin');
      for (const [path, region, text, name] of [
        ['/branches', 'Branches', BRANCH, 'list'],
        [`/branch/schedule/${made.branchId}`, 'Branch Schedule', 'All day', 'schedule'],
        [`/brands/BrandDeliveryFee/${made.brandId}`, 'Brand Delivery Fee', 'Salmiya, Hawalli', 'fees'],
        [`/brands/payments/${made.brandId}`, 'Brand Payments', 'Cash at branch', 'payments'],
        [`/brands/BrandDeliveryAddressField/${made.brandId}`, 'Brand Delivery Address Fields', 'Floor / flat', 'address-fields'],
      ] as const) {
        await small.goto(path);
        await small.getByRole('region', { name: region }).getByText(text).first().waitFor();
        await screenshot(small, `admin-branches-${name}-390`);
      }
      await small.goto('/branches');
      // Table2 draws only the columns on screen: a double click on the row opens it, like its Edit button.
      await small.getByRole('region', { name: 'Branches' }).getByText(BRANCH).dblclick();
      await small.getByRole('form', { name: `Edit branch #${made.branchId}` }).getByLabel(/^Name/).waitFor();
      // the drawer has slid in: it fills the phone's width
      await expect.poll(async () => (await small.locator('.bp6-drawer').boundingBox())?.x).toBe(0);
      await screenshot(small, 'admin-branches-branch-form-390');
    } finally {
      await phone.close();
    }
  });

  it('a guest orders from the new branch for delivery to Salmiya: the saved total holds the tax and the fee', async () => {
    expect(made.branchId, 'the console test made the branch').toBeGreaterThan(0);
    const context = await newContext(browser, server.url, PHONE);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      await page.goto('/');
      const brand = page.getByRole('button', { name: new RegExp(BRAND) });
      await brand.waitFor();
      if ((await brand.getAttribute('aria-expanded')) !== 'true') await brand.click();
      await page.getByRole('button', { name: new RegExp(BRANCH) }).click();
      await page.waitForURL('**/products');
      await screenshot(page, 'admin-branches-shop-menu-390');
      await page.getByTestId('product-list').getByRole('link', { name: new RegExp(PRODUCT.name) }).click();
      await page.getByRole('button', { name: /Add to Cart/ }).click(); // quantity 2 (the product page's minimum)
      await page.waitForURL('**/products');
      await page.getByRole('link', { name: /View Cart/ }).click();
      await page.getByRole('link', { name: 'Checkout as guest' }).click();
      await page.waitForURL('**/check-out');

      // Only the brand's methods that are on: cash, not KNET.
      await page.getByLabel('Cash at branch').waitFor();
      expect(await page.getByLabel('KNET').count()).toBe(0);
      await page.locator('label', { has: page.getByRole('radio', { name: /Delivery/ }) }).click();
      await page.waitForURL('**/select-location?**');
      await page.getByRole('button', { name: 'Hawalli' }).click();
      await page.getByRole('button', { name: /^Salmiya/ }).click();
      await page.getByRole('button', { name: 'Done' }).click();
      await page.waitForURL('**/address-details**');
      await page.getByLabel('Block').fill('4');
      await page.getByLabel('Street').fill('Qatar St');
      await page.getByLabel('House').fill('12');
      // The brand's required field (set above on /brands/BrandDeliveryAddressField) is asked in the brand's words.
      await page.getByLabel('Floor / flat').fill('3');
      await page.getByRole('button', { name: 'Save address' }).click();
      await page.waitForURL('**/check-out?mode=delivery');
      await page.getByLabel('Name').fill('Sharq Guest');
      await page.getByLabel('Phone').fill('5000 0077');
      await page.getByLabel('Phone').blur();
      // for delivery the cash method reads 'Cash on delivery' (docs/decisions.md "Shop for Kuwait")
      await page.getByLabel('Cash on delivery').check();
      await screenshot(page, 'admin-branches-shop-checkout-390');
      await page.getByRole('button', { name: 'Place order' }).click();
      await page.waitForURL('**/track-order?**');
      await page.getByRole('heading', { name: 'Order placed' }).waitFor(); // a cash order: placed, not yet a successful transaction (issue 24)

      // 2 × 2.000 = 4.000, 5 % tax 0.200, delivery 1.250: 5.450 KD, computed by the server.
      const url = new URL(page.url());
      const order = await server.api.get(`${API}/Store/GetOrderDetail`, {
        token: await server.api.guestToken(), query: { orderId: url.searchParams.get('orderId'), ohash: url.searchParams.get('ohash') },
      });
      expect(order.status, JSON.stringify(order.body.error)).toBe(200);
      expect(order.body.result).toMatchObject({ brandId: made.brandId, branchId: made.branchId, deliverySystem: 'delivery', paymentSystemId: 2, subtotal: 4, tax: 0.2, deliveryFee: 1.25, total: 5.45 });
      expect(await page.getByTestId('order-total').textContent()).toBe('5.450 KD');
      await screenshot(page, 'admin-branches-shop-track-order-390');
      expect(errors).toEqual([]);
    } catch (e) {
      await screenshot(page, 'admin-branches-shop-failed-390');
      throw e;
    } finally {
      await context.close();
    }
  });
});
