import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { DESKTOP, newContext, screenshot, shotOnFailure, signIn } from '../support/browser';
import { guestOrderBody } from '../support/guestOrders';
import { useServerAndBrowser } from '../support/harness';

/**
 * Issue 11, Print: from the order drawer a branch user prints a kitchen ticket (what to make, no
 * prices) or a customer receipt (with prices) on an 80 mm roll. window.print is replaced in the page
 * by a flag (no dialog in a headless test); print media is then emulated to check what the printer gets.
 */
const MM = 96 / 25.4;
const { server, browser } = useServerAndBrowser();

/** A guest's drive-thru order of two of product 1, placed through the shop's API. */
async function carOrder() {
  const body = { ...guestOrderBody({ name: 'Print Guest', carService: true }), products: [{ productId: 1, quantity: 2 }], specialRemarks: 'No sugar please' };
  const res = await server.api.post('/api/services/app/Store/SaveNewOrderVS1', { token: await server.api.guestToken(), body, headers: { 'idempotency-key': randomUUID() } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result.orderId as number;
}

/** What print media shows: the slip's box and text, and whether anything of the app is still drawn. */
async function printed(page: Page) {
  await page.emulateMedia({ media: 'print' });
  const slip = page.getByTestId('print-slip');
  await slip.waitFor({ state: 'visible' });
  const box = (await slip.boundingBox())!;
  const text = (await slip.innerText()).replace(/\s+/g, ' ');
  // Any element outside the slip that still takes room when printing.
  const othersShown = await page.evaluate(() => [...document.body.children]
    .filter((el) => !el.classList.contains('print-slip-root'))
    .filter((el) => { const r = el.getBoundingClientRect(); return getComputedStyle(el).display !== 'none' && r.width * r.height > 0; })
    .map((el) => el.id || el.className));
  return { box, text, othersShown };
}

describe('the branch user prints from the order drawer', () => {
  it('a kitchen ticket without prices and a receipt with them, alone on an 80 mm page', async () => {
    const id = await carOrder();
    const page = await (await newContext(browser, server.url, DESKTOP)).newPage();
    await page.addInitScript(() => {
      (window as unknown as { printed: number }).printed = 0;
      window.print = () => { (window as unknown as { printed: number }).printed += 1; };
    });
    await shotOnFailure(page, 'order-print', async () => {
      await signIn(page, 'branchuser');
      await page.locator(`[data-order-id="${id}"][data-column="customer"]`).click({ timeout: 30_000 });
      const drawer = page.locator('.order-drawer');
      await drawer.getByTestId('order-items').getByText('Espresso').waitFor();
      await screenshot(page, 'order-print-drawer-1280');
      // On screen the slip takes no room.
      expect(await page.getByTestId('print-slip').count()).toBe(0);

      await drawer.getByRole('button', { name: 'Print ticket' }).click();
      expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
      expect(await page.getByTestId('print-slip').isVisible()).toBe(false);
      const ticket = await printed(page);
      await screenshot(page, 'order-print-ticket');
      console.log('ticket box', ticket.box, ticket.text);
      expect(ticket.othersShown).toEqual([]);
      expect(ticket.box.width).toBeLessThanOrEqual(80 * MM);
      expect(ticket.text).toContain('2× Espresso');
      expect(ticket.text).toContain('Drive-thru');
      expect(ticket.text).toContain('White Land Cruiser 12345');
      expect(ticket.text).toContain('No sugar please');
      expect(ticket.text).not.toMatch(/KD|\d\.\d{3}/);

      await page.emulateMedia({ media: 'screen' });
      await drawer.getByRole('button', { name: 'Print receipt' }).click();
      expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(2);
      const receipt = await printed(page);
      await screenshot(page, 'order-print-receipt');
      console.log('receipt box', receipt.box, receipt.text);
      expect(receipt.othersShown).toEqual([]);
      expect(receipt.box.width).toBeLessThanOrEqual(80 * MM);
      expect(receipt.text).toContain('2× Espresso');
      expect(receipt.text).toMatch(/Total \d+\.\d{3} KD/);
      expect(receipt.text).toMatch(/Subtotal \d+\.\d{3} KD/);
      expect(receipt.text).toContain('Status: Unpaid');
    });
  });
});
