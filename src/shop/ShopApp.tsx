import './shop.css';
import { Suspense, useEffect, type ComponentType } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { SHOP_ROUTES, type ShopRoute } from '../routes';
import { useSession } from '../lib/session';
import { useRouteTitle } from '../lib/title';
import { lazyChunk } from '../lib/lazy';
import { lazyWithApollo } from '../lib/gateway';
import { Loading } from '../common/Loading';
import { RouteErrorBoundary } from '../common/RouteErrorBoundary';
import { ShopLayout } from './layout/ShopLayout';
import { ShopProvider } from './shopContext';
import { OrderingRefresh } from './branch/ordering';
import { languageReady, t, translateMessage, useShopLanguage } from '../i18n';

// The shop's language (and its Arabic chunk) is settled before its first screen, once per page load.
void languageReady();

/**
 * Shop screens by route pattern (src/routes.ts SHOP_ROUTES), each a lazy chunk. The first screens a
 * customer opens (the menu, a product, the checkout) read through the gateway without Apollo; the others are
 * Apollo screens (src/lib/gateway.tsx), loaded with it.
 */
const MenuPage = lazyChunk(() => import('./menu/MenuPage'));
const CartPage = lazyWithApollo(() => import('./cart/CartPage'));
const SHOP_PAGES: Record<string, ComponentType & { preload?(): void }> = {
  '/': MenuPage,
  '/products': MenuPage,
  '/profile': lazyWithApollo(() => import('./profile/ProfilePage')),
  '/branch/BranchDetails': lazyWithApollo(() => import('./branch/BranchDetailsPage')),
  '/product-detail/:id': lazyChunk(() => import('./product/ProductDetailPage')),
  '/product-review': lazyWithApollo(() => import('./review/ProductReviewPage')),
  '/cart/:address?': CartPage,
  '/cart-details/:address?': CartPage,
  // Checkout's first screen (heading, the cart's lines, its choices) draws before Apollo; its reads go as plain POSTs.
  '/check-out': lazyChunk(() => import('./checkout/CheckoutPage')),
  '/track-order': lazyWithApollo(() => import('./orders/TrackOrderPage')),
  '/track': lazyWithApollo(() => import('./orders/TrackPage')),
  '/track/previous': lazyWithApollo(() => import('./orders/PreviousOrdersPage')),
  '/select-location': lazyWithApollo(() => import('./address/SelectLocationPage')),
  '/address-details': lazyWithApollo(() => import('./address/AddressDetailsPage')),
};

export default function ShopApp() {
  useShopLanguage();
  const [location] = useLocation();
  useEffect(() => { window.scrollTo(0, 0); }, [location]);
  return (
    <ShopProvider>
      <OrderingRefresh />
      <ShopLayout>
        <RouteErrorBoundary resetKey={location} translate={translateMessage}>
          <Suspense fallback={<Loading />}>
            <Switch>
              {SHOP_ROUTES.map((r) => <Route key={r.path} path={r.path}><ShopPage route={r} /></Route>)}
            </Switch>
          </Suspense>
        </RouteErrorBoundary>
      </ShopLayout>
    </ShopProvider>
  );
}

function ShopPage({ route }: { route: ShopRoute }) {
  useRouteTitle(translateMessage(route.title));
  const { isAuthenticated, isGuest, isRestoring, role } = useSession();
  const Page = SHOP_PAGES[route.path];
  if (route.customerOnly) {
    // The page's code comes down while the stored session is checked, not after.
    if (isRestoring) { Page?.preload?.(); return <Loading />; }
    // Customer-only screens: sign in first; staff belong in the console.
    if (!isAuthenticated || (isGuest && route.path === '/profile')) {
      return <Redirect to={`/login?${new URLSearchParams({ next: window.location.pathname + window.location.search })}`} replace />;
    }
    if (role !== 'CUSTOMER') return <Redirect to="/dashboard" replace />;
  }
  return Page ? <Page /> : <ComingSoon title={route.title} />;
}

function ComingSoon({ title }: { title: string }) {
  return (
    <section className="shop-section">
      <h1>{translateMessage(title)}</h1>
      <p className="shop-muted">{t('layout.notAvailable')}</p>
    </section>
  );
}
