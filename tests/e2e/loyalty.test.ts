import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DESKTOP, PHONE, newContext, screenshot, signIn } from '../support/browser';
import { useServerAndBrowser } from '../support/harness';

/**
 * Loyalty in Chromium: a brand manager creates a points program for branch 1 on its reward
 * programs screen; orders then earn, spend and refund points through the lifecycle, and the
 * customer's /profile shows each balance; a company admin adjusts a wallet on /customers/:id and
 * the ledger row appears. The orders themselves are placed and moved through the REST API (the
 * shop's checkout and the order board have their own browser tests).
 */
const { server, browser } = useServerAndBrowser();

const API = '/api/services/app';
let orderKey = 0;


/** A product's id by name, from the shop's menu of branch 1. */
async function productId(name: string): Promise<number> {
  const menu = (await server.api.get(`${API}/Products/GetProductsGroupedByTypeAndSubtypeAsCustomerForMangoes?brandId=7&branchId=1`, {})).body.result;
  const found: number[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (o.name === name && typeof o.id === 'number' && 'price' in o) found.push(o.id);
      Object.values(o).forEach(walk);
    }
  };
  walk(menu);
  expect(found.length, name).toBeGreaterThan(0);
  return found[0];
}

async function profilePoints(page: Page) {
  await page.goto('/profile');
  const cell = page.getByTestId('profile-points');
  await cell.waitFor();
  return Number(await cell.textContent());
}

