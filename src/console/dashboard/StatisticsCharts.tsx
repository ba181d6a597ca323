import { useQuery } from '@apollo/client/react';
import { Callout, Card, H3, HTMLTable, Spinner } from '@blueprintjs/core';
import { graphql } from '../../gql';
import { Chart, ChartCard } from '../charts/Chart';
import { can, type Role } from '../../../domain/permissions';
import { formatMoney } from '../../../domain/money';
import { errorMessage } from '../../lib/errors';
import { useSession } from '../../lib/session';

const General = graphql(`query DashboardGeneralStatistic($branchId: Int, $fromDate: DateTime, $toDate: DateTime) { stat: Statistic_GetGeneralStatistic(branchId: $branchId, fromDate: $fromDate, toDate: $toDate) { companies brands branches orders customers registeredCustomers revenue refunded refundsDue newCustomers returningCustomers ordersByWeekdayHour { weekday hour orders } revenueByBranch { branchId branchName brandName orders revenue } } }`);
const ByCompany = graphql(`query DashboardCompanyStatistic($branchId: Int, $fromDate: DateTime, $toDate: DateTime) { stat: Statistic_GetStatisticByCompany(branchId: $branchId, fromDate: $fromDate, toDate: $toDate) { companies brands branches orders customers registeredCustomers revenue refunded refundsDue newCustomers returningCustomers ordersByWeekdayHour { weekday hour orders } revenueByBranch { branchId branchName brandName orders revenue } } }`);
const ByBrand = graphql(`query DashboardBrandStatistic($brandId: Int!, $branchId: Int, $fromDate: DateTime, $toDate: DateTime) { stat: Statistic_GetStatisticByBrand(brandId: $brandId, branchId: $branchId, fromDate: $fromDate, toDate: $toDate) { companies brands branches orders customers registeredCustomers revenue refunded refundsDue newCustomers returningCustomers ordersByWeekdayHour { weekday hour orders } revenueByBranch { branchId branchName brandName orders revenue } } }`);

export const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const HOURS = Array.from({ length: 24 }, (_, h) => `${String(h).padStart(2, '0')}:00`);

type Stat = {
  companies: number; brands: number; branches: number; orders: number; customers: number; registeredCustomers: number;
  revenue: number; refunded: number; refundsDue: number;
  newCustomers: number; returningCustomers: number;
  ordersByWeekdayHour: ({ weekday: number; hour: number; orders: number } | null)[];
  revenueByBranch: ({ branchId: number; branchName: string; brandName: string; orders: number; revenue: number } | null)[];
};


/**
 * Which statistics the dashboard reads (SPEC.md 6): a brand's when one is chosen (a brand manager's
 * always), else general for ADMIN and the company's for COMPANY_ADMIN; narrowed to the filter's
 * branch and period.
 */
function useStatistic(role: Role | string | null, brandId: number | null, branchId: number | undefined, period: { fromDate?: string; toDate?: string }) {
  const common = { fetchPolicy: 'network-only', context: { silent: true } } as const;
  const scope = { branchId, ...period };
  const general = useQuery(General, { ...common, variables: scope, skip: role !== 'ADMIN' || !!brandId });
  const company = useQuery(ByCompany, { ...common, variables: scope, skip: role !== 'COMPANY_ADMIN' || !!brandId });
  const brand = useQuery(ByBrand, { ...common, variables: { brandId: brandId ?? 0, ...scope }, skip: !can(role, 'statistics.brand') || !brandId });
  const active = brandId ? brand : role === 'ADMIN' ? general : company;
  return { stat: (active.data?.stat ?? null) as Stat | null, loading: active.loading, error: active.error };
}

/**
 * The statistics of the dashboard's filter: what is counted, said in each row's name (issue 23:
 * "Customers 0" while 28 existed counted only customers who ordered), then orders by weekday ×
 * hour, revenue by branch, new and returning customers.
 */
export function StatisticsCharts({ brandId, branchId, period, title }: {
  brandId: number | null; branchId?: number; period: { fromDate?: string; toDate?: string }; title: string;
}) {
  const { role } = useSession();
  const { stat, loading, error } = useStatistic(role, brandId, branchId, period);
  if (!role || !(can(role, 'statistics.brand'))) return null;
  if (loading && !stat) return <Spinner size={24} aria-label="Loading statistics" />;
  if (error && !stat) return <Callout intent="danger" title="Statistics">{errorMessage(error)}</Callout>;
  if (!stat) return null;

  const cells = stat.ordersByWeekdayHour.filter((c) => !!c);
  const branches = stat.revenueByBranch.filter((b) => !!b);
  const max = Math.max(1, ...cells.map((c) => c.orders));
  /** Label, testid, value, and what the figure counts (shown under its name). */
  const counts: [string, string, string, string?][] = [
    ['Companies', 'companies', String(stat.companies)], ['Brands', 'brands', String(stat.brands)], ['Branches', 'branches', String(stat.branches)],
    ['Orders', 'orders', String(stat.orders), 'placed in the period, whatever became of them'],
    ['Customers who ordered', 'customers', String(stat.customers), 'registered customers with an order in the period (guests are not counted)'],
    ['Registered customers', 'registered-customers', String(stat.registeredCustomers), 'all the customers of this scope, as the Customers list counts them'],
    ['Revenue', 'revenue', formatMoney(stat.revenue), 'payments recorded (online, and cash collected at the branch), less completed refunds'],
    ['Refunded', 'refunded', formatMoney(stat.refunded), 'given back to customers: already taken off revenue'],
    ['Refunds due', 'refunds-due', formatMoney(stat.refundsDue), 'decided but not yet given back: still in revenue'],
  ];
  return (
    <section className="stat-grid" aria-label="Statistics">
      <Card className="console-card stat-counts" role="region" aria-label="Counts">
        <H3 className="stat-counts__title" data-testid="stat-title">{title}</H3>
        <HTMLTable compact>
          <tbody>
            {counts.map(([label, id, value, what]) => (
              <tr key={id}>
                <th><span>{label}</span>{what && <div className="stat-counts__what">{what}</div>}</th>
                <td className="stat-counts__value" data-testid={`stat-${id}`}>{value}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
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
