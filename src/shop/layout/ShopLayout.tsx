import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'wouter';
import { PRODUCT_NAME } from '../../../domain/constants';
import { useSession } from '../../lib/session';
import { onNotice, type Notice } from '../../lib/notify';
import { useCart } from '../shopContext';

export function ShopLayout({ children }: { children: ReactNode }) {
  const { isAuthenticated, isGuest, profile, send } = useSession();
  const signedIn = isAuthenticated && !isGuest;
  const cart = useCart();
  return (
    <div className="shop">
      <header className="shop-header">
        <Link href="/" className="shop-logo">{PRODUCT_NAME}</Link>
        <nav className="shop-nav">
          <Link href="/cart" className="shop-nav__cart" aria-label={`Cart, ${cart.count} ${cart.count === 1 ? 'item' : 'items'}`}>
            Cart{cart.count > 0 && <span className="shop-nav__badge" data-testid="cart-count">{cart.count}</span>}
          </Link>
          <Link href="/track">Orders</Link>
          {signedIn ? (
            <>
              <Link href="/profile">{profile?.fullName?.split(' ')[0] ?? 'Profile'}</Link>
              <button className="shop-link-button" onClick={() => send({ type: 'auth.logout' })}>Logout</button>
            </>
          ) : (
            <Link href="/login">Sign in</Link>
          )}
        </nav>
      </header>
      <main className="shop-main">{children}</main>
      <Toasts />
    </div>
  );
}

/** The shop's rendering of notifications: a small stack at the top. */
function Toasts() {
  const [notices, setNotices] = useState<Notice[]>([]);
  useEffect(() => onNotice((n) => {
    setNotices((list) => [...list, n]);
    // Confirmations go quickly; errors stay long enough to read.
    setTimeout(() => setNotices((list) => list.filter((x) => x.id !== n.id)), n.intent === 'success' ? 2500 : 5000);
  }), []);
  return (
    <div className="shop-toasts" aria-live="assertive">
      {notices.map((n) => (
        <div key={n.id} className={`shop-toast shop-toast--${n.intent}`} role="alert" onClick={() => setNotices((list) => list.filter((x) => x.id !== n.id))}>
          <strong>{n.title}</strong>
          <span>{n.message}</span>
        </div>
      ))}
    </div>
  );
}
