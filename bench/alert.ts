import { loadavg } from 'node:os';
import { startServerProcess } from '../tests/support/serverProcess';
import { DESKTOP, launchBrowser, newContext, signIn } from '../tests/support/browser';
import { alertPlayedAt, guestPlacesOrderFromPage } from '../tests/support/guestOrders';

/**
 * Save → alert (issue 14): a guest page saves an order (SaveNewOrderVS1 through /graphql) and a
 * branch user's console in the same Chromium plays the new-order sound (howler's onplay), both on
 * the machine's one clock; the production server on a seeded PGlite, the live feed through the
 * gateway. p50, p99 and max over `orders`, beside the save's own round trip measured on the same
 * orders (the baseline: the alert cannot come before the order is saved).
 */
export async function benchAlert({ orders = 100 } = {}) {
  const [server, browser] = await Promise.all([startServerProcess(), launchBrowser()]);
  try {
    const guest = await (await newContext(browser, server.url, DESKTOP)).newPage();
    await guest.goto('/');
    const staff = await (await newContext(browser, server.url, DESKTOP)).newPage();
    await signIn(staff, 'branchuser');
    await staff.goto('/Currentorder');
    await staff.locator('[data-testid="feed-status"][data-status="live"]').waitFor();
    const alert: number[] = [];
    const save: number[] = [];
    for (let i = 0; i < orders; i++) {
      const { id, sentAt, answeredAt } = await guestPlacesOrderFromPage(guest, { name: `Bench ${i}` });
      alert.push((await alertPlayedAt(staff, id)) - sentAt);
      save.push(answeredAt - sentAt);
    }
    const a = summary(alert);
    const s = summary(save);
    console.log(`save → alert, ${orders} orders (Chromium, console on /Currentorder, PGlite; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')})`);
    console.log(`  baseline: the save's own round trip   p50 ${s.p50} ms  p99 ${s.p99} ms  max ${s.max} ms`);
    console.log(`  save → alert sound                    p50 ${a.p50} ms  p99 ${a.p99} ms  max ${a.max} ms  (${(a.p50 / s.p50).toFixed(1)} × the save at p50)`);
  } finally {
    await browser.close();
    await server.close();
  }
}

function summary(samples: number[]) {
  const sorted = [...samples].sort((x, y) => x - y);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return { p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1] };
}
