import '@blueprintjs/core/lib/css/blueprint.css';
import './console.css';
import { Suspense } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { NonIdealState, Spinner } from '@blueprintjs/core';
import { LockIcon } from '@blueprintjs/icons';
import { can, isReviewer, refusedRedirect, type ConsoleRoute } from '../../domain/permissions';
import { TEXT } from '../../domain/constants';
import { useSession } from '../lib/session';
import { useTitle } from '../lib/title';
import { ConsoleShell } from './shell/ConsoleShell';
import { CONSOLE_PAGES, NotYetAvailable } from './pages';
import { CONSOLE_ROUTES } from '../routes';
import { usePreloadOrderPage } from './orders/preload';

/**
 * The staff console. Authentication guard: signed-out users go to /login, customers to /profile,
 * reviewers see the permission text. Route guard: the permission table decides each route.
 */
export default function ConsoleApp() {
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
              <GuardedPage route={r} role={role} />
            </Route>
          ))}
        </Switch>
      </Suspense>
    </ConsoleShell>
  );
}

function GuardedPage({ route, role }: { route: ConsoleRoute; role: string | null }) {
  useTitle(route.title);
  if (!can(role, route.access)) return <Redirect to={refusedRedirect(role)} replace />;
  const Page = CONSOLE_PAGES[route.path];
  return Page ? <Page /> : <NotYetAvailable title={route.title} />;
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
