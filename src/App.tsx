import { Suspense } from 'react';
import { Route, Switch, useLocation } from 'wouter';
import { lazyChunk } from './lib/lazy';
import { lazyWithApollo, useApolloAfterFirstScreen } from './lib/gateway';
import { AUTH_ROUTES, SHOP_ROUTES } from './routes';
import { Loading } from './common/Loading';
import { OfflineBanner } from './common/OfflineBanner';
import { RouteErrorBoundary } from './common/RouteErrorBoundary';

// Separate chunks: a customer never downloads Blueprint or the console. The shop's first screen
// comes without Apollo (src/lib/gateway.tsx); the console and the sign-in pages use it throughout.
const ShopApp = lazyChunk(() => import('./shop/ShopApp'));
const ConsoleApp = lazyWithApollo(() => import('./console/ConsoleApp'));
const AuthApp = lazyWithApollo(() => import('./auth/AuthApp'));

export function App() {
  const [location] = useLocation();
  useApolloAfterFirstScreen();
  return (
    <>
      <OfflineBanner />
      <RouteErrorBoundary resetKey={location}>
      <Suspense fallback={<Loading />}>
        <Switch>
          {AUTH_ROUTES.map((r) => <Route key="auth" path={r.path}><AuthApp /></Route>)}
          {SHOP_ROUTES.map((r) => <Route key="shop" path={r.path}><ShopApp /></Route>)}
          {/* The console's routes and the 404 page: its route table (src/console/pages.tsx) tells them apart. */}
          <Route><ConsoleApp /></Route>
        </Switch>
      </Suspense>
      </RouteErrorBoundary>
    </>
  );
}
