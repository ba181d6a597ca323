import './shop.css';
import { Suspense, use, useEffect, type ComponentType } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { SHOP_ROUTES, type ShopRoute } from '../routes';
import { useSession } from '../lib/session';
import { useRouteTitle } from '../lib/title';
import { lazyChunk } from '../lib/lazy';
import { Loading } from '../common/Loading';
import { RouteErrorBoundary } from '../common/RouteErrorBoundary';
import { ShopLayout } from './layout/ShopLayout';
import { ShopProvider } from './shopContext';
import { applyToDocument, language, startLanguage, t, translateMessage } from '../i18n';

// The shop's language (and its Arabic chunk) is settled before its first screen, once per page load.
const languageReady = startLanguage();

/** Shop screens by route pattern (src/routes.ts SHOP_ROUTES), each a lazy chunk. */
const MenuPage = lazyChunk(() => import('./menu/MenuPage'));
const CartPage = lazyChunk(() => import('./cart/CartPage'));
const SHOP_PAGES: Record<string, ComponentType> = {
  '/': MenuPage,
  '/products': MenuPage,
  '/profile': lazyChunk(() => import('./profile/ProfilePage')),
  '/branch/BranchDetails': lazyChunk(() => import('./branch/BranchDetailsPage')),
  '/product-detail/:id': lazyChunk(() => import('./product/ProductDetailPage')),
  '/product-review': lazyChunk(() => import('./review/ProductReviewPage')),
  '/cart/:address?': CartPage,
  '/cart-details/:address?': CartPage,
  '/check-out': lazyChunk(() => import('./checkout/CheckoutPage')),
  '/track-order': lazyChunk(() => import('./orders/TrackOrderPage')),
  '/track': lazyChunk(() => import('./orders/TrackPage')),
  '/track/previous': lazyChunk(() => import('./orders/PreviousOrdersPage')),
  '/select-location': lazyChunk(() => import('./address/SelectLocationPage')),
  '/address-details': lazyChunk(() => import('./address/AddressDetailsPage')),
};

export default function ShopApp() {
  use(languageReady);
  const [location] = useLocation();
  useEffect(() => { window.scrollTo(0, 0); }, [location]);
  // The sign-in pages and the console stay English, left to right.
  useEffect(() => { applyToDocument(language()); return () => applyToDocument('en'); }, []);
  return (
    <ShopProvider>
      <ShopLayout>
        <RouteErrorBoundary resetKey={location}>
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
  if (route.customerOnly) {
    if (isRestoring) return <Loading />;
    // Customer-only screens: sign in first; staff belong in the console.
    if (!isAuthenticated || (isGuest && route.path === '/profile')) {
      return <Redirect to={`/login?${new URLSearchParams({ next: window.location.pathname + window.location.search })}`} replace />;
    }
    if (role !== 'CUSTOMER') return <Redirect to="/dashboard" replace />;
  }
  const Page = SHOP_PAGES[route.path];
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
