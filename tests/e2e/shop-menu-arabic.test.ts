import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PHONE, screenshot, shotOnFailure } from '../support/browser';
import { useServerAndBrowser } from '../support/harness';
import { localDayAndMinutes } from '../../domain/schedule';

/**
 * Issue 24 (shop-menu) in Chromium on a 390 px phone, in Arabic, in a browser whose clock is New
 * York's: a branch closed for online orders reads 'مغلق · يفتح HH:MM' (Kuwait's time) on its card
 * and the menu, and its product page cannot add; the menu's search and the category tabs that stay
 * under the header while the menu scrolls; the header and 'أضف إلى السلة' each on one line; an
 * option's '+' beside its number. Screenshots: tests/.artifacts/screenshots/shop-menu-arabic-*.png.
 */
const SCHEDULE = '/api/services/app/BranchOnlineOrderingSchedule';
let admin: string;
let cappuccinoId: number;

const { server, browser } = useServerAndBrowser();
beforeAll(async () => {
  admin = await server.api.login('admin');
  const menu = await server.api.get('/api/services/app/Products/GetProductsGroupedByTypeAndSubtypeAsCustomerForMangoes', { query: { brandId: 7, branchId: 1 } });
  cappuccinoId = menu.body.result.flatMap((t: any) => t.subtypes.flatMap((s: any) => s.products)).find((p: any) => p.name === 'Cappuccino').id;
});

async function scheduleBranch1(rows: { dayOfWeek: number; openTime: string; closeTime: string }[]) {
  const old = await server.api.get(`${SCHEDULE}/GetBranchOnlineOrderingSchedule`, { token: admin, query: { branchId: 1 } });
  for (const row of old.body.result.data) await server.api.delete(`${SCHEDULE}/DeleteBranchOnlineOrderingSchedule`, { token: admin, query: { Id: row.id, BranchId: 1 } });
  for (const row of rows) expect((await server.api.post(`${SCHEDULE}/CreateBranchOnlineOrderingcShedule`, { token: admin, body: { branchId: 1, ...row } })).status).toBe(200);
}
const allWeek = () => scheduleBranch1([0, 1, 2, 3, 4, 5, 6].map((d) => ({ dayOfWeek: d, openTime: '00:00', closeTime: '23:59' })));

async function arabicPhone() {
  const context = await browser.newContext({ baseURL: server.url, viewport: PHONE, deviceScaleFactor: 1, locale: 'ar-KW', timezoneId: 'America/New_York', isMobile: true, hasTouch: true });
  await context.addInitScript(`try { localStorage.setItem('language', 'ar'); } catch {}`);
  return context;
}

/** Each element's rendered lines: 1 when its text does not wrap. */
const lines = (page: Page, selector: string) => page.locator(selector).first().evaluate((el) => {
  const range = document.createRange();
  range.selectNodeContents(el);
  return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
});

