import { useQuery } from '@apollo/client/react';
import { graphql } from '../../gql';
import { dateTime, t } from '../../i18n';
import '../../i18n/screens';

/** The time the order was expected to be ready when it was placed (domain/readyEstimate.ts), read once. */
export const OrderReadyEstimate = graphql(`
  query OrderReadyEstimate($orderId: Int!, $ohash: String) {
    Store_GetOrderDetail(orderId: $orderId, ohash: $ohash) { id readyEstimateAt scheduledFor }
  }
`);

/** Shown while the order is being prepared (pending or accepted); gone once it is ready or finished. */
const PREPARING = ['pending', 'accepted'];

/** The tracker's estimate line: "Ready at about 10:45", from the estimate the checkout showed. */
export function ReadyEstimateLine({ orderId, ohash, status }: { orderId: number; ohash: string | null; status: string }) {
  const preparing = PREPARING.includes(status);
  const { data } = useQuery(OrderReadyEstimate, { variables: { orderId, ohash }, skip: !preparing, context: { silent: true } });
  const at = data?.Store_GetOrderDetail?.readyEstimateAt;
  // An order for later shows its chosen time in the summary (OrderSummary), not an estimate.
  if (!preparing || !at || data?.Store_GetOrderDetail?.scheduledFor) return null;
  return <p className="shop-muted order-done__ready" data-testid="order-ready-estimate">{t('rewards.readyAt', { time: dateTime(String(at), { timeStyle: 'short' }) })}</p>;
}
