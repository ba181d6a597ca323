import { assign, setup } from 'xstate';
import { QUANTITY } from '../domain/constants';
import { toFils, fromFils } from '../domain/money';

/**
 * The shop's cart (SPEC.md 3 "Cart item", 4 "Cart", 5 "Quantity" and "Options").
 *
 *   empty ──cart.add──▶ filled ──(last item removed, cart.clear)──▶ empty
 *
 * Items are keyed by a random key. The same product with the same selected options is one item:
 * adding it again adds the quantity, capped at the cart's maximum. Quantities stay within
 * QUANTITY.cart (1..69). The cart is cleared on a branch change (`cart.clear`, sent by the branch
 * change flow) and after an order.
 *
 * Port, bound by whoever runs the machine: action `persist` receives the items after every change
 * (the app stores them under KEYS.cart, in the shape of SPEC.md 3).
 */

export interface CartProduct {
  id: number;
  name: string;
  /** The product's own unit price, without options. */
  price: number;
  Quantity: number;
  productImage: string | null;
  productDeliveryText: string;
}
export interface CartOption { id: number; name: string; price: number }
export interface CartItem { key: string; product: CartProduct; selected_options: CartOption[] }

export interface CartContext { items: CartItem[] }

export type CartEvent =
  | { type: 'cart.add'; product: Omit<CartProduct, 'Quantity'>; selected_options: CartOption[]; quantity: number }
  | { type: 'cart.increment'; key: string }
  | { type: 'cart.decrement'; key: string }
  | { type: 'cart.setQuantity'; key: string; quantity: number }
  | { type: 'cart.remove'; key: string }
  | { type: 'cart.clear' }
  /** Today's prices from the server (checkout): each item takes its product's price and its options' prices. */
  | { type: 'cart.reprice'; prices: CartPrice[] };

/** A product's price and its options' prices as the server answers them (Products/GetProductsPricesForCustomer). */
export interface CartPrice { productId: number; name: string; price: number; options: { id: number; name: string; price: number }[] }

export interface CartInput { items?: CartItem[] }

const clampQuantity = (q: number) => Math.min(QUANTITY.cart.max, Math.max(QUANTITY.cart.min, Math.round(q) || QUANTITY.cart.min));
const optionSignature = (options: CartOption[]) => options.map((o) => o.id).sort((a, b) => a - b).join(',');
const withQuantity = (items: CartItem[], key: string, next: (q: number) => number) =>
  items.map((i) => (i.key === key ? { ...i, product: { ...i.product, Quantity: clampQuantity(next(i.product.Quantity)) } } : i));

