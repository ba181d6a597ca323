import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startServerProcess } from '../support/serverProcess';
import { DESKTOP, PHONE, newContext, screenshot, shotOnFailure, signIn } from '../support/browser';
import { fakeUnifonic } from '../support/fakeSms';
import { useServerAndBrowser, useStarted } from '../support/harness';
import { SMS_GUARD_TEXT } from '../../server/limits/smsGuard';
import { smsCostText } from '../../src/console/dashboard/smsCost';

/**
 * Issue 27 in Chromium, with a real server whose SMS provider is configured as in production
 * (SMS_PROVIDER=unifonic, its base URL pointing at the local Unifonic simulator): real sends trip
 * the pumping breaker, the admin sees why on /ValidationCode and resumes it after confirming, codes
 * go out again; the dashboard shows the day's sends, verified codes and cost (ADMIN: `sms.guard`),
 * and no other role sees that card or asks for it.
 */
const APP = '/api/services/app';
const REGISTER = `${APP}/Customer/RegistrateNewUnregisteredUser`;
const VALIDATE = `${APP}/Customer/ValidateNewUnregisteredUser`;
const DLR_TOKEN = 'e2e-dlr-token';

const fake = useStarted('the fake Unifonic', () => fakeUnifonic('e2e-app-sid'));
const { server, browser } = useServerAndBrowser(async () => {
  // The server process is started with the environment of this one: the provider's settings, as an operator sets them.
  const settings = { SMS_PROVIDER: 'unifonic', UNIFONIC_APP_SID: 'e2e-app-sid', UNIFONIC_SENDER_ID: 'BrewOps', UNIFONIC_BASE_URL: fake.url, UNIFONIC_DLR_TOKEN: DLR_TOKEN };
  Object.assign(process.env, settings);
  try {
    return await startServerProcess();
  } finally {
    for (const key of Object.keys(settings)) delete process.env[key];
  }
});

let sender = 0;
/**
 * A customer's registration request over HTTP, from its own loopback address (127.0.0.2, .3 …,
 * a new one every 10 requests): the SMS limit of 20 codes an hour per client address stays out of
 * the way, as it would for customers on their own phones.
 */
function registerFrom(phoneNumber: string): Promise<{ status: number; body: any }> {
  const url = new URL(server.url);
  const data = JSON.stringify({ phoneNumber });
  return new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1', port: url.port, path: REGISTER, method: 'POST', localAddress: `127.0.0.${2 + Math.floor(sender++ / 10)}`,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) },
    }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => { text += chunk; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(data);
  });
}
/** Kuwaiti numbers each in its own number block (the limit per block is 20 an hour). */
const phone = (i: number) => `+9655${String(i).padStart(3, '0')}1234`;
const codeIn = (body: string) => body.match(/\d{6}/)![0];

/** One row of the /ValidationCode table (Blueprint's Table2: cells, not <tr>), by its phone: text per column. */
async function codeRow(page: Page, phoneNumber: string): Promise<Record<string, string>> {
  const cell = page.locator('[data-column="phoneNumber"]', { hasText: phoneNumber }).first();
  await cell.waitFor();
  const id = await cell.getAttribute('data-row-id');
  return page.locator(`[data-row-id="${id}"]`).evaluateAll((els) => Object.fromEntries(els.map((e) => [e.getAttribute('data-column'), e.textContent?.trim() ?? ''])));
}
const tableRows = (page: Page, name: string) => page.getByRole('table', { name }).locator('tbody tr').evaluateAll(
  (rows) => rows.map((r) => Array.from(r.querySelectorAll('td')).map((td) => td.textContent?.trim() ?? '')),
);

