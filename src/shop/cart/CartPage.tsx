import { useEffect, useRef } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { useSession } from '../../lib/session';
import { Loading } from '../../common/Loading';
import { useCart, useShop } from '../shopContext';
import { CartLines, CartTotal } from './CartLines';
import { useCartAvailability } from './availability';
import { menuAt, useChosenWhen } from '../chosenWhen';
import { t, translateMessage } from '../../i18n';

/** Where the login page sends the customer back to (src/auth/AuthApp.tsx reads `next`). */
export const LOGIN_FOR_CHECKOUT = '/login?next=/check-out';

/**
 * /cart and /cart-details, with an optional `address` parameter (SPEC.md 2.1): guest_checkout signs
 * the guest in (user 18) and goes on to checkout; user_checkout asks the customer to sign in first.
 */
export default function CartPage() {
  const { address } = useParams<{ address?: string }>();
  const cart = useCart();
  const shop = useShop();
  const session = useSession();
  const [, navigate] = useLocation();
  const signedInCustomer = session.isAuthenticated && session.role === 'CUSTOMER';
  const askedGuest = useRef(false);
  const { soldOut, offHours } = useCartAvailability(cart.items, shop.brandId, shop.branchId, menuAt(useChosenWhen()));

  useEffect(() => {
    if (cart.isEmpty || session.isRestoring || session.isPending) return;
    if (address === 'guest_checkout') {
      if (signedInCustomer) navigate('/check-out', { replace: true });
      else if (!session.isAuthenticated && !askedGuest.current) {
        askedGuest.current = true;
        session.send({ type: 'auth.guest' });
      }
    } else if (address === 'user_checkout') {
      navigate(signedInCustomer && !session.isGuest ? '/check-out' : LOGIN_FOR_CHECKOUT, { replace: true });
    }
  }, [address, cart.isEmpty, session.isRestoring, session.isPending, session.isAuthenticated, session.isGuest, signedInCustomer]); // eslint-disable-line react-hooks/exhaustive-deps

  if (cart.isEmpty) {
    return (
      <section className="shop-section shop-empty">
        <h1 className="shop-title">{t('cart.title')}</h1>
        <p className="shop-muted">{t('cart.empty')}</p>
        <Link href="/products" className="shop-button">{t('cart.browse')}</Link>
      </section>
    );
  }
  if (session.isAuthenticated && session.role !== 'CUSTOMER') {
    return <section className="shop-section"><h1 className="shop-title">{t('cart.title')}</h1><p className="shop-muted">{t('cart.staff')}</p></section>;
  }
  if (address === 'guest_checkout' || address === 'user_checkout') {
    if (session.error && address === 'guest_checkout') return <section className="shop-section"><p className="shop-error" role="alert">{translateMessage(session.error)}</p></section>;
    return <Loading label={t('cart.toCheckout')} />;
  }
  return (
    <div className="cart-page">
      <section className="shop-section">
        <h1 className="shop-title">{t('cart.title')}</h1>
        <CartLines
          items={cart.items}
          currency={shop.currency}
          onQuantity={(key, quantity) => cart.send({ type: 'cart.setQuantity', key, quantity })}
          onRemove={(key) => cart.send({ type: 'cart.remove', key })}
          soldOut={soldOut}
          offHours={offHours}
        />
      </section>
      <aside className="shop-card cart-page__summary">
        <CartTotal total={cart.total} currency={shop.currency} note={t('cart.finalPrice')} />
        <Link href="/product-review" className="shop-link">{t('cart.remarks')}</Link>
        {signedInCustomer ? (
          <Link href="/check-out" className="shop-button shop-button--wide">{t('cart.proceed')}</Link>
        ) : (
          <>
            <Link href="/cart/guest_checkout" className="shop-button shop-button--wide">{t('cart.guest')}</Link>
            <Link href="/cart/user_checkout" className="shop-button shop-button--ghost shop-button--wide">{t('cart.signIn')}</Link>
          </>
        )}
        <Link href="/products" className="shop-link">{t('cart.continue')}</Link>
      </aside>
    </div>
  );
}
