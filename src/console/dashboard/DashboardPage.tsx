import { useMemo } from 'react';
import { useLocation, useSearch } from 'wouter';
import { Card, H2, HTMLTable } from '@blueprintjs/core';
import { useQuery } from '@apollo/client/react';
import { graphql } from '../../gql';
import { useSession } from '../../lib/session';
import { can } from '../../../domain/permissions';
import { dateText } from '../../../domain/time';
import { OrderStatusCounts } from './OrderStatusCounts';
import { StatisticsCharts } from './StatisticsCharts';
import { SmsSendsPerDay } from './SmsSendsPerDay';
import { DashboardFilterBar, usePlaces } from './DashboardFilterBar';
import { daysOf, filterFromSearch, PERIOD_LABELS, periodOf, searchFromFilter, type DashboardFilter } from './dashboardFilter';
import { ScanHeadlines } from '../qrscans/ScanHeadlines';
import { useManagerBrand } from '../shell/managerBrand';

/** The names of the user's company, brand and branch (the session keeps only their ids). */
const ScopeNames = graphql(`
  query DashboardScopeNames($id: Int!) {
    user: User_Get(Id: $id) { id companyName brandName branchName }
  }
`);

/** The signed-in user's scope, the filter (period, brand, branch: kept in the address), and the figures of that filter. */
export default function DashboardPage() {
  const { profile, role } = useSession();
  const names = useQuery(ScopeNames, { variables: { id: profile?.id ?? 0 }, skip: !profile, context: { silent: true } }).data?.user;
  // The name once it is known; the id meanwhile (or if the name cannot be read), never a bare '#7' when a name exists.
  const nameOr = (name: string | null | undefined, id: number) => name ?? (names ? `#${id}` : '…');
  const search = useSearch();
  const [, navigate] = useLocation();
  const filter = useMemo(() => filterFromSearch(search), [search]);
  const managerBrand = useManagerBrand();
  // A brand manager's brand is the one chosen in the top bar; the others choose in the filter.
  const chooseBrand = can(role, 'statistics.company');
  const brandId = chooseBrand ? filter.brandId ?? null : managerBrand;
  const stats = can(role, 'statistics.brand');
  const places = usePlaces(chooseBrand ? null : managerBrand, stats);
  const period = useMemo(() => periodOf(filter), [filter]);
  const setFilter = (f: DashboardFilter) => navigate(`/dashboard${searchFromFilter(f)}`);
  const title = statisticsTitle(filter, brandId, places);

  return (
    <div className="console-page">
      <H2>Welcome, {profile?.fullName}</H2>
      <Card className="console-card">
        <HTMLTable compact>
          <tbody>
            <tr><th>Role</th><td>{role}</td></tr>
            <tr><th>E-mail</th><td>{profile?.emailAddress ?? '—'}</td></tr>
            {profile?.companyId != null && <tr><th>Company</th><td data-testid="scope-company">{nameOr(names?.companyName, profile.companyId)}</td></tr>}
            {profile?.brandId != null && <tr><th>Brand</th><td data-testid="scope-brand">{nameOr(names?.brandName, profile.brandId)}</td></tr>}
            {profile?.branchId != null && <tr><th>Branch</th><td data-testid="scope-branch">{nameOr(names?.branchName, profile.branchId)}</td></tr>}
          </tbody>
        </HTMLTable>
      </Card>
      {stats && <DashboardFilterBar filter={filter} onChange={setFilter} chooseBrand={chooseBrand} places={places} />}
      {can(role, 'orders.view') && <OrderStatusCounts role={role} />}
      {stats && <StatisticsCharts brandId={brandId} branchId={filter.branchId} period={period} title={title} />}
      {stats && can(role, 'brands.qrScans') && <section className="stat-grid" aria-label="Reward card scans figures"><ScanHeadlines brandId={brandId} period={period} /></section>}
      {can(role, 'sms.guard') && <SmsSendsPerDay />}
    </div>
  );
}

/** "Statistics · Last week (Sunday to Saturday), 16 Nov 2025 – 22 Nov 2025 · Mango Coffee, Salmiya": what the figures cover. */
function statisticsTitle(filter: DashboardFilter, brandId: number | null, places: ReturnType<typeof usePlaces>): string {
  const days = daysOf(filter);
  const when = days ? `${filter.period === 'custom' ? '' : `${PERIOD_LABELS[filter.period]}, `}${days.first === days.last ? dateText(`${days.first}T12:00:00Z`) : `${dateText(`${days.first}T12:00:00Z`)} – ${dateText(`${days.last}T12:00:00Z`)}`}` : PERIOD_LABELS.all;
  // The names once the tree of places is read ('…' meanwhile); an id the tree does not hold is shown as such.
  const nameOf = (found: string | undefined, fallback: string) => found ?? (places.loaded ? fallback : '…');
  const brand = brandId ? nameOf(places.brands.find((b) => b.id === brandId)?.name, `Brand ${brandId}`) : 'Every brand';
  const branch = filter.branchId ? nameOf(places.branches.find((b) => b.id === filter.branchId)?.name, `Branch ${filter.branchId}`) : null;
  return `Statistics · ${when} · ${branch ? `${brand}, ${branch}` : brand}`;
}
