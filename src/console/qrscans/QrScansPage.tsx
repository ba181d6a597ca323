import { useMemo, useState, type FormEvent } from 'react';
import { useQuery } from '@apollo/client/react';
import { Link, useParams } from 'wouter';
import { Button, Callout, Card, H2, HTMLTable, Spinner } from '@blueprintjs/core';
import { graphql } from '../../gql';
import type { QrScanFiguresQuery } from '../../gql/graphql';
import { errorMessage } from '../../lib/errors';
import { Chart, ChartCard, type ChartOption } from '../charts/Chart';
import './qrscans.css';
import { dateTimeText, dayKey } from '../../../domain/time';
import { dayRangeProblem, periodOfDays } from '../dashboard/dashboardFilter';
import { DayRangeFields } from '../dashboard/DayRangeFields';

const Figures = graphql(`
  query QrScanFigures($brandId: Int!, $fromDate: DateTime!, $toDate: DateTime!) {
    scans: Statistic_GetCustomerRewardCardScanStatisticByDates(brandId: $brandId, fromDate: $fromDate, toDate: $toDate) {
      customers scanned notScanned newCustomers returnedCustomers male female genderNotGiven scans rewardScans redemptionScans
      ageBands { band customers }
      byDate { date scans rewardScans redemptionScans customers }
    }
    profiles: Statistic_GetCustomerProfileStats(brandId: $brandId) { customers male female genderNotGiven ageBands { band customers } }
    branches: Statistic_GetRewardCardsScansStatistic(brandId: $brandId, fromDate: $fromDate, toDate: $toDate) {
      byBranch { branchId branchName scans rewardScans redemptionScans customers }
    }
  }
`);
const RecentScans = graphql(`
  query QrScanList($brandId: Int!, $fromDate: DateTime!, $toDate: DateTime!, $skip: Int!) {
    list: RewardCardScans_GetUserRewardCardScansInfo(BrandId: $brandId, FromDate: $fromDate, ToDate: $toDate, SkipCount: $skip, MaxResultCount: 10) {
      totalCount data { id customerId customerName branchName scanType gender ageBand createdAt }
    }
  }
`);

const DAY = 24 * 3600 * 1000;
const GENDER_LABEL: Record<string, string> = { male: 'Male', female: 'Female' };

/**
 * /brands/qrscans/{brandId}/{brandName}: a brand's reward card scans between two days (the last
 * 30 by default): scanned and not scanned, gender, age bands, new and returned, reward and
 * redemption, by date and by branch, each chart with its table; then the scans themselves.
 */
