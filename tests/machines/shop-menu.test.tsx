import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { navigateTo, renderApp, resetBrowser } from '../support/renderApp';
import { installNetworkSwitch } from '../support/networkSwitch';
import { serverProduct, type ServerProduct } from '../support/shopUi';
import { useServerProcess } from '../support/harness';
import { localDayAndMinutes } from '../../domain/schedule';

/**
 * Issue 24 (shop-menu), in the real shop against a real server: a branch closed for online orders
 * says so on its card, on the menu and on the product page (Add to Cart disabled), from the
 * schedule the order check enforces, in Kuwait's time whatever the browser's zone; a product opened
 * offline says so with Retry and loads by itself when the connection returns; the menu's search;
 * the Arabic shop's offline banner, Arabic comma, signed amounts and street numbers.
 */
// A browser far from Kuwait: the branch's times must still read in Kuwait's.
process.env.TZ = 'America/New_York';

let cappuccino: ServerProduct;
let admin: string;
const SCHEDULE = '/api/services/app/BranchOnlineOrderingSchedule';

const server = useServerProcess();
beforeAll(async () => {
  cappuccino = await serverProduct(server, 'Cappuccino');
  // The screens' chunks are transformed once here, not inside the first test's wait (a cold transform takes seconds).
  await Promise.all([
    import('../../src/shop/ShopApp'), import('../../src/shop/menu/MenuPage'), import('../../src/shop/product/ProductDetailPage'),
  ]);
  admin = await server.api.login('admin');
});
afterEach(() => { resetBrowser(); });

async function scheduleBranch1(rows: { dayOfWeek: number; openTime: string; closeTime: string }[]) {
  const old = await server.api.get(`${SCHEDULE}/GetBranchOnlineOrderingSchedule`, { token: admin, query: { branchId: 1 } });
  for (const row of old.body.result.data) await server.api.delete(`${SCHEDULE}/DeleteBranchOnlineOrderingSchedule`, { token: admin, query: { Id: row.id, BranchId: 1 } });
  for (const row of rows) expect((await server.api.post(`${SCHEDULE}/CreateBranchOnlineOrderingcShedule`, { token: admin, body: { branchId: 1, ...row } })).status).toBe(200);
}

const pad = (n: number) => String(n).padStart(2, '0');
const hhmm = (minutes: number) => `${pad(Math.floor(minutes / 60) % 24)}:${pad(minutes % 60)}`;

describe('a branch closed for online orders (issue 24)', () => {
  it("reads 'Closed · opens …' in Kuwait's time on the branch card and the menu, and the product page cannot add", async () => {
    expect(Intl.DateTimeFormat().resolvedOptions().timeZone).toBe('America/New_York');
    const { dayOfWeek, minutes } = localDayAndMinutes(new Date());
    // It opens later today (Kuwait) when there is room before midnight, else tomorrow (then with its weekday).
    const later = minutes + 90 < 23 * 60;
    const opens = later ? hhmm(minutes + 90) : '09:00';
    const day = later ? dayOfWeek : (dayOfWeek + 1) % 7;
    await scheduleBranch1([{ dayOfWeek: day, openTime: opens, closeTime: '23:30' }]);
    try {
      const weekday = later ? '' : `${['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][day]} `;
      const expected = `Closed · opens ${weekday}${opens}`;
      renderApp(server, '/products');
      // The chosen branch's card in the picker and the menu's branch line.
      await waitFor(() => expect(screen.getAllByTestId('branch-hours').map((e) => e.textContent)).toContain(expected));
      const menuLine = document.querySelector('.menu-branch [data-testid="branch-hours"]');
      expect(menuLine?.textContent).toBe(expected);
      // Its opening hours (07:00 – 23:00 in the seed) are not what the shop goes by any more.
      expect(screen.queryByText(/07:00 – 23:00/)).toBeNull();

      navigateTo(`/product-detail/${cappuccino.id}`);
      await screen.findByRole('heading', { name: 'Cappuccino' });
      fireEvent.click(screen.getByLabelText(/^Large/));
      // Issue 25: not a dead end: the closed branch takes the product for later.
      const add = screen.getByRole('button', { name: /Order for later/ }) as HTMLButtonElement;
      expect(screen.getByTestId('product-branch-closed').textContent).toBe(expected);
      expect(add.disabled).toBe(false);
      expect(add.getAttribute('aria-describedby')).toBe('branch-closed');
    } finally {
      await scheduleBranch1([0, 1, 2, 3, 4, 5, 6].map((d) => ({ dayOfWeek: d, openTime: '00:00', closeTime: '23:59' })));
    }
  });

  it('an open branch reads open and adds to the cart', async () => {
    renderApp(server, `/product-detail/${cappuccino.id}`);
    await screen.findByRole('heading', { name: 'Cappuccino' });
    fireEvent.click(screen.getByLabelText(/^Large/));
    await waitFor(() => expect((screen.getByRole('button', { name: /Add to Cart/ }) as HTMLButtonElement).disabled).toBe(false));
    expect(screen.queryByTestId('product-branch-closed')).toBeNull();
  });
});

describe('a product opened offline (issue 24)', () => {
  it("says You're offline with Retry, not 'Product not found', and loads by itself when the connection returns", async () => {
    const network = installNetworkSwitch();
    try {
      network.unplug();
      renderApp(server, `/product-detail/${cappuccino.id}`);
      await screen.findByRole('heading', { name: "You're offline" });
      expect(screen.queryByText('Product not found')).toBeNull();
      // Retry while still offline: still offline, still offering Retry.
      fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
      await screen.findByRole('heading', { name: "You're offline" });
      network.plugIn();
      await screen.findByRole('heading', { name: 'Cappuccino' }, { timeout: 15_000 });
      expect(screen.queryByRole('heading', { name: "You're offline" })).toBeNull();
    } finally {
      network.uninstall();
    }
  });
});

describe('menu search (issue 24)', () => {
  it("finds products by name, says how many, and says so when none matches", async () => {
    renderApp(server, '/products');
    const search = await screen.findByRole('searchbox', { name: 'Search the menu' });
    const names = () => within(screen.getByTestId('product-list')).queryAllByRole('link').map((a) => a.querySelector('strong')?.textContent);
    fireEvent.change(search, { target: { value: 'cappu' } });
    await waitFor(() => expect(names()).toEqual(['Cappuccino']));
    expect(screen.getByRole('status', { name: '' }).textContent).toBe('1 product found');
    fireEvent.change(search, { target: { value: 'zzz' } });
    await waitFor(() => expect(names()).toEqual([]));
    expect(screen.getByText('No product matches “zzz”.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Clear the search' }));
    await waitFor(() => expect(names().length).toBeGreaterThan(1));
    expect(screen.getByRole('navigation', { name: 'Menu categories' })).toBeTruthy();
  });
});
