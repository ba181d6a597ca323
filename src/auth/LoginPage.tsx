import { useState, type FormEvent } from 'react';
import { Link, useSearch } from 'wouter';
import { useSession } from '../lib/session';
import { useTitle } from '../lib/title';
import { AuthCard } from './AuthCard';
import { TEXT } from '../../domain/constants';
import { t, translateMessage, useShopLanguage } from '../i18n';
import '../i18n/screens';

/** The shared door of customers and staff: in the shop's language (staff's console stays English). */
export function LoginPage() {
  useShopLanguage();
  useTitle(translateMessage('Login'));
  const { send, isPending, error } = useSession();
  return <LoginView pending={isPending} error={error} onSubmit={(credentials) => send({ type: 'auth.login', credentials })} />;
}

/** Presentational: the shared login form for customers and staff. */
export function LoginView({ pending, error, onSubmit }: {
  pending: boolean;
  error: string | null;
  onSubmit: (c: { userNameOrEmailAddress: string; password: string }) => void;
}) {
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  // The session keeps its last refusal: one from a try before this visit of the page (before a
  // password reset) is not shown again beside 'Password changed'; an expired session still is.
  const [tried, setTried] = useState(false);
  const [stale] = useState(() => (error !== TEXT.authFailed ? error : null));
  const search = useSearch();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (login.trim() && password) { setTried(true); onSubmit({ userNameOrEmailAddress: login.trim(), password }); }
  };
  return (
    <AuthCard title={t('signIn.title')} subtitle={t('signIn.subtitle')}>
      <form onSubmit={submit} className="auth-form" aria-busy={pending}>
        <label>
          {t('signIn.login')}
          <input name="login" autoComplete="username" value={login} onChange={(e) => setLogin(e.target.value)} required autoFocus />
        </label>
        <label>
          {t('signIn.password')}
          <input name="password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} required />
        </label>
        {error && (tried || error !== stale) && <p className="auth-error" role="alert">{translateMessage(error)}</p>}
        <button type="submit" className="auth-submit" disabled={pending || !login.trim() || !password}>
          {pending ? t('signIn.signingIn') : t('signIn.submit')}
        </button>
      </form>
      {/* No password: a one-time code by SMS, as Kuwaiti apps sign customers in; `?next=` goes along. */}
      <Link href={`/login_code${search ? `?${search}` : ''}`} className="auth-alt">{t('signIn.withCode')}</Link>
      <nav className="auth-links">
        <Link href="/forgot_password">{t('signIn.forgot')}</Link>
        <Link href="/registration">{t('signIn.create')}</Link>
        <Link href="/">{t('signIn.backToShop')}</Link>
      </nav>
    </AuthCard>
  );
}
