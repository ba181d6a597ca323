import { useQuery } from '@apollo/client/react';
import { Callout, Card, H3, HTMLTable, Spinner } from '@blueprintjs/core';
import { graphql } from '../../gql';
import { errorMessage } from '../../lib/errors';
import { QrScansLink } from './QrScansLink';

const AllTime = graphql(`
  query DashboardScansAllTime($brandId: Int!) {
    scans: Statistic_GetCustomerRewardCardScanStatistic(brandId: $brandId) {
      scans rewardScans redemptionScans scanned notScanned newCustomers returnedCustomers male female genderNotGiven ageBands { band customers }
    }
  }
`);
const InPeriod = graphql(`
  query DashboardScansInPeriod($brandId: Int!, $fromDate: DateTime!, $toDate: DateTime!) {
    scans: Statistic_GetCustomerRewardCardScanStatisticByDates(brandId: $brandId, fromDate: $fromDate, toDate: $toDate) {
      scans rewardScans redemptionScans scanned notScanned newCustomers returnedCustomers male female genderNotGiven ageBands { band customers }
    }
  }
`);

/**
 * The reward-scan headline figures of SPEC.md section 3 on the dashboard (issue 23): scanned and
 * not scanned, male and female, the age bands, new and returned customers, reward and redemption
 * scans, for the dashboard's brand and period; /brands/qrscans has the charts and the scans.
 */
export function ScanHeadlines({ brandId, period }: { brandId: number | null; period: { fromDate?: string; toDate?: string } }) {
  const common = { fetchPolicy: 'network-only', context: { silent: true } } as const;
  const dated = !!(period.fromDate && period.toDate);
  const all = useQuery(AllTime, { ...common, variables: { brandId: brandId ?? 0 }, skip: !brandId || dated });
  const some = useQuery(InPeriod, { ...common, variables: { brandId: brandId ?? 0, fromDate: period.fromDate ?? '', toDate: period.toDate ?? '' }, skip: !brandId || !dated });
  const active = dated ? some : all;
  const s = active.data?.scans;
  return (
    <Card className="console-card stat-counts" role="region" aria-label="Reward card scans">
      <H3>Reward card scans</H3>
      {!brandId && <p className="stat-empty">Choose a brand to see its reward card scans.</p>}
      {brandId && active.loading && !s && <Spinner size={20} aria-label="Loading reward card scans" />}
      {brandId && active.error && !s && <Callout intent="danger">{errorMessage(active.error)}</Callout>}
      {brandId && s && (
        <HTMLTable compact>
          <tbody>
            <tr><th>Customers scanned</th><td data-testid="scans-scanned">{s.scanned}</td></tr>
            <tr><th>Not scanned</th><td data-testid="scans-not-scanned">{s.notScanned}</td></tr>
            <tr><th>Male / female</th><td data-testid="scans-gender">{s.male} / {s.female}{s.genderNotGiven ? ` (${s.genderNotGiven} not given)` : ''}</td></tr>
            {s.ageBands.flatMap((b) => (b ? [<tr key={b.band}><th>{/^\d/.test(b.band) ? `Aged ${b.band}` : b.band === 'Not given' ? 'Age not given' : b.band}</th><td>{b.customers}</td></tr>] : []))}
            <tr><th>New / returned customers</th><td data-testid="scans-new-returned">{s.newCustomers} / {s.returnedCustomers}</td></tr>
            <tr><th>Reward / redemption scans</th><td data-testid="scans-kinds">{s.rewardScans} / {s.redemptionScans}</td></tr>
          </tbody>
        </HTMLTable>
      )}
      {brandId && <QrScansLink brandId={brandId} />}
    </Card>
  );
}
