import { describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, newContext, screenshot, shotOnFailure, signIn } from '../support/browser';
import { placeGuestOrder } from '../support/guestOrders';
import { useServerAndBrowser } from '../support/harness';

/**
 * /QualityReport and /SupportPage in Chromium (docs/decisions.md "Quality report", "Support page"):
 * orders handled through the API show in the report with the server's figures; the support page
 * checks the clock and the sound, and lists who to call.
 */
const { server, browser } = useServerAndBrowser();

const API = '/api/services/app';

describe('quality report and support', () => {
  it("a brand manager reads branch 1's service figures; a branch user checks the screen and finds who to call", async () => {
    const branchUser = await server.api.login('branchuser');
    const accepted = await placeGuestOrder(server.api, { name: 'Quality One' });
    const rejected = await placeGuestOrder(server.api, { name: 'Quality Two' });
    await placeGuestOrder(server.api, { name: 'Quality Three' });
    const status = async (orderId: number, s: string, reason?: string) => {
      const res = await server.api.put(`${API}/Store/UpdateOrderStatus`, { token: branchUser, body: { orderId, status: s, ...(reason ? { reason } : {}) } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    };
    await status(accepted, 'accepted');
    await status(rejected, 'rejected', 'Out of milk');

    const manager = await (await newContext(browser, server.url, DESKTOP)).newPage();
    const errors: string[] = [];
    manager.on('pageerror', (e) => errors.push(e.message));
    await signIn(manager, 'brandmanager');
    await manager.goto('/QualityReport');
    await shotOnFailure(manager, 'quality-report-1280', async () => {
      const row = manager.getByRole('table', { name: 'By branch' }).getByRole('row', { name: /Salmiya/ });
      await row.waitFor({ timeout: 30_000 });
      const token = await server.api.login('brandmanager');
      const report = (await server.api.get(`${API}/QualityReport/GetBranchQualityReport`, { token })).body.result;
      expect(report.overall).toMatchObject({ orders: 3, accepted: 1, rejected: 1 });
      const cells = await row.locator('td').allTextContents();
      // Brand, Orders, Accept, Ready, Rejected, Not accepted in time, No-shows, Refunded
      expect(cells[0]).toBe('Mango Coffee');
      expect(cells[1]).toBe('3');
      expect(cells[4]).toBe('1 (33 %)');
      expect(cells[6]).toBe('0');
      await screenshot(manager, 'quality-report-1280');
    });

    const phone = await (await newContext(browser, server.url, PHONE)).newPage();
    phone.on('pageerror', (e) => errors.push(e.message));
    await signIn(phone, 'branchuser');
    await phone.getByRole('button', { name: 'User menu' }).click();
    await phone.getByRole('menuitem', { name: 'Support' }).click();
    await phone.waitForURL('**/SupportPage');
    await shotOnFailure(phone, 'support-390', async () => {
      const call = phone.getByLabel('Who to call');
      await call.getByText('Bader Brand').waitFor({ timeout: 30_000 });
      await call.getByText('+96522200001').waitFor();
      expect(await call.getByRole('link', { name: 'brand@brewops.test' }).getAttribute('href')).toBe('mailto:brand@brewops.test');
      const check = phone.getByLabel('Check this screen');
      await check.getByText(/Right to within 30 s/).waitFor();
      await check.getByRole('button', { name: 'Play the alert' }).click();
      await check.getByText('Played').waitFor({ timeout: 10_000 });
      await screenshot(phone, 'support-390');
    });
    expect(errors).toEqual([]);
  });
});
