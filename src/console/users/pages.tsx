import './users.css';
import { useLocation } from 'wouter';
import { Button, Card, H2, Spinner } from '@blueprintjs/core';
import { TickIcon } from '@blueprintjs/icons';
import { useSession } from '../../lib/session';
import { ResourceScreen } from '../resources/ResourceScreen';
import { managerBrand, useManagerBrand } from '../shell/managerBrand';
import { useBrands } from './places';
import { branchUsersScreen, brandUsersScreen, usersScreen } from './screens';

/**
 * /UserManagement. A brand manager sees the users of the brand chosen in the top bar (a filter
 * within their scope); the screen starts again when the brand changes.
 */
export function UserManagementPage() {
  const { role } = useSession();
  const brandId = useManagerBrand();
  if (role === 'BRAND_MANAGER' && brandId) {
    return <ResourceScreen key={brandId} config={{ ...usersScreen, fixedFilter: () => ({ brandId }) }} urlKey="" />;
  }
  return <ResourceScreen config={usersScreen} urlKey="" />;
}

export const BrandUsersPage = () => <ResourceScreen config={brandUsersScreen} urlKey="" />;
export const BranchUsersPage = () => <ResourceScreen config={branchUsersScreen} urlKey="" />;

/** /select_brand: a brand manager picks the brand the console works in; the dashboard follows. */
export function SelectBrandPage() {
  const brands = useBrands();
  const current = useManagerBrand();
  const [, navigate] = useLocation();
  return (
    <div className="console-page select-brand">
      <H2>Select Brand</H2>
      {!brands.length ? <Spinner aria-label="Loading" /> : (
        <div className="select-brand-list" role="list" aria-label="Your brands">
          {brands.map((b) => (
            <Card key={b.id} role="listitem" compact className="select-brand-card" selected={b.id === current}>
              <strong>{b.name}</strong>
              <Button
                intent={b.id === current ? 'success' : 'primary'}
                icon={b.id === current ? <TickIcon /> : undefined}
                text={b.id === current ? 'Current brand' : 'Work in this brand'}
                onClick={() => { managerBrand.choose(b.id); navigate('/dashboard'); }}
              />
            </Card>
          ))}
        </div>
      )}
    </div>
  );
}