describe('the Arabic menu on a 390 px phone (issue 24)', () => {
  it('a branch closed for online orders says when it opens, in Kuwait time, on its card and the menu; its product is offered for later', async () => {
    const { dayOfWeek, minutes } = localDayAndMinutes(new Date());
    const later = minutes + 90 < 23 * 60;
    const openMinutes = later ? minutes + 90 : 9 * 60;
    const opens = `${String(Math.floor(openMinutes / 60)).padStart(2, '0')}:${String(openMinutes % 60).padStart(2, '0')}`;
    await scheduleBranch1([{ dayOfWeek: later ? dayOfWeek : (dayOfWeek + 1) % 7, openTime: opens, closeTime: '23:30' }]);
    const context = await arabicPhone();
    const page = await context.newPage();
    try {
      await shotOnFailure(page, 'shop-menu-arabic-closed', async () => {
        await page.goto('/products');
        const card = page.locator('.picker-branch.is-selected [data-testid="branch-hours"]');
        await expect.poll(() => card.textContent()).toMatch(new RegExp(`^مغلق · يفتح (\\S+ )?${opens}$`));
        const closed = await card.textContent();
        if (later) expect(closed).toBe(`مغلق · يفتح ${opens}`);
        expect(await page.locator('.menu-branch [data-testid="branch-hours"]').textContent()).toBe(closed);
        await page.evaluate(() => window.scrollTo(0, 0));
        await screenshot(page, 'shop-menu-arabic-closed-card');

        await page.goto(`/product-detail/${cappuccinoId}`);
        await page.getByRole('heading', { name: 'كابتشينو' }).waitFor();
        await page.getByLabel(/^كبير/).check();
        expect(await page.getByTestId('product-branch-closed').textContent()).toBe(closed);
        // Issue 25: not a dead end: the closed branch takes the product for later.
        expect(await page.getByRole('button', { name: /اطلب لوقت لاحق/ }).isDisabled()).toBe(false);
        await screenshot(page, 'shop-menu-arabic-closed-product');
      });
    } finally {
      await context.close();
      await allWeek();
    }
  });

  it('searches the menu in Arabic; the category tabs stay under the header while the menu scrolls; the header is one line', async () => {
    const context = await arabicPhone();
    const page = await context.newPage();
    try {
      await shotOnFailure(page, 'shop-menu-arabic-tabs', async () => {
        await page.goto('/products');
        const search = page.getByRole('searchbox', { name: 'ابحث في القائمة' });
        await search.waitFor();
        // The header's items share one line, and the header is one line high.
        const header = await page.locator('.shop-header').boundingBox();
        const tops = await page.locator('.shop-nav > *').evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().top + e.getBoundingClientRect().height / 2)));
        expect(new Set(tops).size, String(tops)).toBe(1);
        expect(header!.height).toBeLessThan(60);

        await search.fill('كابتشينو');
        await expect.poll(() => page.getByTestId('product-list').locator('.product-card strong').allTextContents()).toEqual(['كابتشينو']);
        await expect.poll(() => page.locator('#menu-search-status').textContent()).toBe('منتج واحد');
        await screenshot(page, 'shop-menu-arabic-search');
        await page.getByRole('button', { name: 'مسح البحث' }).click();

        const tabs = page.getByRole('navigation', { name: 'أقسام القائمة' });
        await tabs.waitFor();
        const names = await tabs.getByRole('link').allTextContents();
        expect(names.length).toBeGreaterThan(1);
        // Scrolled far down the menu, the tabs sit right under the header, and the type in view is the current one.
        await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
        await expect.poll(async () => Math.round((await tabs.boundingBox())!.y)).toBe(Math.round(header!.height));
        await expect.poll(() => tabs.locator('[aria-current="true"]').textContent()).toBe(names[names.length - 1]);
        await page.screenshot({ path: 'tests/.artifacts/screenshots/shop-menu-arabic-tabs-scrolled.png' });
        // A tab takes the customer to its type, under the tabs.
        await tabs.getByRole('link', { name: names[0] }).click();
        await expect.poll(async () => {
          const top = await page.locator('.menu-type').first().locator('h2').boundingBox();
          const bar = await tabs.boundingBox();
          return top!.y >= bar!.y + bar!.height - 1 && top!.y < 844;
        }).toBe(true);
        expect(await tabs.locator('[aria-current="true"]').textContent()).toBe(names[0]);
      });
    } finally {
      await context.close();
    }
  });

  it("keeps 'أضف إلى السلة' and its price on one line, and an option's '+' beside its number", async () => {
    const context = await arabicPhone();
    const page = await context.newPage();
    try {
      await shotOnFailure(page, 'shop-menu-arabic-product', async () => {
        await page.goto(`/product-detail/${cappuccinoId}`);
        await page.getByRole('heading', { name: 'كابتشينو' }).waitFor();
        await page.getByLabel(/^كبير/).check();
        const add = page.getByRole('button', { name: /أضف إلى السلة/ });
        await expect.poll(() => add.isDisabled()).toBe(false);
        expect(await lines(page, '.product-detail__buy .shop-button')).toBe(1);
        expect((await add.boundingBox())!.height).toBeLessThan(52);
        // In right-to-left text the sign stays on the number's left, where it is read: '+0.500 د.ك'.
        const sign = await page.locator('.option__price bdi').first().evaluate((bdi) => {
          const text = bdi.firstChild!;
          const at = (i: number) => { const r = document.createRange(); r.setStart(text, i); r.setEnd(text, i + 1); return r.getBoundingClientRect().left; };
          return { plus: at(0), digit: at(1), text: bdi.textContent };
        });
        expect(sign.text).toMatch(/^\+\d/);
        expect(sign.plus).toBeLessThan(sign.digit);
        await screenshot(page, 'shop-menu-arabic-product');
      });
    } finally {
      await context.close();
    }
  });
});
