import { Card, H2, HTMLTable } from '@blueprintjs/core';
import { useQuery } from '@apollo/client/react';
import { graphql } from '../../gql';
import { useSession } from '../../lib/session';
import { can } from '../../../domain/permissions';
import { OrderStatusCounts } from './OrderStatusCounts';
import { StatisticsCharts } from './StatisticsCharts';
import { SmsSendsPerDay } from './SmsSendsPerDay';

/** The names of the user's company, brand and branch (the session keeps only their ids). */
const ScopeNames = graphql(`
  query DashboardScopeNames($id: Int!) {
    user: User_Get(Id: $id) { id companyName brandName branchName }
  }
`);

/** The signed-in user's scope, and the orders of that scope by status. */
export default function DashboardPage() {
  const { profile, role } = useSession();
  const names = useQuery(ScopeNames, { variables: { id: profile?.id ?? 0 }, skip: !profile, context: { silent: true } }).data?.user;
  // The name once it is known; the id meanwhile (or if the name cannot be read), never a bare '#7' when a name exists.
  const nameOr = (name: string | null | undefined, id: number) => name ?? (names ? `#${id}` : '…');
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
      {can(role, 'orders.view') && <OrderStatusCounts role={role} />}
      {can(role, 'statistics.brand') && <StatisticsCharts />}
      {can(role, 'sms.guard') && <SmsSendsPerDay />}
    </div>
  );
}
