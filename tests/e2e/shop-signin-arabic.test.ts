import { describe, expect, it } from 'vitest';
import { PHONE, screenshot, shotOnFailure } from '../support/browser';
import { useServerAndBrowser } from '../support/harness';

/**
 * Issue 24's first story, on a 390 px phone in Arabic: a new customer registers, typing the phone
 * and the code in Arabic-Indic digits as an Arabic keyboard does, signs out, and signs in again
 * with a one-time code (no password), typed in Arabic-Indic digits too. The cards are headed with
 * the brand's name, not the platform's. Codes are read from the server's SMS outbox.
 */
const { server, browser } = useServerAndBrowser();

const arabic = (s: string) => s.replace(/\d/g, (d) => String.fromCharCode(0x0660 + Number(d)));

describe('signing in in Arabic with a one-time code', () => {
  it('a new customer registers, then signs in with a code typed in Arabic-Indic digits (390 px)', async () => {
    const context = await browser.newContext({ baseURL: server.url, viewport: PHONE, deviceScaleFactor: 1, locale: 'ar-KW' });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const local = `6${String(Date.now() % 1e7).padStart(7, '0')}`;
    const phone = `+965${local}`;
    try {
      await shotOnFailure(page, 'shop-signin-arabic-failure', async () => {
        // The shop first: it chooses its brand (Mango Coffee, مانجو كوفي), which then heads the cards.
        await page.goto('/');
        await page.locator('.shop-logo').filter({ hasText: 'مانجو كوفي' }).waitFor();
        await page.goto('/registration');
        await page.getByTestId('auth-brand').filter({ hasText: 'مانجو كوفي' }).waitFor();
        await page.getByLabel('رقم الهاتف').pressSequentially(arabic(local));
        expect(await page.getByLabel('رقم الهاتف').inputValue()).toBe(`${local.slice(0, 3)} ${local.slice(3)}`);
        await page.getByRole('button', { name: 'أرسل الرمز' }).click();
        await page.getByLabel('رمز التحقق').waitFor();
        const [registerCode] = await server.smsCodes(phone, 'register');
        await page.getByLabel('رمز التحقق').pressSequentially(arabic(registerCode));
        await page.getByRole('button', { name: 'تحقّق' }).click();
        await page.getByLabel('الاسم الكامل').fill('سارة العلي');
        await page.getByLabel('كلمة المرور').fill('secret-123');
        await page.getByRole('button', { name: 'أنشئ الحساب' }).click();
        await page.waitForURL('**/profile');

        await page.getByRole('button', { name: 'تسجيل الخروج', exact: true }).click();
        await page.goto('/login');
        await page.getByTestId('auth-brand').filter({ hasText: 'مانجو كوفي' }).waitFor();
        await page.getByRole('link', { name: 'الدخول برمز' }).click();
        await page.waitForURL('**/login_code');
        await page.getByLabel('رقم الهاتف').pressSequentially(arabic(local));
        await page.getByRole('button', { name: 'أرسل الرمز' }).click();
        await page.getByLabel('رمز التحقق').waitFor();
        const [code] = await server.smsCodes(phone, 'signIn');
        expect(code).toMatch(/^\d{6}$/);
        await page.getByLabel('رمز التحقق').pressSequentially(arabic(code));
        expect(await page.getByLabel('رمز التحقق').inputValue()).toBe(code);
        // The card fits the phone: nothing wider than the 390 px screen.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
        await screenshot(page, 'shop-signin-arabic-code-390');
        await page.getByRole('button', { name: 'تحقّق' }).click();
        await page.waitForURL((url) => !url.pathname.startsWith('/login'));
        await expect.poll(() => page.evaluate(() => localStorage.getItem('role'))).toBe('CUSTOMER');
        await page.goto('/profile');
        await page.getByTestId('profile-name').filter({ hasText: 'سارة العلي' }).waitFor();
      });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