export default function QrScansPage() {
  const params = useParams<{ brandId: string; brandName: string }>();
  const brandId = Number(params.brandId);
  const brandName = safeDecode(params.brandName ?? '');
  const today = dayKey(new Date());
  const [range, setRange] = useState({ from: dayKey(Date.now() - 29 * DAY), to: today });
  const [draft, setDraft] = useState(range);
  const [problem, setProblem] = useState<string | null>(null);
  const [skip, setSkip] = useState(0);
  const period = useMemo(() => periodOfDays(range.from, range.to), [range]);
  const valid = Number.isInteger(brandId) && brandId > 0;
  const figures = useQuery(Figures, { variables: { brandId, ...period }, skip: !valid, fetchPolicy: 'network-only', context: { silent: true } });
  const recent = useQuery(RecentScans, { variables: { brandId, ...period, skip }, skip: !valid, fetchPolicy: 'network-only', context: { silent: true } });

  const apply = (e: FormEvent) => {
    e.preventDefault();
    const wrong = dayRangeProblem(draft.from, draft.to);
    setProblem(wrong);
    if (wrong) return;
    setSkip(0);
    setRange(draft);
  };

  return (
    <div className="console-page qrscans-page" data-testid="qrscans-page">
      <H2>QR scans · {brandName || `Brand ${params.brandId}`}</H2>
      <Card className="console-card">
        <form className="qrscans-range" onSubmit={apply} aria-label="Period">
          <DayRangeFields idPrefix="qrscans" value={draft} max={today} onChange={setDraft} />
        </form>
        {problem && <Callout intent="warning" role="alert">{problem}</Callout>}
      </Card>
      {!valid && <Callout intent="danger">There is no such brand.</Callout>}
      {figures.loading && !figures.data && <Spinner size={24} aria-label="Loading scan statistics" />}
      {figures.error && !figures.data && <Callout intent="danger" title="QR scans">{errorMessage(figures.error)}</Callout>}
      {figures.data && <ScanFigures data={figures.data} />}
      <Card className="console-card" role="region" aria-label="Scans">
        <h3>Scans</h3>
        <HTMLTable compact striped className="stat-table" data-testid="qrscans-list">
          <thead><tr><th>When</th><th>Customer</th><th>Branch</th><th>Type</th><th>Gender</th><th>Age band</th></tr></thead>
          <tbody>
            {(recent.data?.list?.data ?? []).flatMap((s) => (s ? [(
              <tr key={s.id}>
                <td>{dateTimeText(s.createdAt)}</td>
                <td><Link href={`/customers/${s.customerId}`}>{s.customerName}</Link></td>
                <td>{s.branchName}</td><td>{s.scanType === 'redemption' ? 'Redemption' : 'Reward'}</td>
                <td>{GENDER_LABEL[s.gender ?? ''] ?? 'Not given'}</td><td>{s.ageBand}</td>
              </tr>
            )] : []))}
            {!recent.loading && !recent.data?.list?.data?.length && <tr><td colSpan={6}>No scans in this period.</td></tr>}
          </tbody>
        </HTMLTable>
        <div className="qrscans-pager">
          <Button disabled={skip === 0} onClick={() => setSkip(Math.max(0, skip - 10))} text="Newer" />
          <span>{recent.data?.list ? `${Math.min(skip + 1, recent.data.list.totalCount)}–${Math.min(skip + 10, recent.data.list.totalCount)} of ${recent.data.list.totalCount}` : ''}</span>
          <Button disabled={skip + 10 >= (recent.data?.list?.totalCount ?? 0)} onClick={() => setSkip(skip + 10)} text="Older" />
        </div>
      </Card>
    </div>
  );
}

function safeDecode(text: string) {
  try { return decodeURIComponent(text); } catch { return text; }
}

type FiguresData = QrScanFiguresQuery;

/** A two-column table: label and count (or more columns), the numbers a chart shows. */
function CountTable({ label, head, rows }: { label: string; head: string[]; rows: (string | number)[][] }) {
  return (
    <HTMLTable compact striped className="stat-table" aria-label={label}>
      <thead><tr>{head.map((h) => <th key={h}>{h}</th>)}</tr></thead>
      <tbody>{rows.map((r) => <tr key={String(r[0])}>{r.map((c, i) => <td key={i}>{c}</td>)}</tr>)}</tbody>
    </HTMLTable>
  );
}

const pie = (name: string, data: [string, number][]): ChartOption => ({
  tooltip: { trigger: 'item' },
  legend: { bottom: 0 },
  series: [{ name, type: 'pie', radius: ['40%', '70%'], label: { formatter: '{b}: {c}' }, data: data.map(([n, value]) => ({ name: n, value })) }],
});
const bars = (categories: string[], series: [string, number[]][], stacked = false): ChartOption => ({
  tooltip: { trigger: 'axis' },
  legend: { bottom: 0 },
  grid: { left: 48, right: 16, top: 16, bottom: 56 },
  xAxis: { type: 'category', data: categories },
  yAxis: { type: 'value', minInterval: 1 },
  series: series.map(([name, data]) => ({ name, type: 'bar', data, ...(stacked ? { stack: 'all' } : { label: { show: true, position: 'top' } }) })),
});

