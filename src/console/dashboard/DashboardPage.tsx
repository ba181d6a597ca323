import { Card, H2, HTMLTable } from '@blueprintjs/core';
import { useSession } from '../../lib/session';
import { can } from '../../../domain/permissions';
import { OrderStatusCounts } from './OrderStatusCounts';
import { StatisticsCharts } from './StatisticsCharts';

/** The signed-in user's scope, and the orders of that scope by status. */
export default function DashboardPage() {
  const { profile, role } = useSession();
  return (
    <div className="console-page">
      <H2>Welcome, {profile?.fullName}</H2>
      <Card className="console-card">
        <HTMLTable compact>
          <tbody>
            <tr><th>Role</th><td>{role}</td></tr>
            <tr><th>E-mail</th><td>{profile?.emailAddress ?? '—'}</td></tr>
            {profile?.companyId != null && <tr><th>Company</th><td>#{profile.companyId}</td></tr>}
            {profile?.brandId != null && <tr><th>Brand</th><td>#{profile.brandId}</td></tr>}
            {profile?.branchId != null && <tr><th>Branch</th><td>#{profile.branchId}</td></tr>}
          </tbody>
        </HTMLTable>
      </Card>
      {can(role, 'orders.view') && <OrderStatusCounts role={role} />}
      {can(role, 'statistics.brand') && <StatisticsCharts />}
    </div>
  );
}
