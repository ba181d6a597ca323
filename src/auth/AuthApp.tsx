import { useEffect } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { useSession } from '../lib/session';
import { homeFor } from '../../domain/permissions';
import { LoginPage } from './LoginPage';
import { CodeSignInPage } from './CodeSignIn';
import { ForgotPasswordPage, ResetPasswordPage } from './PasswordReset';
import { lazyChunk } from '../lib/lazy';
import { Loading } from '../common/Loading';
import { RouteErrorBoundary } from '../common/RouteErrorBoundary';
import { Toasts } from '../common/Toasts';
import { translateMessage } from '../i18n';
import './auth.css';

// Registration is the shop's three-step flow; it lives with the shop.
const RegistrationPage = lazyChunk(() => import('../shop/registration/RegistrationPage'));


/** A shop page to return to after signing in (`/login?next=/check-out`); only paths on this site. */
export function nextPath(search: string): string | null {
  const next = new URLSearchParams(search).get('next');
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : null;
}

/** Login, forgot password, reset password and registration: a signed-in user (not the guest) is sent home. */
export default function AuthApp() {
  const { isAuthenticated, isGuest, role, isRestoring } = useSession();
  const [location] = useLocation();
  useEffect(() => { window.scrollTo(0, 0); }, [location]);
  if (isRestoring) return <Loading />;
  if (isAuthenticated && !isGuest) return <Redirect to={(role === 'CUSTOMER' && nextPath(window.location.search)) || homeFor(role)} replace />;
  return (
    <>
    <RouteErrorBoundary resetKey={location} translate={translateMessage}>
    <Switch>
      <Route path="/login"><LoginPage /></Route>
      <Route path="/login_code"><CodeSignInPage /></Route>
      <Route path="/forgot_password"><ForgotPasswordPage /></Route>
      <Route path="/reset_password"><ResetPasswordPage /></Route>
      <Route path="/registration"><RegistrationPage /></Route>
    </Switch>
    </RouteErrorBoundary>
    <Toasts translate={translateMessage} />
    </>
  );
}
