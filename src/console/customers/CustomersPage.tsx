import { AnchorButton, Intent } from '@blueprintjs/core';
import { PlusIcon } from '@blueprintjs/icons';
import { useLocation } from 'wouter';
import { ResourceScreen } from '../resources/ResourceScreen';
import { customersScreen } from '../resources/configs/customers';

/** /customers — the list of the shape, with the way to /customers/new-customer above it. */
export default function CustomersPage() {
  const [, navigate] = useLocation();
  return (
    <ResourceScreen config={customersScreen} toolbar={(
      <div className="resource-head-actions">
        <AnchorButton intent={Intent.PRIMARY} icon={<PlusIcon />} text="New customer" href="/customers/new-customer"
          onClick={(e) => { e.preventDefault(); navigate('/customers/new-customer'); }} />
      </div>
    )} />
  );
}
