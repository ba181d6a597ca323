import './quality.css';
import { useMemo, useState } from 'react';
import { useQuery } from '@apollo/client/react';
import { Callout, Card, H2, HTMLSelect, HTMLTable, Spinner, Tag } from '@blueprintjs/core';
import { formatMoney } from '../../../domain/money';
import { can } from '../../../domain/permissions';
import { graphql } from '../../gql';
import { errorMessage } from '../../lib/errors';
import { useSession } from '../../lib/session';
import { useManagerBrand } from '../shell/managerBrand';
import { PERIODS, durationText, periodRange, rateText, type PeriodKey } from './quality';

const Report = graphql(`
  query BranchQualityReport($brandId: Int, $fromDate: DateTime, $toDate: DateTime) {
    report: QualityReport_GetBranchQualityReport(brandId: $brandId, fromDate: $fromDate, toDate: $toDate) {
      overall { orders accepted medianAcceptSeconds p90AcceptSeconds medianReadySeconds rejected notAcceptedInTime noShows refunded refundedAmount }
      branches {
        branchId branchName brandId brandName
        orders accepted medianAcceptSeconds p90AcceptSeconds medianReadySeconds rejected notAcceptedInTime noShows refunded refundedAmount
      }
    }
  }
`);

/** Past these, a figure is shown as needing attention (docs/decisions.md "Quality report"). */
const SLOW_ACCEPT_SECONDS = 5 * 60;
const HIGH_REJECTION = 0.1;

/** /QualityReport: how each branch serves, over a period (docs/decisions.md "Quality report"). */
export default function QualityReportPage() {
  const { role } = useSession();
  const managerBrand = useManagerBrand();
  const [period, setPeriod] = useState<PeriodKey>('7d');
  // The period's moments are fixed when it is chosen, so the query's variables stay stable.
  const range = useMemo(() => periodRange(period, new Date()), [period]);
  const brandId = can(role, 'brand.switch') ? managerBrand ?? undefined : undefined;
  const { data, loading, error } = useQuery(Report, { variables: { brandId, ...range }, fetchPolicy: 'cache-and-network' });
  const report = data?.report;
  const o = report?.overall;
  const rows = (report?.branches ?? []).flatMap((b) => (b ? [b] : []));

  return (
    <div className="console-page quality-page">
      <div className="quality-head">
        <H2>Quality report</H2>
        {loading && <Spinner size={16} aria-label="Loading" />}
        <HTMLSelect aria-label="Period" value={period} onChange={(e) => setPeriod(e.target.value as PeriodKey)}>
          {PERIODS.map((p) => <option key={p.key} value={p.key}>{p.label}</option>)}
        </HTMLSelect>
      </div>
      {error && <Callout intent="danger" title="The report did not load.">{errorMessage(error)}</Callout>}
      {o && (
        <div className="quality-cards" aria-label="Whole period">
          <Figure label="Orders" value={String(o.orders)} />
          <Figure label="Median time to accept" value={durationText(o.medianAcceptSeconds)} warn={(o.medianAcceptSeconds ?? 0) > SLOW_ACCEPT_SECONDS} />
          <Figure label="Median time to ready" value={durationText(o.medianReadySeconds)} />
          <Figure label="Rejected" value={rateText(o.rejected, o.orders)} warn={o.orders > 0 && o.rejected / o.orders > HIGH_REJECTION} />
          <Figure label="Not accepted in time" value={String(o.notAcceptedInTime)} warn={o.notAcceptedInTime > 0} />
          <Figure label="No-shows" value={String(o.noShows)} />
          <Figure label="Refunded" value={`${o.refunded} · ${formatMoney(o.refundedAmount)}`} />
        </div>
      )}
      <div className="quality-table-box">
        <HTMLTable compact striped className="quality-table" aria-label="By branch">
          <thead>
            <tr>
              <th scope="col">Branch</th><th scope="col">Brand</th><th scope="col">Orders</th>
              <th scope="col">Accept (median · p90)</th><th scope="col">Ready (median)</th><th scope="col">Rejected</th>
              <th scope="col">Not accepted in time</th><th scope="col">No-shows</th><th scope="col">Refunded</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((b) => (
              <tr key={b.branchId}>
                <th scope="row">{b.branchName}</th>
                <td>{b.brandName}</td>
                <td>{b.orders}</td>
                <td>
                  <Flag warn={(b.medianAcceptSeconds ?? 0) > SLOW_ACCEPT_SECONDS}>{durationText(b.medianAcceptSeconds)}</Flag>
                  {' · '}{durationText(b.p90AcceptSeconds)}
                </td>
                <td>{durationText(b.medianReadySeconds)}</td>
                <td><Flag warn={b.orders > 0 && b.rejected / b.orders > HIGH_REJECTION}>{rateText(b.rejected, b.orders)}</Flag></td>
                <td><Flag warn={b.notAcceptedInTime > 0}>{String(b.notAcceptedInTime)}</Flag></td>
                <td>{b.noShows}</td>
                <td>{b.refunded ? `${b.refunded} · ${formatMoney(b.refundedAmount)}` : '0'}</td>
              </tr>
            ))}
            {!rows.length && !loading && <tr><td colSpan={9}>No branches to report on.</td></tr>}
          </tbody>
        </HTMLTable>
      </div>
      <p className="quality-note">
        Times run from placing an order to accepting it, and from accepting to ready. Rejected counts the orders the branch or the
        acceptance deadline turned down; refunds are counted on their own.
      </p>
    </div>
  );
}

function Figure({ label, value, warn }: { label: string; value: string; warn?: boolean }) {
  return (
    <Card className="quality-card">
      <div className="quality-card-label">{label}</div>
      <div className="quality-card-value">{warn ? <Tag intent="warning" large>{value}</Tag> : value}</div>
    </Card>
  );
}

const Flag = ({ warn, children }: { warn: boolean; children: string }) => (warn ? <Tag intent="warning" minimal>{children}</Tag> : <>{children}</>);