function ScanFigures({ data }: { data: FiguresData }) {
  const s = data.scans;
  const p = data.profiles;
  const options = useMemo(() => {
    if (!s || !p) return null;
    const days = s.byDate.flatMap((d) => (d ? [d] : []));
    const bands = s.ageBands.flatMap((b) => (b ? [b] : []));
    const allBands = new Map(p.ageBands.flatMap((b) => (b ? [[b.band, b.customers] as const] : [])));
    const branches = (data.branches?.byBranch ?? []).flatMap((b) => (b ? [b] : []));
    return {
      days, bands, allBands, branches,
      byDate: bars(days.map((d) => d.date), [['Reward', days.map((d) => d.rewardScans)], ['Redemption', days.map((d) => d.redemptionScans)]], true),
      scanned: pie('Customers', [['Scanned', s.scanned], ['Not scanned', s.notScanned]]),
      gender: bars(['Male', 'Female', 'Not given'], [['Scanned in the period', [s.male, s.female, s.genderNotGiven]], ['All customers', [p.male, p.female, p.genderNotGiven]]]),
      age: bars(bands.map((b) => b.band), [['Scanned in the period', bands.map((b) => b.customers)], ['All customers', bands.map((b) => allBands.get(b.band) ?? 0)]]),
      newReturned: pie('Customers', [['New', s.newCustomers], ['Returned', s.returnedCustomers]]),
      kinds: pie('Scans', [['Reward', s.rewardScans], ['Redemption', s.redemptionScans]]),
      byBranch: bars(branches.map((b) => b.branchName), [['Reward', branches.map((b) => b.rewardScans)], ['Redemption', branches.map((b) => b.redemptionScans)]], true),
    };
  }, [s, p, data.branches]);
  if (!s || !p || !options) return null;
  const counts: [string, number, string][] = [
    ['Scans', s.scans, 'scans'], ['Reward scans', s.rewardScans, 'reward'], ['Redemption scans', s.redemptionScans, 'redemption'],
    ['Customers scanned', s.scanned, 'scanned'], ['Not scanned', s.notScanned, 'not-scanned'], ['New', s.newCustomers, 'new'], ['Returned', s.returnedCustomers, 'returned'],
  ];
  return (
    <section className="stat-grid" aria-label="Scan statistics">
      <Card className="console-card stat-counts" role="region" aria-label="Counts">
        <HTMLTable compact>
          <tbody>{counts.map(([label, n, id]) => <tr key={id}><th>{label}</th><td data-testid={`qrscans-${id}`}>{n}</td></tr>)}</tbody>
        </HTMLTable>
      </Card>
      <ChartCard title="Scans by date" chart={<Chart label={`Scans by date, ${s.scans} scans`} option={options.byDate} />}
        table={<CountTable label="Scans by date" head={['Date', 'Reward', 'Redemption', 'Scans', 'Customers']} rows={options.days.map((d) => [d.date, d.rewardScans, d.redemptionScans, d.scans, d.customers])} />} />
      <ChartCard title="Scanned and not scanned" chart={<Chart label={`Scanned ${s.scanned}, not scanned ${s.notScanned}`} option={options.scanned} />}
        table={<CountTable label="Scanned and not scanned" head={['Customers', 'Count']} rows={[['Scanned', s.scanned], ['Not scanned', s.notScanned]]} />} />
      <ChartCard title="Gender" chart={<Chart label={`Scanned customers: male ${s.male}, female ${s.female}, not given ${s.genderNotGiven}`} option={options.gender} />}
        table={<CountTable label="Gender" head={['Gender', 'Scanned in the period', 'All customers']} rows={[['Male', s.male, p.male], ['Female', s.female, p.female], ['Not given', s.genderNotGiven, p.genderNotGiven]]} />} />
      <ChartCard title="Age bands" chart={<Chart label={`Scanned customers by age band: ${options.bands.map((b) => `${b.band} ${b.customers}`).join(', ')}`} option={options.age} />}
        table={<CountTable label="Age bands" head={['Age band', 'Scanned in the period', 'All customers']} rows={options.bands.map((b) => [b.band, b.customers, options.allBands.get(b.band) ?? 0])} />} />
      <ChartCard title="New and returned customers" chart={<Chart label={`New ${s.newCustomers}, returned ${s.returnedCustomers}`} option={options.newReturned} />}
        table={<CountTable label="New and returned customers" head={['Customers', 'Count']} rows={[['New', s.newCustomers], ['Returned', s.returnedCustomers]]} />} />
      <ChartCard title="Reward and redemption scans" chart={<Chart label={`Reward ${s.rewardScans}, redemption ${s.redemptionScans}`} option={options.kinds} />}
        table={<CountTable label="Reward and redemption scans" head={['Scans', 'Count']} rows={[['Reward', s.rewardScans], ['Redemption', s.redemptionScans]]} />} />
      <ChartCard title="Scans by branch" chart={<Chart label="Scans by branch" option={options.byBranch} />}
        table={<CountTable label="Scans by branch" head={['Branch', 'Reward', 'Redemption', 'Scans', 'Customers']} rows={options.branches.map((b) => [b.branchName, b.rewardScans, b.redemptionScans, b.scans, b.customers])} />} />
    </section>
  );
}
