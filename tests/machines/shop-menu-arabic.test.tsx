import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { navigateTo, renderApp, resetBrowser } from '../support/renderApp';
import { installNetworkSwitch } from '../support/networkSwitch';
import { serverProduct, type ServerProduct } from '../support/shopUi';
import { useServerProcess } from '../support/harness';

/**
 * Issue 24's Arabic polish, in the real shop against a real server (its own file: the shop's
 * language is settled once per page load): the menu search reads Arabic names, the offline banner
 * speaks Arabic, an option's price keeps its sign beside the number, options are joined with the
 * Arabic comma, and a saved address reads its street number as 'شارع 12' and its area in Arabic.
 */
let cappuccino: ServerProduct;

beforeAll(async () => {
  // Arabic from this file's first page load (the shop settles its language once, when it is imported).
  localStorage.setItem('language', 'ar');
});
const server = useServerProcess();
beforeAll(async () => {
  cappuccino = await serverProduct(server, 'Cappuccino');
  // The screens' chunks are transformed once here, not inside the first test's wait (a cold transform takes seconds).
  await Promise.all([
    import('../../src/shop/ShopApp'), import('../../src/shop/menu/MenuPage'), import('../../src/shop/product/ProductDetailPage'),
    import('../../src/shop/cart/CartPage'), import('../../src/shop/profile/ProfilePage'), import('../../src/i18n/ar'),
  ]);
});
afterEach(() => { resetBrowser(); });

describe('the Arabic shop (issue 24)', () => {
  const arabic = (path: string) => {
    localStorage.setItem('language', 'ar');
    return renderApp(server, path);
  };

  it('searches Arabic names as typed on a phone (without hamza or short vowels)', async () => {
    arabic('/products');
    const search = await screen.findByRole('searchbox', { name: 'ابحث في القائمة' });
    fireEvent.change(search, { target: { value: 'كابتشينو' } });
    await waitFor(() => expect(within(screen.getByTestId('product-list')).queryAllByRole('link').map((a) => a.querySelector('strong')?.textContent)).toEqual(['كابتشينو']));
  });

  it("shows an option's price with its sign beside the number, and joins options with the Arabic comma", async () => {
    arabic('/products');
    await screen.findByRole('searchbox', { name: 'ابحث في القائمة' });
    navigateTo(`/product-detail/${cappuccino.id}`);
    await screen.findByRole('heading', { name: 'كابتشينو' });
    const large = screen.getByLabelText(/^كبير/).closest('label')!;
    const price = large.querySelector('.option__price')!;
    expect(price.textContent).toBe('+0.500 د.ك');
    // The sign and the number are isolated left to right: right-to-left text cannot move the sign.
    expect(price.querySelector('bdi[dir="ltr"]')?.textContent).toBe('+0.500');

    fireEvent.click(screen.getByLabelText(/^كبير/));
    fireEvent.click(screen.getByLabelText(/^حليب الشوفان/));
    const add = screen.getByRole('button', { name: /أضف إلى السلة/ });
    await waitFor(() => expect((add as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(add);
    await waitFor(() => expect(window.location.pathname).toBe('/products'));
    navigateTo('/cart');
    const options = await waitFor(() => {
      const found = document.querySelector<HTMLElement>('.cart-line__options');
      if (!found) throw new Error('no cart line');
      return found;
    });
    expect(options.textContent).toBe('كبير، حليب الشوفان');
  });

  it("reads a saved address's street number as 'شارع 12' and its area in Arabic", async () => {
    const auth = await server.api.post('/api/TokenAuth/Authenticate', { body: { userNameOrEmailAddress: 'customer', password: '123qwe' } });
    const { accessToken: token, userId } = auth.body.result as { accessToken: string; userId: number };
    const areas = await server.api.get('/api/services/app/Country/GetDeliveryAreasTreeByBrandIdForShop', { query: { brandId: 7 } });
    const region = areas.body.result.find((r: any) => r.children?.some((c: any) => c?.name === 'Bayan'));
    const bayan = region.children.find((c: any) => c.name === 'Bayan');
    const added = await server.api.post('/api/services/app/CustomerDeliveryAddress/AddCustomerDeliveryAddress', {
      token, body: { userId, regionId: region.id, region: region.name, areaId: bayan.id, area: bayan.name, block: '3', street: '12', house_no: '7' },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    localStorage.setItem('token', token);
    localStorage.setItem('userId', String(userId));
    localStorage.setItem('role', 'CUSTOMER');
    arabic('/profile');
    const list = await screen.findByRole('list', { name: /العناوين/ });
    await waitFor(() => expect(within(list).getAllByRole('listitem').length).toBeGreaterThan(0));
    const item = within(list).getAllByRole('listitem').find((li) => li.textContent?.includes('شارع 12'));
    expect(item, list.textContent ?? '').toBeDefined();
    expect(item!.querySelector('strong')?.textContent).toMatch(/^بيان، /);
  });
  it("says it is offline in Arabic, its full stop at the sentence's end", async () => {
    const network = installNetworkSwitch();
    try {
      arabic('/products');
      await screen.findByRole('searchbox', { name: 'ابحث في القائمة' });
      network.unplug();
      const banner = await waitFor(() => {
        const found = document.querySelector<HTMLElement>('.offline-banner');
        if (!found) throw new Error('no offline banner');
        return found;
      });
      expect(banner.textContent).toBe('أنت غير متصل بالإنترنت.');
      expect(banner.getAttribute('dir')).toBe('rtl');
    } finally {
      network.plugIn();
      network.uninstall();
    }
  });
});
