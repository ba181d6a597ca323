import { useState } from 'react';
import { useQuery } from '@apollo/client/react';
import { Callout, HTMLTable, Spinner } from '@blueprintjs/core';
import { graphql } from '../../gql';
import { errorMessage } from '../../lib/errors';
import { Pager } from './CustomerOrders';
import { dateTimeText } from '../../../domain/time';

const CustomerScanList = graphql(`
  query CustomerScanList($customerId: Int!, $skip: Int!) {
    scans: RewardCardScans_GetUserRewardCardScansInfoByCustomer(CustomerId: $customerId, SkipCount: $skip, MaxResultCount: 10) {
      totalCount rewardScans redemptionScans firstScanAt lastScanAt
      data { id brandName branchName scanType orderId ageBand scannedByName createdAt }
    }
  }
`);

/** The Scans tab of /customers/{id}: the customer's reward card scans in the caller's places, newest first, with their totals. */
export function CustomerScans({ customerId }: { customerId: number }) {
  const [skip, setSkip] = useState(0);
  const { data, loading, error } = useQuery(CustomerScanList, { variables: { customerId, skip }, fetchPolicy: 'network-only', context: { silent: true } });
  const scans = data?.scans;
  if (loading && !scans) return <Spinner size={24} aria-label="Loading scans" />;
  if (error && !scans) return <Callout intent="danger">{errorMessage(error)}</Callout>;
  const rows = (scans?.data ?? []).flatMap((s) => (s ? [s] : []));
  const when = (iso: string | null | undefined) => dateTimeText(iso) || '—';
  return (
    <div data-testid="customer-scans">
      <p data-testid="customer-scan-totals">
        {scans?.totalCount === 1 ? '1 scan' : `${scans?.totalCount ?? 0} scans`} · {scans?.rewardScans ?? 0} reward · {scans?.redemptionScans ?? 0} redemption · first {when(scans?.firstScanAt)} · last {when(scans?.lastScanAt)}
      </p>
      <HTMLTable compact striped>
        <thead><tr><th>When</th><th>Brand</th><th>Branch</th><th>Type</th><th>Order</th><th>Age band then</th><th>Scanned by</th></tr></thead>
        <tbody>
          {rows.map((s) => (
            <tr key={s.id}>
              <td>{when(s.createdAt)}</td><td>{s.brandName}</td><td>{s.branchName}</td>
              <td>{s.scanType === 'redemption' ? 'Redemption' : 'Reward'}</td><td>{s.orderId ? `#${s.orderId}` : '—'}</td>
              <td>{s.ageBand}</td><td>{s.scannedByName ?? 'System'}</td>
            </tr>
          ))}
          {!rows.length && <tr><td colSpan={7}>No reward card scans in your places.</td></tr>}
        </tbody>
      </HTMLTable>
      <Pager skip={skip} total={scans?.totalCount ?? 0} onPage={setSkip} />
    </div>
  );
}
