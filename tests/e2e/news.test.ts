import { beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { DESKTOP, PHONE, newContext, screenshot, signIn } from '../support/browser';
import { useServerAndBrowser } from '../support/harness';

/** /news in Chromium: a brand manager publishes news with an image, and the shop's home shows it (SPEC.md 2.2). */
let picture: Buffer;
const { server, browser } = useServerAndBrowser();
beforeAll(async () => {
  picture = await sharp({ create: { width: 600, height: 300, channels: 3, background: '#2f8f5b' } }).png().toBuffer();
});


/** A datetime-local value, in the browser's time zone, `days` from now. */
const localInput = (days: number) => {
  const d = new Date(Date.now() + days * 86_400_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

describe('news', () => {
  it('a brand manager publishes news with an image and the shop home shows it', async () => {
    const context = await newContext(browser, server.url, DESKTOP);
    const page = await context.newPage();
    await signIn(page, 'brandmanager');
    await page.goto('/news');
    await page.getByRole('button', { name: 'New advertisement' }).click();
    const form = page.getByRole('form', { name: 'New advertisement' });
    await form.waitFor();
    await expect.poll(() => form.getByLabel('Brand').inputValue()).toBe('7');
    await form.locator('#field-imageUrl').setInputFiles({ name: 'summer.png', mimeType: 'image/png', buffer: picture });
    await form.locator('img.resource-image-preview').first().waitFor();
    const imageUrl = await form.locator('img.resource-image-preview').first().getAttribute('src');
    expect(imageUrl).toMatch(/^\/uploads\/[0-9a-f]{64}\.png$/);
    await form.getByLabel('Title').fill('Iced Spanish latte is back');
    await form.getByLabel('Text').fill('All summer at Mango Coffee.');
    await form.locator('#field-startDate').fill(localInput(-1));
    await form.locator('#field-endDate').fill(localInput(7));
    await screenshot(page, 'news-new-1280');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    await page.getByRole('region', { name: 'News' }).getByText('Iced Spanish latte is back').waitFor();
    await page.getByText('In the shop').first().waitFor();
    await screenshot(page, 'news-list-1280');
    await context.close();

    const token = await server.api.login('brandmanager');
    const list = await server.api.get('/api/services/app/BrandAdvertisements/GetAll', { token, query: { SkipCount: 0, MaxResultCount: 10, Search: 'Spanish latte' } });
    expect(list.body.result.data[0]).toMatchObject({ brandId: 7, title: 'Iced Spanish latte is back', imageUrl, isShown: true });

    const phone = await newContext(browser, server.url, PHONE);
    const shop = await phone.newPage();
    await shop.goto('/');
    const brand = shop.getByRole('button', { name: /Mango Coffee/ });
    await brand.waitFor();
    // the only-brand-open picker may have it expanded already
    if ((await brand.getAttribute('aria-expanded')) !== 'true') await brand.click();
    await shop.getByRole('button', { name: /Salmiya/ }).click();
    const news = shop.getByTestId('brand-news');
    await news.getByText('Iced Spanish latte is back').waitFor({ timeout: 30_000 });
    expect(await news.locator('img').first().getAttribute('src')).toBe(imageUrl);
    await news.scrollIntoViewIfNeeded();
    await screenshot(shop, 'news-shop-home-390');
    await phone.close();
  });
});