describe('loyalty in the console and the shop', () => {
  it('a points program earns on close, pays at checkout, and a refund gives spent points back and takes earned ones', async () => {
    const [brandManager, customer, branchUser] = await Promise.all(['brandmanager', 'customer', 'branchuser'].map((u) => server.api.login(u)));
    const manager = await (await newContext(browser, server.url, DESKTOP)).newPage();
    const shop = await (await newContext(browser, server.url, PHONE)).newPage();
    const errors: string[] = [];
    manager.on('pageerror', (e) => errors.push(e.message));
    shop.on('pageerror', (e) => errors.push(e.message));

    // 1. The brand manager creates the points program for branch 1.
    await signIn(manager, 'brandmanager');
    await manager.waitForURL('**/dashboard');
    await manager.goto('/branches/reward-programs/1');
    await manager.getByRole('button', { name: 'New points collection' }).click();
    const form = manager.getByRole('form', { name: 'New points collection' });
    await form.getByLabel('Name').fill('Mango points');
    await form.getByLabel('Points per KD').fill('10');
    await screenshot(manager, 'loyalty-points-program-form-1280');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached', timeout: 20_000 });
    await manager.getByRole('region', { name: 'Points collection' }).getByText('Mango points').waitFor();
    await screenshot(manager, 'loyalty-reward-programs-1280');

    await signIn(shop, 'customer');
    await shop.waitForURL('**/profile');
    const start = await profilePoints(shop);

    const [espresso, cookie] = await Promise.all([productId('Espresso'), productId('Pistachio Cookie')]);
    const order = async (products: unknown[]) => {
      const res = await server.api.post(`${API}/Store/SaveNewOrderVS1`, {
        token: customer, headers: { 'idempotency-key': `e2e-loyalty-${++orderKey}` },
        body: { brandId: 7, paymentSystem: 2, deliveryOptions: { branchId: 1, isPickup: true }, products },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return { id: res.body.result.orderId as number, total: res.body.result.total as number };
    };
    const status = async (orderId: number, s: string) =>
      expect((await server.api.put(`${API}/Store/UpdateOrderStatus`, { token: branchUser, body: { orderId, status: s } })).status).toBe(200);

    // The customer orders; the branch accepts and closes it: the points arrive on close.
    const first = await order([{ productId: cookie, quantity: 2 }]);
    await status(first.id, 'accepted');
    expect(await profilePoints(shop)).toBe(start);
    await status(first.id, 'closed');
    const earned = Math.floor(first.total * 10);
    expect(earned).toBeGreaterThan(0);
    expect(await profilePoints(shop)).toBe(start + earned);
    await screenshot(shop, 'loyalty-profile-after-close-390');

    // 2. Paying for a product with points takes exactly its points.
    const before = start + earned;
    const redeemed = await order([{ productId: espresso, quantity: 1, isRedeem: true }, { productId: cookie, quantity: 1 }]);
    expect(await profilePoints(shop)).toBe(before - 100);

    // 3. The order is closed (earning its own points), then refunded.
    await status(redeemed.id, 'accepted');
    await server.api.put(`${API}/Store/UpdateOrderToPaidStatus`, { token: branchUser, body: { orderId: redeemed.id } });
    await status(redeemed.id, 'closed');
    const earned2 = Math.floor(redeemed.total * 10);
    expect(await profilePoints(shop)).toBe(before - 100 + earned2);
    await server.api.post(`${API}/Refund/InitiateRefundRequest`, { token: branchUser, body: { orderId: redeemed.id, reason: 'Spilled' } });
    expect((await server.api.post(`${API}/Refund/ApproveRefundRequest`, { token: brandManager, body: { orderId: redeemed.id } })).status).toBe(200);
    expect(await profilePoints(shop)).toBe(before);
    await screenshot(shop, 'loyalty-profile-after-refund-390');
    expect(errors).toEqual([]);
  }, 180_000);

  // ADMIN: a raise applies at once only for the platform operator (four eyes: tests/e2e/loyalty-four-eyes.test.ts has the request path).
  it('an admin adjusts a wallet with a reason, after a confirmation, and the customer page shows the ledger row', async () => {
    const page = await (await newContext(browser, server.url, DESKTOP)).newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await signIn(page, 'admin');
    await page.waitForURL('**/dashboard');
    await page.goto('/customers');
    await page.getByRole('searchbox', { name: 'Search by name or phone' }).fill('Sara');
    await page.getByRole('link', { name: 'Sara Customer' }).click();
    await page.waitForURL('**/customers/5');
    await page.getByTestId('customer-balances').waitFor().catch(async (e) => { await screenshot(page, 'loyalty-customer-failed-1280'); console.log('page errors', errors); throw e; });
    const form = page.getByTestId('adjust-form');
    await form.getByLabel('Brand').selectOption({ label: 'Mango Coffee' });
    await form.getByLabel('Account').selectOption('wallet');
    await form.getByLabel('New balance (KD)').fill('3.5');
    await form.getByLabel('Reason').fill('Birthday gift');
    await form.getByRole('button', { name: 'Save adjustment' }).click();
    expect(await page.getByTestId('adjust-confirmation').innerText()).toContain("Sara Customer's wallet");
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.locator('.bp6-toast').filter({ hasText: 'Saved' }).waitFor();
    const ledger = page.getByTestId('customer-ledger');
    await ledger.getByText('Birthday gift').waitFor({ timeout: 20_000 });
    await expect.poll(async () => ledger.locator('tbody tr').first().innerText()).toContain('+3.500');
    await page.getByTestId('customer-balances').getByText('3.500 KD').waitFor();
    await screenshot(page, 'loyalty-customer-ledger-1280');
    expect(errors).toEqual([]);
  }, 120_000);

  it('a company admin approves a brand manager\'s punches request on /CustomerRequest after a confirmation; approving is offered once', async () => {
    const token = await server.api.login('companyadmin');
    // Asked by the brand manager: nobody approves their own request (four eyes).
    const created = await server.api.post(`${API}/Customer/InsertUserPunchesInfoDetail`, {
      token: await server.api.login('brandmanager'), body: { customerId: 5, brandId: 7, account: 'punches', amount: 4, reason: 'Stamped paper card' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const page = await (await newContext(browser, server.url, DESKTOP)).newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await signIn(page, 'companyadmin');
    await page.waitForURL('**/dashboard');
    await page.goto('/CustomerRequest');
    const row = page.locator('.bp6-table-cell, td').filter({ hasText: 'Stamped paper card' }).first();
    await row.waitFor();
    await screenshot(page, 'loyalty-customer-requests-1280');
    await page.getByRole('button', { name: 'Approve' }).first().click();
    await page.locator('.bp6-alert').getByRole('button', { name: 'Approve' }).click();
    await expect.poll(async () => page.getByRole('button', { name: 'Approve' }).count(), { timeout: 20_000 }).toBe(0);
    await page.locator('.bp6-tag').filter({ hasText: 'approved' }).first().waitFor();
    const balances = await server.api.get(`${API}/Customer/GetCustomerWalletPunchesAndFreeItemsDetails?CustomerId=5&BrandId=7`, { token });
    expect(balances.body.result.punches).toBe(4);
    await screenshot(page, 'loyalty-customer-requests-approved-1280');
    expect(errors).toEqual([]);
  }, 120_000);
});
