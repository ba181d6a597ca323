import { useQuery } from '@apollo/client/react';
import { Callout, Card, HTMLTable, Spinner } from '@blueprintjs/core';
import { graphql } from '../../gql';
import { Chart, ChartCard } from '../charts/Chart';
import { QrScansLink } from '../qrscans/QrScansLink';
import { can, type Role } from '../../../domain/permissions';
import { formatMoney } from '../../../domain/money';
import { errorMessage } from '../../lib/errors';
import { useManagerBrand } from '../shell/managerBrand';
import { useSession } from '../../lib/session';

const General = graphql(`query DashboardGeneralStatistic { stat: Statistic_GetGeneralStatistic { companies brands branches orders customers revenue newCustomers returningCustomers ordersByWeekdayHour { weekday hour orders } revenueByBranch { branchId branchName brandName orders revenue } } }`);
const ByCompany = graphql(`query DashboardCompanyStatistic { stat: Statistic_GetStatisticByCompany { companies brands branches orders customers revenue newCustomers returningCustomers ordersByWeekdayHour { weekday hour orders } revenueByBranch { branchId branchName brandName orders revenue } } }`);
const ByBrand = graphql(`query DashboardBrandStatistic($brandId: Int!) { stat: Statistic_GetStatisticByBrand(brandId: $brandId) { companies brands branches orders customers revenue newCustomers returningCustomers ordersByWeekdayHour { weekday hour orders } revenueByBranch { branchId branchName brandName orders revenue } } }`);

export const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const HOURS = Array.from({ length: 24 }, (_, h) => `${String(h).padStart(2, '0')}:00`);

type Stat = {
  companies: number; brands: number; branches: number; orders: number; customers: number; revenue: number;
  newCustomers: number; returningCustomers: number;
  ordersByWeekdayHour: ({ weekday: number; hour: number; orders: number } | null)[];
  revenueByBranch: ({ branchId: number; branchName: string; brandName: string; orders: number; revenue: number } | null)[];
};

/** Which statistics the role reads (SPEC.md 6): general for ADMIN, company for COMPANY_ADMIN, brand for BRAND_MANAGER. */
function useStatistic(role: Role | string | null, brandId: number | null) {
  const general = useQuery(General, { skip: role !== 'ADMIN', fetchPolicy: 'network-only', context: { silent: true } });
  const company = useQuery(ByCompany, { skip: role !== 'COMPANY_ADMIN', fetchPolicy: 'network-only', context: { silent: true } });
  const brand = useQuery(ByBrand, { skip: role !== 'BRAND_MANAGER' || !brandId, variables: { brandId: brandId ?? 0 }, fetchPolicy: 'network-only', context: { silent: true } });
  const active = role === 'ADMIN' ? general : role === 'COMPANY_ADMIN' ? company : brand;
  return { stat: (active.data?.stat ?? null) as Stat | null, loading: active.loading, error: active.error };
}

