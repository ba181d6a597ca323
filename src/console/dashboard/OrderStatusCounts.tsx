import { useQuery } from '@apollo/client/react';
import { Callout, Card, H4, HTMLTable, Spinner } from '@blueprintjs/core';
import { can } from '../../../domain/permissions';
import { ORDER_STATUSES, STATUS_LABELS } from '../../../machines/orderLifecycle';
import { errorMessage } from '../../lib/errors';
import { AllOrders, ArrivalCounts } from '../orders/operations';
import { useOrderSignals } from '../orders/useOrderSignals';
import { useManagerBrand } from '../shell/managerBrand';


/**
 * Orders by status in the user's scope (the server scopes the count: all, company, brand or
 * branch), kept current by the live feed. Branch users also see their drive-thru and pick-up counts.
 */
export function OrderStatusCounts({ role }: { role: string | null }) {
  const brand = useManagerBrand();
  const counts = useQuery(AllOrders, {
    variables: { skip: 0, take: 1, includeCounts: true, brandId: brand ?? undefined },
    fetchPolicy: 'network-only',
    notifyOnNetworkStatusChange: false,
    context: { silent: true },
  });
  const branchLive = can(role, 'orders.branchLive');
  const driveThru = useQuery(ArrivalCounts, { variables: { withCarCounts: true, noShowMode: 'carService' }, skip: !branchLive, fetchPolicy: 'network-only', context: { silent: true } });
  const pickUp = useQuery(ArrivalCounts, { variables: { withCarCounts: false, noShowMode: 'pickup' }, skip: !branchLive, fetchPolicy: 'network-only', context: { silent: true } });
  useOrderSignals(() => {
    void counts.refetch();
    if (branchLive) { void driveThru.refetch(); void pickUp.refetch(); }
  });

  const list = counts.data?.list;
  return (
    <Card className="console-card dashboard-orders" aria-label="Orders by status">
      <H4>Orders by status · all time {counts.loading && !list && <Spinner size={14} className="dashboard-inline-spinner" />}</H4>
      {counts.error && <Callout intent="danger">{errorMessage(counts.error)}</Callout>}
      {list && (
        <HTMLTable compact className="dashboard-counts">
          <tbody>
            {ORDER_STATUSES.map((key) => (
              <tr key={key}><th>{STATUS_LABELS[key]}</th><td data-testid={`dashboard-${key}`}>{list.counts?.[key] ?? 0}</td></tr>
            ))}
            <tr className="dashboard-total"><th>All orders</th><td data-testid="dashboard-total">{list.totalCount}</td></tr>
            {branchLive && driveThru.data && <>
              <tr><th>Drive-thru arrived</th><td>{driveThru.data.arrived ?? 0}</td></tr>
              <tr><th>Drive-thru served</th><td>{driveThru.data.served ?? 0}</td></tr>
              <tr><th>Drive-thru no-show</th><td>{driveThru.data.noShow ?? 0}</td></tr>
            </>}
            {branchLive && pickUp.data && <tr><th>Pick-up no-show</th><td>{pickUp.data.noShow ?? 0}</td></tr>}
          </tbody>
        </HTMLTable>
      )}
    </Card>
  );
}
