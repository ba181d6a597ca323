import { useState } from 'react';
import { useQuery } from '@apollo/client/react';
import { Link } from 'wouter';
import { Button, Callout, HTMLTable, Spinner, Tag } from '@blueprintjs/core';
import { graphql } from '../../gql';
import { errorMessage } from '../../lib/errors';
import { MODE_LABEL, STATUS_INTENT, STATUS_LABEL } from '../orders/format';
import { formatMoney } from '../../../domain/money';
import './customers.css';
import { dateTimeText } from '../../../domain/time';

const CustomerOrderList = graphql(`
  query CustomerOrderList($customerId: Int!, $skip: Int!) {
    list: Store_GetUserOrdersAsBranchUser(CustomerId: $customerId, SkipCount: $skip, MaxResultCount: 10, IncludeCounts: false) {
      totalCount data { id orderNumber status payment refund deliverySystem total createdAt }
    }
  }
`);

/**
 * The Orders tab of /customers/{id}: the customer's orders in the caller's places, newest first, 10
 * a page. An order links to All Orders searched by its id (`#<id>`), where its row opens the order.
 */
export function CustomerOrders({ customerId }: { customerId: number }) {
  const [skip, setSkip] = useState(0);
  const { data, loading, error } = useQuery(CustomerOrderList, { variables: { customerId, skip }, fetchPolicy: 'network-only', context: { silent: true } });
  const rows = (data?.list?.data ?? []).flatMap((o) => (o ? [o] : []));
  const total = data?.list?.totalCount ?? 0;
  if (loading && !data) return <Spinner size={24} aria-label="Loading orders" />;
  if (error && !data) return <Callout intent="danger">{errorMessage(error)}</Callout>;
  return (
    <div data-testid="customer-orders">
      <HTMLTable compact striped>
        <thead><tr><th>Order</th><th>Placed</th><th>Mode</th><th>Status</th><th>Payment</th><th>Total</th></tr></thead>
        <tbody>
          {rows.map((o) => (
            <tr key={o.id}>
              <td><Link href={`/order?q=${encodeURIComponent(`#${o.id}`)}`}>{o.orderNumber}</Link></td>
              <td>{dateTimeText(o.createdAt)}</td>
              <td>{MODE_LABEL[o.deliverySystem] ?? o.deliverySystem}</td>
              <td><Tag minimal intent={STATUS_INTENT[o.status]}>{STATUS_LABEL[o.status] ?? o.status}</Tag>{o.refund === 'approved' ? ' · Refunded' : ''}</td>
              <td>{o.payment === 'paid' ? 'Paid' : 'Unpaid'}</td>
              <td>{formatMoney(o.total)}</td>
            </tr>
          ))}
          {!rows.length && <tr><td colSpan={6}>No orders in your places.</td></tr>}
        </tbody>
      </HTMLTable>
      <Pager skip={skip} total={total} onPage={setSkip} />
    </div>
  );
}

/** Newer / older by 10, with where the page lies. */
export function Pager({ skip, total, onPage }: { skip: number; total: number; onPage(skip: number): void }) {
  return (
    <div className="customer-pager">
      <Button disabled={skip === 0} onClick={() => onPage(Math.max(0, skip - 10))} text="Newer" />
      <span>{total ? `${skip + 1}–${Math.min(skip + 10, total)} of ${total}` : ''}</span>
      <Button disabled={skip + 10 >= total} onClick={() => onPage(skip + 10)} text="Older" />
    </div>
  );
}
