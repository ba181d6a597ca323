import '@blueprintjs/core/lib/css/blueprint.css';
import './console.css';
import { Suspense } from 'react';
import { Redirect, Route, Switch, matchRoute, useLocation, useRouter } from 'wouter';
import { NonIdealState, Spinner } from '@blueprintjs/core';
import { LockIcon } from '@blueprintjs/icons';
import { can, isReviewer } from '../../domain/permissions';
import { TEXT } from '../../domain/constants';
import { useSession } from '../lib/session';
import { useTitle } from '../lib/title';
import { NotFound } from '../common/NotFound';
import { ConsoleShell } from './shell/ConsoleShell';
import { CurrentRouteContext } from './shell/currentRoute';
import { PlaceGate, Refused } from './shell/guard';
import { CONSOLE_ROUTES, NotYetAvailable, type ConsoleRoute } from './pages';
import { usePreloadOrderPage } from './orders/preload';

/**
 * The staff console, on every address the shop and the sign-in pages do not take (src/App.tsx):
 * an address outside the console route table (./pages.tsx) is the 404 page. Authentication guard:
 * signed-out users go to /login, customers to /profile, reviewers see the permission text. Route
 * guard: the permission table decides each route.
 */
export default function ConsoleApp() {
  const [location] = useLocation();
  const { parser } = useRouter();
  const inConsole = (path: string) => CONSOLE_ROUTES.some((r) => matchRoute(parser, r.path, path)[0]);
  if (!inConsole(location)) return <NotFound />;
  return <Console inConsole={inConsole} />;
}

function Console({ inConsole }: { inConsole: (path: string) => boolean }) {
  const { isAuthenticated, isRestoring, role } = useSession();
  // An order screen's first page starts now, beside the user lookup and the screen's own chunk.
  usePreloadOrderPage();
  if (isRestoring) return <div className="console-loading"><Spinner /></div>;
  if (!isAuthenticated) return <Redirect to="/login" replace />;
  if (role === 'CUSTOMER') return <Redirect to="/profile" replace />;
  if (isReviewer(role)) return <ReviewerNotice />;
  return (
    <ConsoleShell>
      <Suspense fallback={<div className="console-loading"><Spinner /></div>}>
        <Switch>
          {CONSOLE_ROUTES.map((r) => (
            <Route key={r.path} path={r.path}>
              <GuardedPage route={r} role={role} inConsole={inConsole} />
            </Route>
          ))}
        </Switch>
      </Suspense>
    </ConsoleShell>
  );
}

function GuardedPage({ route, role, inConsole }: { route: ConsoleRoute; role: string | null; inConsole: (path: string) => boolean }) {
  useTitle(route.title);
  if (!can(role, route.access)) return <Refused route={route} role={role} inConsole={inConsole} />;
  const Page = route.page;
  return (
    <CurrentRouteContext.Provider value={route}>
      <PlaceGate route={route} role={role}>
        {Page ? <Page /> : <NotYetAvailable title={route.title} />}
      </PlaceGate>
    </CurrentRouteContext.Provider>
  );
}

function ReviewerNotice() {
  useTitle('Dashboard');
  const { send } = useSession();
  return (
    <div className="console-reviewer">
      <NonIdealState
        icon={<LockIcon size={48} />}
        title={TEXT.reviewerDenied}
        action={<button className="bp6-button" onClick={() => send({ type: 'auth.logout' })}>Log out</button>}
      />
    </div>
  );
}
