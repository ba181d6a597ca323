import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { startServerProcess, type ServerProcess } from './serverProcess';

/**
 * What the Chromium stories of the payment gateways share (issue 21): a server process configured
 * as in production by a gateway's environment variables (pointing at its simulated provider), with
 * the gateway's method switched on for brand 7; and a guest's order from the shop, paid with a
 * method chosen by its label.
 */

/** Starts a server with `env` set for it only (restored after), then switches `paymentSystemIds` on for brand 7. */
export async function serverWithGateway(env: Record<string, string>, paymentSystemIds: number[], opts: Parameters<typeof startServerProcess>[0] = {}): Promise<ServerProcess> {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  let started: ServerProcess;
  try {
    started = await startServerProcess(opts);
  } finally {
    for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k]; else process.env[k] = v;
  }
  const admin = await started.api.login('companyadmin');
  for (const paymentSystemId of paymentSystemIds) {
    const on = await started.api.post('/api/services/app/BrandPayment/Create', { token: admin, body: { brandId: 7, paymentSystemId } });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
  }
  return started;
}

/** A guest orders a large Cappuccino at Mango Coffee, Salmiya, from the shop's home, pays with `method` (its label) and presses Place order. */
export async function guestOrdersFromShop(page: Page, method: string, guest = { name: 'Fatima Guest', phone: '5000 0077' }) {
  await page.goto('/');
  const brand = page.getByRole('button', { name: /Mango Coffee/ });
  await brand.waitFor();
  if ((await brand.getAttribute('aria-expanded')) !== 'true') await brand.click();
  await page.getByRole('button', { name: /Salmiya/ }).click();
  await page.waitForURL('**/products');
  await page.getByTestId('product-list').getByRole('link', { name: /Cappuccino/ }).click();
  await page.waitForURL('**/product-detail/**');
  await page.getByLabel('Large').check();
  await page.getByRole('button', { name: /Add to Cart/ }).click();
  await page.waitForURL('**/products');
  await page.getByRole('link', { name: /View Cart/ }).click();
  await page.waitForURL('**/cart');
  await page.getByRole('link', { name: 'Checkout as guest' }).click();
  await page.waitForURL('**/check-out');
  await page.getByLabel(method).check();
  await page.getByLabel('Name').fill(guest.name);
  await page.getByLabel('Phone').fill(guest.phone);
  await page.getByLabel('Phone').blur();
  await page.getByRole('button', { name: 'Place order' }).click();
}