export function randomCartKey(): string {
  const bytes = new Uint8Array(12);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export const cartMachine = setup({
  types: {
    context: {} as CartContext,
    events: {} as CartEvent,
    input: {} as CartInput,
  },
  actions: {
    persist: (_, _params: { items: CartItem[] }) => {},
    addItem: assign(({ context, event }) => {
      if (event.type !== 'cart.add') return {};
      const signature = optionSignature(event.selected_options);
      const same = context.items.find((i) => i.product.id === event.product.id && optionSignature(i.selected_options) === signature);
      if (same) return { items: withQuantity(context.items, same.key, (q) => q + event.quantity) };
      const item: CartItem = {
        key: randomCartKey(),
        product: { ...event.product, Quantity: clampQuantity(event.quantity) },
        selected_options: event.selected_options.map(({ id, name, price }) => ({ id, name, price })),
      };
      return { items: [...context.items, item] };
    }),
    changeQuantity: assign(({ context, event }) => {
      switch (event.type) {
        case 'cart.increment': return { items: withQuantity(context.items, event.key, (q) => q + 1) };
        case 'cart.decrement': return { items: withQuantity(context.items, event.key, (q) => q - 1) };
        case 'cart.setQuantity': return { items: withQuantity(context.items, event.key, () => event.quantity) };
        default: return {};
      }
    }),
    removeItem: assign(({ context, event }) => (event.type === 'cart.remove' ? { items: context.items.filter((i) => i.key !== event.key) } : {})),
    clearItems: assign({ items: () => [] }),
    repriceItems: assign(({ context, event }) => {
      if (event.type !== 'cart.reprice') return {};
      return { items: context.items.map((item) => repriced(item, event.prices.find((p) => p.productId === item.product.id))) };
    }),
  },
  guards: {
    isCartEmpty: ({ context }) => context.items.length === 0,
  },
}).createMachine({
  id: 'cart',
  context: ({ input }) => ({ items: (input.items ?? []).filter(isCartItem) }),
  initial: 'checking',
  states: {
    checking: { always: [{ guard: 'isCartEmpty', target: 'empty' }, { target: 'filled' }] },
    empty: {
      on: {
        'cart.add': { target: 'filled', actions: ['addItem', { type: 'persist', params: ({ context }) => ({ items: context.items }) }] },
        // Clearing an empty cart still writes it: storage may hold items another tab left there.
        'cart.clear': { actions: ['clearItems', { type: 'persist', params: ({ context }) => ({ items: context.items }) }] },
      },
    },
    filled: {
      always: { guard: 'isCartEmpty', target: 'empty' },
      on: {
        'cart.add': { actions: ['addItem', { type: 'persist', params: ({ context }) => ({ items: context.items }) }] },
        'cart.increment': { actions: ['changeQuantity', { type: 'persist', params: ({ context }) => ({ items: context.items }) }] },
        'cart.decrement': { actions: ['changeQuantity', { type: 'persist', params: ({ context }) => ({ items: context.items }) }] },
        'cart.setQuantity': { actions: ['changeQuantity', { type: 'persist', params: ({ context }) => ({ items: context.items }) }] },
        'cart.remove': { actions: ['removeItem', { type: 'persist', params: ({ context }) => ({ items: context.items }) }] },
        'cart.clear': { actions: ['clearItems', { type: 'persist', params: ({ context }) => ({ items: context.items }) }] },
        'cart.reprice': { actions: ['repriceItems', { type: 'persist', params: ({ context }) => ({ items: context.items }) }] },
      },
    },
  },
});

/** An item at today's prices; an item whose product or option the server no longer knows is left as it is (the order check names it). */
function repriced(item: CartItem, price: CartPrice | undefined): CartItem {
  if (!price) return item;
  return {
    ...item,
    product: { ...item.product, name: price.name, price: price.price },
    selected_options: item.selected_options.map((o) => {
      const now = price.options.find((x) => x.id === o.id);
      return now ? { ...o, name: now.name, price: now.price } : o;
    }),
  };
}

/** What changed between the cart's prices and today's: the lines the customer is told about. */
export function priceChanges(items: CartItem[], prices: CartPrice[]): { name: string; was: number; now: number }[] {
  return items.flatMap((item) => {
    const next = repriced(item, prices.find((p) => p.productId === item.product.id));
    const was = itemUnitFils(item), now = itemUnitFils(next);
    return was === now ? [] : [{ name: item.product.name, was: fromFils(was), now: fromFils(now) }];
  });
}
const itemUnitFils = (i: CartItem) => toFils(i.product.price) + i.selected_options.reduce((sum, o) => sum + toFils(o.price), 0);

/** Items read back from storage are checked: a malformed entry is dropped, not trusted. */
function isCartItem(x: unknown): x is CartItem {
  const i = x as CartItem;
  return !!i && typeof i.key === 'string' && !!i.product && Number.isInteger(i.product.id) && typeof i.product.price === 'number'
    && Number.isInteger(i.product.Quantity) && Array.isArray(i.selected_options);
}

type CartSnapshot = { context: CartContext; matches(v: 'empty' | 'filled'): boolean };

/** Selectors: views read these, never state paths. */
export const selectCartItems = (s: CartSnapshot) => s.context.items;
export const selectIsCartEmpty = (s: CartSnapshot) => s.context.items.length === 0;
export const selectCartCount = (s: CartSnapshot) => s.context.items.reduce((n, i) => n + i.product.Quantity, 0);
/** One item's price: (product + options) × quantity, in fils so sums never drift. */
export const itemTotalFils = (i: CartItem) =>
  (toFils(i.product.price) + i.selected_options.reduce((sum, o) => sum + toFils(o.price), 0)) * i.product.Quantity;
export const selectCartTotal = (s: CartSnapshot) => fromFils(s.context.items.reduce((sum, i) => sum + itemTotalFils(i), 0));