describe('the SMS pumping guard on /ValidationCode', () => {
  it('real sends trip the breaker; the admin sees why, resumes after confirming, and codes go out again', async () => {
    // 51 codes sent through the provider in the hour and none verified: the next request trips the breaker.
    for (let i = 0; i < 51; i++) {
      const sent = await registerFrom(phone(i));
      expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    }
    expect(fake.requests.length).toBe(51);
    const refused = await registerFrom(phone(51));
    expect(refused.status).toBe(503);
    expect(refused.body.error.message).toBe(SMS_GUARD_TEXT.paused);
    expect(fake.requests.length).toBe(51);

    // A customer registering meanwhile is told plainly that no code can be sent now, and can try again.
    const shop = await newContext(browser, server.url, PHONE);
    const customer = await shop.newPage();
    await shotOnFailure(customer, 'sms-guard-paused-shop', async () => {
      await customer.goto('/registration');
      await customer.getByLabel('Phone number').fill(phone(52).slice(4));
      await customer.getByRole('button', { name: 'Send code' }).click();
      await customer.getByRole('alert').filter({ hasText: SMS_GUARD_TEXT.paused }).waitFor();
      expect(await customer.getByRole('button', { name: 'Send code' }).isEnabled()).toBe(true);
      await screenshot(customer, 'sms-guard-paused-shop-390');
    });
    await shop.close();
    expect(fake.requests.length).toBe(51);

    const context = await newContext(browser, server.url, DESKTOP);
    const page = await context.newPage();
    await shotOnFailure(page, 'sms-guard-paused', async () => {
      await signIn(page, 'admin');
      await page.goto('/ValidationCode');
      const guard = page.getByTestId('sms-guard');
      await expect.poll(() => guard.textContent()).toContain('Sending codes by SMS is paused');
      expect(await guard.textContent()).toContain('Only 0 of the 51 codes sent in the last hour were verified (0 %, below 50 %): possible SMS pumping.');
      // What was sent, never the code: the row of one of those phones reads Sent, with a dash for the code.
      expect(await codeRow(page, phone(50))).toMatchObject({ code: '—', sendStatus: 'Sent', cost: '0.008 KWD', state: 'Valid' });
      await screenshot(page, 'sms-guard-paused-1280');

      // Resume asks first; Cancel leaves sending paused.
      await guard.getByRole('button', { name: 'Resume sending' }).click();
      const confirmation = page.getByTestId('sms-resume-confirmation');
      await confirmation.waitFor();
      expect(await confirmation.textContent()).toContain('Resume sending codes by SMS?');
      await page.locator('.bp6-alert').getByRole('button', { name: 'Cancel' }).click();
      await confirmation.waitFor({ state: 'hidden' });
      expect((await registerFrom(phone(52))).status).toBe(503);

      await guard.getByRole('button', { name: 'Resume sending' }).click();
      await confirmation.waitFor();
      await page.locator('.bp6-alert').getByRole('button', { name: 'Resume sending' }).click();
      await expect.poll(() => guard.textContent()).toBe('SMS by unifonic: 0 of 0 codes sent in the last hour were verified.');
    });

    // Sending works again: a code reaches the phone, the customer types it, and the receipt says it arrived.
    const again = await registerFrom(phone(53));
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(fake.requests.length).toBe(52);
    const last = fake.requests.at(-1)!;
    expect(last.Recipient).toBe(phone(53).slice(1));
    const validated = await server.api.post(VALIDATE, { body: { phoneNumber: phone(53), validationCode: Number(codeIn(last.Body)) } });
    expect(validated.status, JSON.stringify(validated.body)).toBe(200);
    // the simulator numbers its messages from 4100000, one per message it accepted
    expect(await fake.dlr(`${server.url}/api/Sms/UnifonicDlr?token=${DLR_TOKEN}`, String(4_100_000 + fake.requests.length - 1), 'Delivered')).toBe(200);

    await shotOnFailure(page, 'sms-guard-resumed', async () => {
      await page.reload();
      const guard = page.getByTestId('sms-guard');
      await expect.poll(() => guard.textContent()).toBe('SMS by unifonic: 1 of 1 codes sent in the last hour were verified.');
      const row = await codeRow(page, phone(53));
      expect(row).toMatchObject({ code: '—', sendStatus: 'Delivered', cost: '0.008 KWD', state: 'Used' });
      expect(Object.values(row).join(' ')).not.toContain(codeIn(last.Body));
      await screenshot(page, 'sms-guard-resumed-1280');
    });
    await context.close();
  });
});

