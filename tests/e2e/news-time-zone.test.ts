import { beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { DESKTOP, signIn } from '../support/browser';
import { useServerAndBrowser } from '../support/harness';
import { dateTimeText, dayKey } from '../../domain/time';

/**
 * Issue 22: a news "From" typed as 08:00 in the console was listed as 11:00 (the form read the
 * browser's clock, the list showed Kuwait's). Now both are the brand's clock (Kuwait), whatever
 * the browser's time zone: here the browser is in New York (UTC−5/−4).
 */
let picture: Buffer;
const { server, browser } = useServerAndBrowser();
beforeAll(async () => {
  picture = await sharp({ create: { width: 600, height: 300, channels: 3, background: '#8f5b2f' } }).png().toBuffer();
});

describe('news times in the brand time zone', () => {
  it('a "From" typed as 08:00 in a New York browser is 08:00 Kuwait time, listed and reopened as 08:00', async () => {
    const context = await browser.newContext({ baseURL: server.url, viewport: DESKTOP, deviceScaleFactor: 1, timezoneId: 'America/New_York' });
    const page = await context.newPage();
    expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe('America/New_York');
    await signIn(page, 'brandmanager');
    await page.goto('/news');
    await page.getByRole('button', { name: 'New advertisement' }).click();
    const form = page.getByRole('form', { name: 'New advertisement' });
    await form.waitFor();
    await expect.poll(() => form.getByLabel('Brand').inputValue()).toBe('7');
    await form.locator('#field-imageUrl').setInputFiles({ name: 'zone.png', mimeType: 'image/png', buffer: picture });
    await form.locator('img.resource-image-preview').first().waitFor();
    const title = `Morning news ${Date.now()}`;
    await form.getByLabel('Title').fill(title);
    // Tomorrow and next week, on Kuwait's calendar.
    const from = `${dayKey(Date.now() + 86_400_000)}T08:00`;
    const until = `${dayKey(Date.now() + 7 * 86_400_000)}T20:30`;
    await form.locator('#field-startDate').fill(from);
    await form.locator('#field-endDate').fill(until);
    // While typing, the inputs keep what was typed.
    expect(await form.locator('#field-startDate').inputValue()).toBe(from);
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });

    // Stored as that moment: 08:00 in Kuwait (UTC+3) is 05:00 UTC.
    const token = await server.api.login('brandmanager');
    const list = await server.api.get('/api/services/app/BrandAdvertisements/GetAll', { token, query: { SkipCount: 0, MaxResultCount: 10, Search: title } });
    const row = list.body.result.data[0];
    expect(new Date(row.startDate).toISOString()).toBe(new Date(`${from}:00+03:00`).toISOString());
    expect(new Date(row.endDate).toISOString()).toBe(new Date(`${until}:00+03:00`).toISOString());

    // Listed at 08:00 and 20:30 Kuwait time, and reopened with the times as typed.
    const region = page.getByRole('region', { name: 'News' });
    await region.getByText(title).waitFor();
    await region.getByText(dateTimeText(row.startDate), { exact: true }).waitFor();
    expect(dateTimeText(row.startDate)).toMatch(/, 08:00$/);
    await region.getByText(dateTimeText(row.endDate), { exact: true }).waitFor();
    expect(dateTimeText(row.endDate)).toMatch(/, 20:30$/);
    await page.getByRole('button', { name: `Edit advertisement ${row.id}`, exact: true }).click();
    const edit = page.getByRole('form', { name: `Edit advertisement #${row.id}` });
    await edit.waitFor();
    await expect.poll(() => edit.locator('#field-startDate').inputValue()).toBe(from);
    expect(await edit.locator('#field-endDate').inputValue()).toBe(until);
    await context.close();
  });
});
