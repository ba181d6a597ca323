import { useEffect, useState } from 'react';
import { useQuery } from '@apollo/client/react';
import { graphql } from '../../gql';
import { money, t } from '../../i18n';
import { priceChanges, type CartPrice } from '../../../machines/cart';
import { useCart, useShop } from '../shopContext';

export const CartPrices = graphql(`
  query CartPrices($brandId: Int!, $branchId: Int!, $productIds: [Int]!) {
    Products_GetProductsPricesForCustomer(brandId: $brandId, branchId: $branchId, productIds: $productIds) {
      id name price available unavailableUntil options { id name price available }
    }
  }
`);

type Notice = { changes: { name: string; was: number; now: number }[]; gone: string[] };

/**
 * Checkout's price check: the cart's products are read again from the server when checkout opens;
 * if a price changed since they were added, the cart takes today's prices (so the total shown is
 * the one the server will charge) and the customer is told, line by line, before they confirm.
 * Products no longer on the menu or not available now are named too (the order would be refused).
 */
export function PriceCheck() {
  const cart = useCart();
  const shop = useShop();
  const productIds = [...new Set(cart.items.map((i) => i.product.id))];
  const { data } = useQuery(CartPrices, {
    variables: { brandId: shop.brandId, branchId: shop.branchId, productIds },
    skip: !productIds.length, fetchPolicy: 'network-only', context: { silent: true },
  });
  const [notice, setNotice] = useState<Notice | null>(null);
  const answer = data?.Products_GetProductsPricesForCustomer;
  useEffect(() => {
    if (!answer) return;
    const prices: CartPrice[] = answer.filter((p): p is NonNullable<typeof p> => !!p).map((p) => ({
      productId: p.id, name: p.name, price: p.price,
      options: (p.options ?? []).filter((o): o is NonNullable<typeof o> => !!o).map((o) => ({ id: o.id, name: o.name, price: o.price })),
    }));
    const changes = priceChanges(cart.items, prices);
    const gone = cart.items.filter((i) => !answer.some((p) => p?.id === i.product.id && p.available)).map((i) => i.product.name);
    if (changes.length || gone.length) setNotice({ changes, gone });
    if (changes.length) cart.send({ type: 'cart.reprice', prices });
  }, [answer]); // eslint-disable-line react-hooks/exhaustive-deps
  if (!notice) return null;
  return (
    <div className="checkout__price-notice" role="alert" data-testid="price-notice">
      {notice.changes.length > 0 && (
        <>
          <strong>{t('checkout.pricesChanged')}</strong>
          <ul>
            {notice.changes.map((c) => (
              <li key={c.name}>{c.name}: <del>{money(c.was, shop.currency)}</del> <span className="shop-arrow" aria-hidden="true">→</span> {money(c.now, shop.currency)}</li>
            ))}
          </ul>
          <span>{t('checkout.newTotal')}</span>
        </>
      )}
      {notice.gone.map((name) => <p key={name}>{t('checkout.notAvailableNow', { name })}</p>)}
    </div>
  );
}