/** The statistics of the signed-in user's scope: counts, orders by weekday × hour, revenue by branch, new and returning customers. */
export function StatisticsCharts() {
  const { role } = useSession();
  const brandId = useManagerBrand();
  const { stat, loading, error } = useStatistic(role, brandId);
  if (!role || !(can(role, 'statistics.brand'))) return null;
  if (loading && !stat) return <Spinner size={24} aria-label="Loading statistics" />;
  if (error && !stat) return <Callout intent="danger" title="Statistics">{errorMessage(error)}</Callout>;
  if (!stat) return null;

  const cells = stat.ordersByWeekdayHour.filter((c) => !!c);
  const branches = stat.revenueByBranch.filter((b) => !!b);
  const max = Math.max(1, ...cells.map((c) => c.orders));
  const counts: [string, number][] = [
    ['Companies', stat.companies], ['Brands', stat.brands], ['Branches', stat.branches], ['Orders', stat.orders], ['Customers', stat.customers],
  ];
  return (
    <section className="stat-grid" aria-label="Statistics">
      <Card className="console-card stat-counts" role="region" aria-label="Counts">
        <HTMLTable compact>
          <tbody>
            {counts.map(([label, n]) => <tr key={label}><th>{label}</th><td data-testid={`stat-${label.toLowerCase()}`}>{n}</td></tr>)}
            <tr><th>Revenue</th><td data-testid="stat-revenue">{formatMoney(stat.revenue)}</td></tr>
          </tbody>
        </HTMLTable>
        {role === 'BRAND_MANAGER' && brandId != null && <QrScansLink brandId={brandId} />}
      </Card>
      <ChartCard
        title="Orders by weekday and hour"
        chart={<Chart label={`Orders by weekday and hour (Kuwait time), ${stat.orders} orders`} option={{
          tooltip: { position: 'top' },
          grid: { left: 90, right: 16, top: 10, bottom: 70 },
          xAxis: { type: 'category', data: HOURS, splitArea: { show: true } },
          yAxis: { type: 'category', data: WEEKDAY_NAMES, splitArea: { show: true } },
          visualMap: { min: 0, max, calculable: true, orient: 'horizontal', left: 'center', bottom: 0 },
          series: [{ name: 'Orders', type: 'heatmap', data: cells.map((c) => [c.hour, c.weekday, c.orders]), label: { show: true } }],
        }} />}
        table={(
          <HTMLTable compact striped className="stat-table" aria-label="Orders by weekday and hour">
            <thead><tr><th>Weekday</th><th>Hour (Kuwait)</th><th>Orders</th></tr></thead>
            <tbody>{cells.map((c) => <tr key={`${c.weekday}-${c.hour}`}><td>{WEEKDAY_NAMES[c.weekday]}</td><td>{HOURS[c.hour]}</td><td>{c.orders}</td></tr>)}</tbody>
          </HTMLTable>
        )}
      />
      <ChartCard
        title="Revenue by branch"
        chart={<Chart label="Revenue by branch" option={{
          tooltip: { trigger: 'axis' },
          grid: { left: 120, right: 24, top: 10, bottom: 30 },
          xAxis: { type: 'value' },
          yAxis: { type: 'category', data: branches.map((b) => `${b.branchName} (${b.brandName})`), inverse: true },
          series: [{ name: 'Revenue', type: 'bar', data: branches.map((b) => b.revenue), label: { show: true, position: 'right', formatter: ({ value }: { value: number }) => formatMoney(value) } }],
        }} />}
        table={(
          <HTMLTable compact striped className="stat-table" aria-label="Revenue by branch">
            <thead><tr><th>Branch</th><th>Brand</th><th>Orders</th><th>Revenue</th></tr></thead>
            <tbody>{branches.map((b) => <tr key={b.branchId}><td>{b.branchName}</td><td>{b.brandName}</td><td>{b.orders}</td><td>{formatMoney(b.revenue)}</td></tr>)}</tbody>
          </HTMLTable>
        )}
      />
      <ChartCard
        title="New and returning customers"
        chart={stat.customers === 0 ? <p className="stat-empty">No registered customer ordered in this scope yet (guest orders are not counted).</p> : <Chart label={`New customers ${stat.newCustomers}, returning customers ${stat.returningCustomers}`} option={{
          tooltip: { trigger: 'item' },
          legend: { bottom: 0 },
          series: [{ name: 'Customers', type: 'pie', radius: ['40%', '70%'], label: { formatter: '{b}: {c}' },
            data: [{ name: 'New', value: stat.newCustomers }, { name: 'Returning', value: stat.returningCustomers }] }],
        }} />}
        table={(
          <HTMLTable compact striped className="stat-table" aria-label="New and returning customers">
            <thead><tr><th>Customers</th><th>Count</th></tr></thead>
            <tbody>
              <tr><td>New</td><td>{stat.newCustomers}</td></tr>
              <tr><td>Returning</td><td>{stat.returningCustomers}</td></tr>
            </tbody>
          </HTMLTable>
        )}
      />
    </section>
  );
}
