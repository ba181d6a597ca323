/**
 * The shop's and the sign-in pages' routes (SPEC.md section 2). The console's are its own route
 * table, src/console/pages.tsx, in the console's chunk; every other address goes to the console,
 * which shows the 404 page for an address it does not know.
 */
export interface ShopRoute { path: string; title: string; customerOnly?: boolean }

export const SHOP_ROUTES: ShopRoute[] = [
  { path: '/', title: 'Menu' },
  { path: '/products', title: 'Menu' },
  { path: '/select-location', title: 'Select Location' },
  { path: '/address-details', title: 'Address Details' },
  { path: '/branch/BranchDetails', title: 'Branch Details' },
  { path: '/product-detail/:id', title: 'Product' },
  { path: '/product-review', title: 'Review Order' },
  { path: '/cart/:address?', title: 'Cart' },
  { path: '/cart-details/:address?', title: 'Cart' },
  { path: '/check-out', title: 'Checkout', customerOnly: true },
  // Not customerOnly: its link (orderId and ohash) opens the order's tracker in any browser, signed in or not (issue 24);
  // without an ohash the page sends the visitor to sign in as the guard would.
  { path: '/track-order', title: 'Order Placed' },
  { path: '/track', title: 'Track Order' },
  { path: '/track/previous', title: 'Previous Orders' },
  { path: '/profile', title: 'Profile', customerOnly: true },
];

export const AUTH_ROUTES = [
  { path: '/login', title: 'Login' },
  { path: '/login_code', title: 'Login' },
  { path: '/forgot_password', title: 'Forgot Password' },
  { path: '/reset_password', title: 'Reset Password' },
  { path: '/registration', title: 'Registration' },
] as const;
