import { Alert, Button, HTMLTable, Tag, type Intent } from '@blueprintjs/core';
import { useEffect, useState } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { graphql } from '../../gql';
import { canSendOrderEvent } from '../../../domain/permissions';
import { errorMessage } from '../../lib/errors';
import { placedAt } from './format';
import { formatMoney } from '../../../domain/money';
import { BankAccountIcon, RefreshIcon } from '@blueprintjs/icons';

const OrderRefundList = graphql(`
  query OrderRefundList($OrderId: Int!) {
    refunds: Refund_GetOrderRefunds(OrderId: $OrderId) {
      id amount provider cause status reason providerRefundRef attempts retries lastMessage createdAt refundedAt
    }
  }
`);

const RetryRefund = graphql(`
  mutation RetryRefund($input: RetryRefundInput_Input!) {
    refund: Refund_RetryRefund(input: $input) { id status }
  }
`);

const HandBackRefund = graphql(`
  mutation MarkRefundHandedBack($input: MarkRefundHandedBackInput_Input!) {
    refund: Refund_MarkRefundHandedBack(input: $input) { id status refundedAt }
  }
`);

/** Each refund state as staff read it (server/payments/refunds.ts REFUND_STATUSES). */
export const REFUND_STATE: Record<string, { text: string; intent: Intent }> = {
  pending: { text: 'Refund pending', intent: 'warning' },
  refunded: { text: 'Refunded', intent: 'success' },
  failed: { text: 'Refund failed', intent: 'danger' },
  owed: { text: 'Refund owed at branch', intent: 'warning' },
};
const CAUSE: Record<string, string> = {
  rejected: 'Rejected by the branch', deadline: 'Not accepted in time', refundRequest: 'Approved refund request', paidAfterRejection: 'Paid after rejection',
};

/**
 * The money given back for a paid order, in its drawer: each refund's state at the provider, why,
 * and for a failed one its message and Retry (the roles that approve refunds).
 */
export function OrderRefunds({ orderId, role, version }: { orderId: number; role: string | null; version: number }) {
  const { data, refetch } = useQuery(OrderRefundList, { variables: { OrderId: orderId }, fetchPolicy: 'cache-and-network', context: { silent: true } });
  const [retry, retrying] = useMutation(RetryRefund, { context: { silent: true } });
  const [handBack, handingBack] = useMutation(HandBackRefund, { context: { silent: true } });
  // The owed cash refund staff are asked to confirm as handed back.
  const [confirming, setConfirming] = useState<{ id: number; amount: number } | null>(null);
  // The order changed (the live feed brought a new version; a refund's end publishes one): read its refunds again.
  useEffect(() => { void refetch(); }, [version]); // eslint-disable-line react-hooks/exhaustive-deps
  const refunds = (data?.refunds ?? []).filter((r): r is NonNullable<typeof r> => !!r);
  if (!refunds.length) return null;
  return (
    <>
      <h4 className="order-items-title">Refunds</h4>
      <HTMLTable compact className="order-facts" data-testid="order-refunds">
        <tbody>
          {refunds.map((r) => {
            const state = REFUND_STATE[r.status] ?? { text: r.status, intent: 'none' as Intent };
            return (
              <tr key={r.id}>
                <th>{formatMoney(r.amount)}</th>
                <td>
                  <Tag minimal intent={state.intent} data-refund-status={r.status}>{state.text}</Tag>{' '}
                  <span className="order-muted">{CAUSE[r.cause] ?? r.cause} · {r.refundedAt ? `returned ${placedAt(String(r.refundedAt))}` : `since ${placedAt(String(r.createdAt))}`}</span>
                  {r.lastMessage && r.status !== 'refunded' && <div className="order-muted">{r.lastMessage}</div>}
                  {r.providerRefundRef && <div className="order-muted">Ref. {r.providerRefundRef}</div>}
                  {r.status === 'failed' && canSendOrderEvent(role, 'order.approveRefund') && (
                    <Button small icon={<RefreshIcon />} text="Retry" loading={retrying.loading}
                      onClick={async () => { try { await retry({ variables: { input: { refundId: r.id } } }); } finally { await refetch(); } }} />
                  )}
                  {r.status === 'owed' && canSendOrderEvent(role, 'order.approveRefund') && (
                    <Button small icon={<BankAccountIcon />} text="Handed back" data-testid="refund-hand-back" loading={handingBack.loading}
                      onClick={() => setConfirming({ id: r.id, amount: r.amount })} />
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </HTMLTable>
      {retrying.error && <p className="order-muted" role="alert">{errorMessage(retrying.error)}</p>}
      {handingBack.error && <p className="order-muted" role="alert">{errorMessage(handingBack.error)}</p>}
      <Alert isOpen={!!confirming} intent="primary" icon={<BankAccountIcon />} confirmButtonText="Yes, handed back" cancelButtonText="Cancel"
        onCancel={() => setConfirming(null)}
        onConfirm={async () => {
          const refundId = confirming!.id;
          setConfirming(null);
          try { await handBack({ variables: { input: { refundId } } }); } catch { /* shown above */ } finally { await refetch(); }
        }}>
        <p>Did the customer get {confirming ? formatMoney(confirming.amount) : ''} back in cash at the branch?</p>
        <p>The refund is recorded as given back, with your name and the time, and the customer is told.</p>
      </Alert>
    </>
  );
}
