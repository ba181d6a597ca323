import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server';
import { launchBrowser, newContext, screenshot, shotOnFailure, signIn } from '../support/browser';
import { insertOrder } from '../support/orders';
import { orderItems } from '../../server/db/schema';

/**
 * Issue 23, density: at 1024 px the live order screens hid the waiting timer, the customer and the
 * mode behind a sideways scroll and the side menu did not fold; the Items column cut option text
 * off at 1440 and 1024 px. An operator on a 1024 px tablet sees the timer without scrolling, and
 * every item with its options is whole.
 */
let server: TestServer;
let browser: Browser;
let busy: number;
const OPTIONS = ['Large', 'Oat milk', 'Extra shot', 'Caramel syrup', 'No sugar'];
beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer({ gateway: true, spaDir: 'dist' }), launchBrowser()]);
  // Waiting 4 minutes, three items, the first with five options: the longest Items text a counter sees.
  const order = await insertOrder(server, { guestCustomerName: 'Hessa Many Options', guestPhoneNumber: '+96550001234', createdAt: new Date(Date.now() - 4.2 * 60_000) });
  busy = order.id;
  const db = server.database.db;
  const [line] = await db.select().from(orderItems).where(eq(orderItems.orderId, busy));
  await db.update(orderItems).set({ name: 'Spanish Latte', options: OPTIONS.map((name, i) => ({ id: i + 1, name, price: 0 })) }).where(eq(orderItems.id, line.id));
  await db.insert(orderItems).values([
    { orderId: busy, productId: line.productId, name: 'Iced Americano', quantity: 1, unitPrice: '1.250', lineTotal: '1.250', options: [{ id: 9, name: 'Medium', price: 0 }] },
    { orderId: busy, productId: line.productId, name: 'Chocolate Croissant', quantity: 3, unitPrice: '1.250', lineTotal: '3.750', options: [] },
  ]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const VIEWPORTS = [{ width: 1440, height: 900 }, { width: 1024, height: 768 }] as const;

/** A cell's box against the viewport, and whether its content is cut (wider or taller than the cell shows). */
const cellFit = (page: Page, column: string, orderId: number) =>
  page.locator(`[data-column="${column}"][data-order-id="${orderId}"]`).evaluate((span) => {
    const cell = span.closest('.bp6-table-cell') as HTMLElement;
    const box = cell.getBoundingClientRect();
    const table = span.closest('.order-table')!.getBoundingClientRect();
    const lines = [...span.querySelectorAll<HTMLElement>('.order-item-line, .order-line')];
    const clamp = span.querySelector<HTMLElement>('.order-items-text');
    const clamped = !!clamp && (clamp.scrollHeight > clamp.clientHeight + 1 || clamp.scrollWidth > clamp.clientWidth + 1 || clamp.getBoundingClientRect().bottom > box.bottom + 0.5);
    const cut = clamped || lines.some((l) => l.scrollWidth > l.clientWidth + 1 || l.getBoundingClientRect().right > box.right + 0.5 || l.getBoundingClientRect().bottom > box.bottom + 0.5);
    return { left: Math.round(box.left), right: Math.round(box.right), visibleRight: Math.round(Math.min(table.right, window.innerWidth)), cut, text: span.textContent };
  });

describe('order screens at 1440 and 1024 px (issue 23)', () => {
  it('the timer, the customer and the mode are on screen at 1024 px, the menu folds, and the items are whole', async () => {
    const figures: Record<number, unknown> = {};
    for (const viewport of VIEWPORTS) {
      const context = await newContext(browser, server.url, viewport);
      const page = await context.newPage();
      try {
        await shotOnFailure(page, `console-routes-order-density-${viewport.width}`, async () => {
          await signIn(page, 'branchuser');
          await page.goto('/Currentorder');
          await page.locator(`[data-column="placed"][data-order-id="${busy}"] [data-testid="order-timer"]`).waitFor({ timeout: 30_000 });
          await screenshot(page, `console-routes-order-density-${viewport.width}`);
          const sidebar = await page.getByRole('complementary', { name: 'Main menu' }).evaluate((el) => Math.round(el.getBoundingClientRect().width));
          const cells: Record<string, Awaited<ReturnType<typeof cellFit>>> = {};
          for (const column of ['placed', 'customer', 'mode', 'items']) cells[column] = await cellFit(page, column, busy);
          figures[viewport.width] = { sidebar, ...Object.fromEntries(Object.entries(cells).map(([k, c]) => [k, `${c.left}–${c.right}/${c.visibleRight}${c.cut ? ' cut' : ''}`])) };
          if (viewport.width === 1024) expect(sidebar, 'the side menu folds to its icons').toBeLessThanOrEqual(60);
          // Seen without scrolling sideways: each cell ends inside the table's visible width.
          for (const column of ['placed', 'customer', 'mode']) {
            expect(cells[column].right, `${column} at ${viewport.width}: ${JSON.stringify(cells[column])}`).toBeLessThanOrEqual(cells[column].visibleRight);
          }
          // Every item and option shows, none cut.
          for (const option of OPTIONS) expect(cells.items.text).toContain(option);
          expect(cells.items.cut, `items at ${viewport.width}: ${JSON.stringify(cells.items)}`).toBe(false);
          const page1024Scroll = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
          expect(page1024Scroll, 'the page itself never scrolls sideways').toBeLessThanOrEqual(0);
        });
      } finally {
        await context.close();
      }
    }
    console.log(`order density: ${JSON.stringify(figures)}`);
  });
});
