import { useEffect, useState } from 'react';
import { money, t } from '../../i18n';
import { priceChanges, type CartPrice } from '../../../machines/cart';
import type { useCartAvailability } from '../cart/availability';
import { useCart, useShop } from '../shopContext';

/** The query moved with the cart's availability (src/shop/cart/availability.ts); named here for the screens that import it from here. */
export { CartPrices } from '../cart/availability';

type Notice = { changes: { name: string; was: number; now: number }[] };

/**
 * Checkout's price check: the cart's products are read again from the server when checkout opens;
 * if a price changed since they were added, the cart takes today's prices (so the total shown is
 * the one the server will charge) and the customer is told, line by line, before they confirm.
 * Products that cannot be ordered now are marked on their lines (CartLines' `soldOut`).
 */
export function PriceCheck({ answer }: { answer: ReturnType<typeof useCartAvailability>['answer'] }) {
  const cart = useCart();
  const shop = useShop();
  const [notice, setNotice] = useState<Notice | null>(null);
  useEffect(() => {
    if (!answer) return;
    const prices: CartPrice[] = answer.filter((p): p is NonNullable<typeof p> => !!p).map((p) => ({
      productId: p.id, name: p.name, price: p.price,
      options: (p.options ?? []).filter((o): o is NonNullable<typeof o> => !!o).map((o) => ({ id: o.id, name: o.name, price: o.price })),
    }));
    const changes = priceChanges(cart.items, prices);
    if (changes.length) setNotice({ changes });
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
    </div>
  );
}