describe('SMS sends on the dashboard', () => {
  it('the admin reads the day\'s sends, verified codes and cost; the chart\'s table matches the server', async () => {
    const admin = await server.api.login('admin');
    const days = (await server.api.get(`${APP}/Statistic/GetSmsSendsPerDay`, { token: admin, query: { Days: 30 } })).body.result;
    // 51 before the breaker tripped and 1 after the resume; the refused requests sent nothing.
    expect(days.reduce((n: number, d: { sends: number }) => n + d.sends, 0)).toBe(52);
    expect(days.reduce((n: number, d: { verified: number }) => n + d.verified, 0)).toBe(1);

    const context = await newContext(browser, server.url, DESKTOP);
    const page = await context.newPage();
    await shotOnFailure(page, 'dashboard-sms', async () => {
      await signIn(page, 'admin');
      const card = page.getByRole('region', { name: 'SMS codes sent per day' });
      await card.locator('svg').first().waitFor({ timeout: 30_000 });
      await screenshot(page, 'dashboard-sms-chart-1280');
      await card.getByText('View as table').click();
      expect(await tableRows(page, 'SMS codes sent per day')).toEqual(days.map((d: { day: string; sends: number; delivered: number; verified: number; failed: number; cost: number; currency: string }) =>
        [d.day, String(d.sends), String(d.delivered), String(d.verified), String(d.failed), smsCostText(d.cost, d.currency)]));
      // all on one Kuwait day unless the run crossed midnight there: 52 sends at 0.008 KWD
      if (days.length === 1) expect(await tableRows(page, 'SMS codes sent per day')).toEqual([[days[0].day, '52', '1', '1', '0', '0.416 KWD']]);
      await screenshot(page, 'dashboard-sms-table-1280');
    });
    await context.close();
  });

  it('a brand manager and a branch user neither see the card nor ask for it (no 403, no error toast)', async () => {
    for (const login of ['brandmanager', 'branchuser']) {
      const context = await newContext(browser, server.url, DESKTOP);
      const page = await context.newPage();
      const asked: string[] = [];
      const refused: string[] = [];
      page.on('request', (req) => { if (req.url().includes('/graphql') && /Sms_|SmsSend/.test(req.postData() ?? '')) asked.push(req.postData() ?? ''); });
      page.on('response', async (res) => {
        if (res.status() === 403) refused.push(res.url());
        if (res.url().includes('/graphql')) {
          const text = await res.text().catch(() => '');
          if (/"status":\s*403|Forbidden/i.test(text)) refused.push(text.slice(0, 200));
        }
      });
      await shotOnFailure(page, `dashboard-sms-${login}`, async () => {
        await signIn(page, login);
        await page.goto('/dashboard');
        await page.getByText('Welcome,').waitFor();
        if (login === 'brandmanager') await page.getByRole('region', { name: 'Counts' }).waitFor({ timeout: 30_000 });
        else await page.getByRole('table').first().waitFor();
        await page.waitForTimeout(2_000); // any late query would have been sent by now
        expect(await page.getByRole('region', { name: 'SMS codes sent per day' }).count()).toBe(0);
        expect(await page.locator('.bp6-toast').count()).toBe(0);
        expect(asked).toEqual([]);
        expect(refused).toEqual([]);
      });
      await context.close();
    }
  });
});

describe('a provider that fails, in the shop', () => {
  it('the registration screen says plainly, in Arabic, that no code could be sent, and the next try gets one', async () => {
    const context = await browser.newContext({ baseURL: server.url, viewport: PHONE, deviceScaleFactor: 1, locale: 'ar-KW' });
    await context.addInitScript(() => localStorage.setItem('language', 'ar'));
    const page = await context.newPage();
    await shotOnFailure(page, 'sms-provider-down-shop', async () => {
      const before = fake.requests.length;
      fake.script.failNext = 3; // Unifonic answers 503 to every try of this code
      await page.goto('/registration');
      await page.getByLabel('رقم الهاتف').fill(phone(54).slice(4));
      const send = page.getByRole('button', { name: 'أرسل الرمز' });
      const started = Date.now();
      await send.click();
      await page.getByRole('alert').filter({ hasText: 'تعذّر إرسال الرمز برسالة نصية. يرجى المحاولة بعد بضع دقائق.' }).waitFor();
      expect(Date.now() - started).toBeLessThan(9_000 + 5_000); // 3 tries and their backoff, and a busy machine's browser
      expect(fake.requests.length - before).toBe(3);
      await screenshot(page, 'sms-provider-down-shop-ar-390');
      // Nothing hangs: the same screen sends again, and this time the code goes out (a failed send starts no cooldown).
      expect(await send.isEnabled()).toBe(true);
      await send.click();
      await page.getByRole('heading', { name: 'تحقّق من هاتفك' }).waitFor();
      expect(fake.requests.length - before).toBe(4);
      expect(fake.requests.at(-1)!.Body).toMatch(/^رمز التحقق لتسجيل حسابك هو \d{6}$/);
    });
    await context.close();
  });
});
