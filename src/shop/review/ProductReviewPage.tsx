import { t } from '../../i18n';
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { useQuery } from '@apollo/client/react';
import { graphql } from '../../gql';
import { PROMO_CODE_MAX, SPECIAL_REMARKS_MAX, TIMINGS } from '../../../domain/constants';
import { useSession } from '../../lib/session';
import { CartLines, CartTotal } from '../cart/CartLines';
import { LOGIN_FOR_CHECKOUT } from '../cart/CartPage';
import { useCart, useOrderNotes, useShop } from '../shopContext';

export const ReviewBranch = graphql(`
  query ReviewBranch($branchId: Int!) {
    Branch_GetById(branchId: $branchId) { id name isBusy openTime closeTime }
  }
`);

/**
 * /product-review: the items, special remarks and a promotion code, then checkout.
 *
 * SPEC.md 9 says this screen "waits 3000 ms". We read that as: it waits for the branch's live
 * status (busy, hours) so it can warn before checkout, for at most TIMINGS.productReviewWaitMs;
 * after that the customer may go on regardless (the server has the last word when ordering).
 */
export default function ProductReviewPage() {
  const cart = useCart();
  const shop = useShop();
  const session = useSession();
  const { notes, setNotes } = useOrderNotes();
  const [waited, setWaited] = useState(false);
  const { data, loading } = useQuery(ReviewBranch, { variables: { branchId: shop.branchId }, fetchPolicy: 'network-only', context: { silent: true } });
  useEffect(() => {
    const timer = setTimeout(() => setWaited(true), TIMINGS.productReviewWaitMs);
    return () => clearTimeout(timer);
  }, []);
  const branch = data?.Branch_GetById;
  const ready = !loading || waited;

  if (cart.isEmpty) {
    return (
      <section className="shop-section shop-empty">
        <h1 className="shop-title">{t('review.title')}</h1>
        <p className="shop-muted">{t('cart.empty')}</p>
        <Link href="/products" className="shop-button">{t('cart.browse')}</Link>
      </section>
    );
  }
  const signedInCustomer = session.isAuthenticated && session.role === 'CUSTOMER';
  const next = signedInCustomer ? '/check-out' : session.isAuthenticated ? LOGIN_FOR_CHECKOUT : '/cart/guest_checkout';
  return (
    <div className="cart-page">
      <section className="shop-section">
        <h1 className="shop-title">{t('review.title')}</h1>
        {branch?.isBusy && <p className="shop-notice" role="status">{t('review.busy', { name: branch.name })}</p>}
        <CartLines items={cart.items} currency={shop.currency} />
        <div className="shop-card review-notes">
          <label className="field" htmlFor="remarks">
            <span>{t('review.remarks')}</span>
            <textarea id="remarks" rows={3} maxLength={SPECIAL_REMARKS_MAX} placeholder={t('review.remarksPlaceholder')} value={notes.remarks}
              aria-describedby="remarks-count" onChange={(e) => setNotes({ ...notes, remarks: e.target.value })} />
            {/* The server's own limit, counted as typed (the field stops there). */}
            <span id="remarks-count" className="shop-muted field__help" data-testid="remarks-count">{t('review.remarksCount', { count: notes.remarks.length, max: SPECIAL_REMARKS_MAX })}</span>
          </label>
          <label className="field" htmlFor="promotion-code">
            <span>{t('review.promotionCode')}</span>
            <input id="promotion-code" maxLength={PROMO_CODE_MAX} autoComplete="off" value={notes.promotionCode}
              onChange={(e) => setNotes({ ...notes, promotionCode: e.target.value.toUpperCase().replace(/\s/g, '') })} />
            <span className="shop-muted field__help">{t('review.promotionHelp')}</span>
          </label>
        </div>
      </section>
      <aside className="shop-card cart-page__summary">
        <CartTotal total={cart.total} currency={shop.currency} note={t('cart.finalPrice')} />
        {ready
          ? <Link href={next} className="shop-button shop-button--wide">{t('review.toCheckout')}</Link>
          : <button type="button" className="shop-button shop-button--wide" disabled aria-busy="true">{t('review.checking')}</button>}
        <Link href="/cart" className="shop-link">{t('review.backToCart')}</Link>
      </aside>
    </div>
  );
}
