import { HTMLTable, Tag, type Intent } from '@blueprintjs/core';
import { useEffect } from 'react';
import { useQuery } from '@apollo/client/react';
import { graphql } from '../../gql';
import { placedAt } from './format';
import { formatMoney } from '../../../domain/money';

const OrderPaymentList = graphql(`
  query OrderPaymentList($orderId: Int!) {
    payments: PaymentReconciliation_GetOrderPayments(orderId: $orderId) {
      id provider status amount providerRef paymentId trackId result createdAt paidAt checkedAt
    }
  }
`);

/** A payment's state as staff read it (server/payments/settle.ts). */
export const PAYMENT_STATE: Record<string, { text: string; intent: Intent }> = {
  pending: { text: 'Payment pending', intent: 'none' },
  paid: { text: 'Paid', intent: 'success' },
  failed: { text: 'Payment failed', intent: 'danger' },
  expired: { text: 'Payment expired', intent: 'none' },
  mismatch: { text: 'Paid another amount', intent: 'danger' },
  cancelled: { text: 'Payment cancelled', intent: 'none' },
  refunded: { text: 'Refunded', intent: 'warning' },
};

/**
 * The order's online payments in its drawer, as a KNET receipt reads: date and time, result,
 * amount, payment id and track id, with the provider's own id (issue 21). Cash shows nothing.
 */
export function OrderReceipt({ orderId, version }: { orderId: number; version: number }) {
  const { data, refetch } = useQuery(OrderPaymentList, { variables: { orderId }, fetchPolicy: 'cache-and-network', context: { silent: true } });
  useEffect(() => { void refetch(); }, [version]); // eslint-disable-line react-hooks/exhaustive-deps
  const rows = (data?.payments ?? []).filter((p): p is NonNullable<typeof p> => !!p && p.provider !== 'cash');
  if (!rows.length) return null;
  return (
    <>
      <h4 className="order-items-title">Payment</h4>
      <HTMLTable compact className="order-facts" data-testid="order-receipt">
        <tbody>
          {rows.map((p) => {
            const state = PAYMENT_STATE[p.status] ?? { text: p.status, intent: 'none' as Intent };
            return (
              <tr key={p.id}>
                <th>{formatMoney(p.amount)}</th>
                <td>
                  <Tag minimal intent={state.intent} data-payment-status={p.status}>{state.text}</Tag>{' '}
                  <span className="order-muted">{p.provider} · {placedAt(String(p.paidAt ?? p.checkedAt ?? p.createdAt))}</span>
                  {p.result && <div className="order-muted">Result {p.result}</div>}
                  {p.paymentId && <div className="order-muted">Payment ID {p.paymentId}</div>}
                  {p.trackId && <div className="order-muted">Track ID {p.trackId}</div>}
                  <div className="order-muted">Ref. {p.providerRef}</div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </HTMLTable>
    </>
  );
}
