/** The shop's and console's local browser values (SPEC.md section 3), under one set of keys. */
export const KEYS = {
  token: 'token',
  userId: 'userId',
  role: 'role',
  branchId: 'branchId',
  brandId: 'brandId',
  managerBrandId: 'managerBrandId',
  currency: 'currency',
  cart: 'cartItems',
  latestAddress: 'latestAddress',
  addressId: 'addressId',
  product: 'product',
  /** The shop's own copy of the brand and branch choice: login writes branch id 1 to `branchId` (SPEC.md 4). */
  shopSelection: 'shopSelection',
  /** The review screen's special remarks and promotion code, sent with the order. */
  orderNotes: 'orderNotes',
  /** The last order placed in this browser ({ orderId, ohash }), so a guest can track it. */
  lastOrder: 'lastOrder',
  /** The checkout's series of Place order attempts (machines/checkout.ts CheckoutSeries), kept until the cart is cleared. */
  checkoutSeries: 'checkoutSeries',
  /** The shop's language chosen with its switch ('en' | 'ar'); unset, the browser's language decides. */
  language: 'language',
  /** The order's time chosen in the shop (machines/orderWhen.ts OrderWhen): the menu, the cart and the checkout read the menu at it (src/shop/chosenWhen.ts). */
  orderWhen: 'orderWhen',
} as const;

type Key = (typeof KEYS)[keyof typeof KEYS];

export const storage = {
  get(key: Key): string | null {
    try { return localStorage.getItem(key); } catch { return null; }
  },
  set(key: Key, value: string | number | null | undefined) {
    try {
      if (value === null || value === undefined) localStorage.removeItem(key);
      else localStorage.setItem(key, String(value));
    } catch { /* storage full or blocked: the session still works in memory */ }
  },
  getJson<T>(key: Key, fallback: T): T {
    const raw = storage.get(key);
    if (!raw) return fallback;
    try { return JSON.parse(raw) as T; } catch { return fallback; }
  },
  setJson(key: Key, value: unknown) { storage.set(key, JSON.stringify(value)); },
  remove(...keys: Key[]) { keys.forEach((k) => storage.set(k, null)); },
};
