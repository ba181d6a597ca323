import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { PRODUCT_NAME } from '../../../domain/constants';
import { useSession } from '../../lib/session';
import { Toasts } from '../../common/Toasts';
import { useSelector } from '@xstate/react';
import { selectBrands } from '../../../machines/branchChange';
import { useBranchChange, useCart, useShop } from '../shopContext';
import { BusyBanner } from '../branch/BusyBanner';
import { language, switchLanguage, t, translateMessage } from '../../i18n';
import { lazyAfterApollo } from '../../lib/gateway';
import { AccountMenu } from './AccountMenu';
import { BellIcon } from './BellIcon';

// Only a signed-in customer has an inbox; it is an Apollo screen, shown once Apollo is loaded after the first
// screen (src/lib/gateway.tsx): a bell of the same size stands in, so the header does not move.
const NotificationBell = lazyAfterApollo(() => import('./NotificationBell').then((m) => ({ default: m.NotificationBell })), (
  <span className="bell-placeholder" aria-hidden="true"><BellIcon /></span>
));

export function ShopLayout({ children }: { children: ReactNode }) {
  const { isAuthenticated, isGuest, profile, role, send } = useSession();
  const signedIn = isAuthenticated && !isGuest;
  const cart = useCart();
  // The header names the brand the customer is ordering from, once the brands are known.
  const shop = useShop();
  const brand = useSelector(useBranchChange(), selectBrands).find((b) => b.id === shop.brandId);
  return (
    <div className="shop">
      <header className="shop-header">
        <Link href="/" className="shop-logo">{brand?.name ?? PRODUCT_NAME}</Link>
        <nav className="shop-nav">
          {/* The name starts with the visible text ('Cart 2'), as WCAG 2.5.3 asks. */}
          <Link href="/cart" className="shop-nav__cart" aria-label={t('layout.cartLabel', { count: cart.count })}>
            {t('layout.cart')}{cart.count > 0 && <>{' '}<span className="shop-nav__badge" data-testid="cart-count">{cart.count}</span></>}
          </Link>
          <Link href="/track">{t('layout.orders')}</Link>
          {/* A signed-in customer's inbox: staff and the shared guest account have none. */}
          {signedIn && role === 'CUSTOMER' && <NotificationBell />}
          {/* Signed in, the profile, the language and Logout are one menu: four items fit a 390 px phone in both languages. */}
          {signedIn ? (
            <AccountMenu firstName={profile?.fullName?.split(' ')[0] || null} onLogout={() => send({ type: 'auth.logout' })} />
          ) : (
            <>
              <Link href="/login">{t('layout.signIn')}</Link>
              {/* Named in the language it switches to, marked so screen readers pronounce it in that language. */}
              <button type="button" className="shop-link-button shop-lang" lang={language() === 'ar' ? 'en' : 'ar'} data-testid="language-switch"
                onClick={() => switchLanguage(language() === 'ar' ? 'en' : 'ar')}>
                {t('layout.otherLanguage')}
              </button>
            </>
          )}
        </nav>
      </header>
      <BusyBanner />
      <main className="shop-main">{children}</main>
      <Toasts translate={translateMessage} />
    </div>
  );
}
