import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { useSession } from '../lib/session';
import { useTitle } from '../lib/title';
import { AuthCard } from './AuthCard';

export function LoginPage() {
  useTitle('Login');
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
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (login.trim() && password) onSubmit({ userNameOrEmailAddress: login.trim(), password });
  };
  return (
    <AuthCard title="Sign in" subtitle="Customers and staff sign in here.">
      <form onSubmit={submit} className="auth-form" aria-busy={pending}>
        <label>
          User name, e-mail or phone
          <input name="login" autoComplete="username" value={login} onChange={(e) => setLogin(e.target.value)} required autoFocus />
        </label>
        <label>
          Password
          <input name="password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} required />
        </label>
        {error && <p className="auth-error" role="alert">{error}</p>}
        <button type="submit" className="auth-submit" disabled={pending || !login.trim() || !password}>
          {pending ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <nav className="auth-links">
        <Link href="/forgot_password">Forgot password?</Link>
        <Link href="/registration">Create an account</Link>
        <Link href="/">Back to the shop</Link>
      </nav>
    </AuthCard>
  );
}
