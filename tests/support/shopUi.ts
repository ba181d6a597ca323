import { expect } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { navigateTo } from './renderApp';
import type { ServerProcess } from './serverProcess';

/** What the real server says about a product: its price and options, for the price a screen must show. */
export interface ServerProduct {
  id: number;
  name: string;
  price: number;
  productImage: string | null;
  productDeliveryText: string;
  option(group: string, name: string): { id: number; name: string; price: number };
}

export async function serverProduct(server: ServerProcess, name: string, brandId = 7, branchId = 1): Promise<ServerProduct> {
  const menu = await server.api.get('/api/services/app/Products/GetProductsGroupedByTypeAndSubtypeAsCustomerForMangoes', { query: { brandId, branchId } });
  const listed = menu.body.result.flatMap((t: any) => t.subtypes.flatMap((s: any) => s.products)).find((p: any) => p.name === name);
  if (!listed) throw new Error(`no product ${name} at branch ${branchId}`);
  const res = await server.api.get('/api/services/app/ProductTypesAndSubtypes/GetProductItemWithSubItemDictionarywithProduct', { query: { productid: listed.id, branchId } });
  const d = res.body.result;
  return {
    id: d.id, name: d.name, price: d.price, productImage: d.productImage, productDeliveryText: d.productDeliveryText,
    option(group, option) {
      const o = d.optionGroups.find((g: any) => g.name === group)?.subItem.find((x: any) => x.name === option);
      if (!o) throw new Error(`no option ${group}/${option} of ${name}`);
      return { id: o.id, name: o.name, price: o.price };
    },
  };
}

/** (price + options) × quantity in KD, as the server computes it (integer fils). */
export const lineTotal = (p: ServerProduct, options: { price: number }[], quantity: number) =>
  ((Math.round(p.price * 1000) + options.reduce((s, o) => s + Math.round(o.price * 1000), 0)) * quantity) / 1000;

export const kd = (amount: number) => `${amount.toFixed(3)} KD`;
export const path = () => window.location.pathname;

/** On the product page: choose the options, set the quantity (from the page's minimum, 2) and add. */
export async function addToCart(product: ServerProduct, options: string[], quantity = 2) {
  if (path() !== `/product-detail/${product.id}`) navigateTo(`/product-detail/${product.id}`);
  await screen.findByRole('heading', { name: product.name });
  for (const o of options) fireEvent.click(screen.getByLabelText(new RegExp(`^${o}(\\+|$)`)));
  const stepper = screen.getByRole('group', { name: `Quantity of ${product.name}` });
  for (let q = 2; q < quantity; q++) fireEvent.click(within(stepper).getByRole('button', { name: 'Increase quantity' }));
  const add = screen.getByRole('button', { name: /Add to Cart/ });
  expect((add as HTMLButtonElement).disabled).toBe(false);
  fireEvent.click(add);
  await waitFor(() => expect(path()).toBe('/products'));
}

/** The cart page's lines as the customer reads them. */
export async function cartLines() {
  if (path() !== '/cart') navigateTo('/cart');
  await screen.findByRole('heading', { name: 'Your cart' });
  return screen.queryAllByTestId('cart-line').map((line) => ({
    name: line.querySelector('.cart-line__name')!.textContent,
    options: line.querySelector('.cart-line__options')?.textContent ?? '',
    quantity: Number(within(line).getByLabelText('Quantity').textContent),
    total: within(line).getByTestId('cart-line-total').textContent,
  }));
}

/** The cart as stored in the browser (SPEC.md 3's shape). */
export const storedCart = () => JSON.parse(localStorage.getItem('cartItems') ?? '[]') as {
  key: string;
  product: { id: number; name: string; price: number; Quantity: number; productImage: string | null; productDeliveryText: string };
  selected_options: { id: number; name: string; price: number }[];
}[];

/** A cart written straight into storage, as the shop would have stored it. */
export function seedCart(items: { product: ServerProduct; options: string[]; quantity: number; group?: Record<string, string> }[]) {
  localStorage.setItem('cartItems', JSON.stringify(items.map((i, n) => ({
    key: `seed${n}`,
    product: { id: i.product.id, name: i.product.name, price: i.product.price, Quantity: i.quantity, productImage: i.product.productImage, productDeliveryText: i.product.productDeliveryText },
    selected_options: i.options.map((o) => {
      const [group, name] = o.split('/');
      return i.product.option(group, name);
    }),
  }))));
}

/** Orders whose guest name (or number) matches, as staff see them. */
export async function ordersMatching(server: ServerProcess, adminToken: string, search: string) {
  const res = await server.api.get('/api/services/app/Store/GetUserOrdersAsBranchUser', { token: adminToken, query: { Search: search, MaxResultCount: 50 } });
  expect(res.status, JSON.stringify(res.body.error)).toBe(200);
  return res.body.result as { totalCount: number; data: { id: number; total: number; payment: string; paymentSystemId?: number; status: string }[] };
}
