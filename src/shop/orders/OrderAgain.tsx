import { useState } from 'react';
import { Link } from 'wouter';
import { useApolloClient } from '@apollo/client/react';
import { joinList, money, t } from '../../i18n';
import { errorMessage } from '../../lib/errors';
import { useCart, useShop } from '../shopContext';
import { CartPrices } from '../checkout/PriceCheck';
import { BranchProducts } from '../menu/ProductList';
import { TrackedOrder } from './orderGraphql';
import { planReorder, type ReorderPlan, type TodayProduct } from '../../../machines/reorder';
import './orderProgress.css';

const present = <T,>(x: T | null | undefined): x is T => x != null;

/**
 * "Order again" on a past order (issue 24): its lines go into the cart (the cart's own `cart.add`)
 * as the chosen branch offers them today (Products/GetProductsPricesForCustomer: price, availability,
 * options), and the customer reads what changed: lines left out, options no longer offered, prices
 * that moved. Added once: the notice and a link to the cart replace the button.
 */
export function OrderAgain({ orderId, ohash }: { orderId: number; ohash: string | null }) {
  const client = useApolloClient();
  const cart = useCart();
  const shop = useShop();
  const [state, setState] = useState<{ busy?: boolean; plan?: ReorderPlan; error?: string }>({});
  const run = async () => {
    setState({ busy: true });
    try {
      const { data } = await client.query({ query: TrackedOrder, variables: { orderId, ohash }, context: { silent: true } });
      const order = data?.Store_GetOrderDetail;
      if (!order) throw new Error(t('order.reorderFailed'));
      if (order.brandId !== shop.brandId) { setState({ error: t('order.reorderOtherBrand', { branch: order.branchName }) }); return; }
      const lines = order.items.filter(present).map((i) => ({
        productId: i.productId, name: i.name, quantity: i.quantity, unitPrice: i.unitPrice, isRedeem: i.isRedeem,
        options: i.options.filter(present),
      }));
      const productIds = [...new Set(lines.map((l) => l.productId))];
      const where = { brandId: shop.brandId, branchId: shop.branchId };
      const [prices, menu] = await Promise.all([
        client.query({ query: CartPrices, variables: { ...where, productIds }, fetchPolicy: 'network-only', context: { silent: true } }),
        client.query({ query: BranchProducts, variables: where, context: { silent: true } }),
      ]);
      // The menu gives each product's picture and delivery text, as the product page puts them in the cart.
      const shown = new Map((menu.data?.Products_GetProductsGroupedByTypeAndSubtypeAsCustomerForMangoes ?? [])
        .flatMap((type) => type?.subtypes ?? []).flatMap((s) => s?.products ?? []).filter(present).map((p) => [p.id, p]));
      const today: TodayProduct[] = (prices.data?.Products_GetProductsPricesForCustomer ?? []).filter(present).map((p) => ({
        id: p.id, name: p.name, price: p.price, available: p.available,
        productImage: shown.get(p.id)?.productImage ?? null, productDeliveryText: shown.get(p.id)?.productDeliveryText ?? '',
        options: (p.options ?? []).filter(present),
      }));
      const plan = planReorder(lines, today);
      for (const add of plan.adds) cart.send(add);
      if (plan.adds.length) cart.send(plan.reprice);
      setState({ plan });
    } catch (e) {
      setState({ error: errorMessage(e, t('order.reorderFailed')) });
    }
  };
  if (state.plan) return <ReorderNotice plan={state.plan} currency={shop.currency} />;
  return (
    <div className="order-again">
      <button type="button" className="shop-button" onClick={() => void run()} disabled={state.busy}>
        {state.busy ? t('order.reordering') : t('order.orderAgain')}
      </button>
      {state.error && <p className="shop-error" role="alert">{state.error}</p>}
    </div>
  );
}

/** What the customer reads once the order is in the cart: added, and what changed since. */
export function ReorderNotice({ plan, currency }: { plan: ReorderPlan; currency: string }) {
  return (
    <div className="order-again shop-card" role="status" data-testid="reorder-notice">
      <p><strong>{plan.adds.length ? t('order.reorderAdded') : t('order.reorderNothing')}</strong></p>
      <ul>
        {plan.unavailable.map((name) => <li key={`u:${name}`}>{t('order.reorderUnavailable', { name })}</li>)}
        {plan.optionsDropped.map((o) => <li key={`o:${o.name}`}>{t('order.reorderOptionGone', { name: o.name, options: joinList(o.options) })}</li>)}
        {plan.priceChanges.map((c) => (
          <li key={`p:${c.name}`}>
            {c.wasReward
              ? t('order.reorderWasReward', { name: c.name, now: money(c.now, currency) })
              : t('order.reorderPrice', { name: c.name, now: money(c.now, currency), was: money(c.was, currency) })}
          </li>
        ))}
      </ul>
      {plan.adds.length > 0 && <Link href="/cart" className="shop-button">{t('order.reorderToCart')}</Link>}
    </div>
  );
}
