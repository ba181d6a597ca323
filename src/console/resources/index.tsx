import type { ComponentType } from 'react';
import { lazyChunk } from '../../lib/lazy';
import type { AnyResourceConfig } from './types';
import { taxScreen } from './configs/tax';
import { appUpdatesScreen } from './configs/appUpdates';
import { companiesScreen } from './configs/companies';
import { brandEditScreen, brandNewScreen, brandsScreen } from './configs/brands';
import { branchesScreen } from './configs/branches';
import { brandAddressFieldsScreen } from './configs/brandAddressFields';
import { brandDeliveryFeesScreen } from './configs/brandDeliveryFees';
import { brandPaymentsScreen } from './configs/brandPayments';
import { newsScreen } from './configs/news';
import { customersScreen } from './configs/customers';
import { customerRequestsScreen } from './configs/customerRequests';
import { paymentHistoryScreen } from './configs/paymentHistory';
import { paymentReconciliationScreen } from './configs/paymentReconciliation';
import { balanceRequestsScreen } from './configs/balanceRequests';

/**
 * Every admin screen built on the resource shape: the one place a console resource is
 * registered (its config in ./configs). The screen itself (Table2, form) is one lazy chunk.
 */
export const RESOURCE_SCREENS: AnyResourceConfig[] = [taxScreen, appUpdatesScreen, companiesScreen, brandsScreen, brandNewScreen, brandEditScreen,
  branchesScreen, brandAddressFieldsScreen, brandDeliveryFeesScreen, brandPaymentsScreen, customersScreen, customerRequestsScreen, balanceRequestsScreen,
  newsScreen, paymentHistoryScreen, paymentReconciliationScreen];

const screenOf = (config: AnyResourceConfig) =>
  lazyChunk(() => import('./ResourceScreen').then((m) => ({ default: () => <m.ResourceScreen key={config.path} config={config} urlKey="" /> })));

/** Pages by route pattern, for the console's page registry (../pages.tsx). */
export const RESOURCE_PAGES: Record<string, ComponentType> = {
  ...Object.fromEntries(RESOURCE_SCREENS.map((c) => [c.path, screenOf(c)])),
  // Two lists of the same shape behind tabs; the server's calls stay hand-written.
  '/ValidationCode': lazyChunk(() => import('./configs/validationCodes')),
  // The company's row, then its brands: two lists of the shape on one page.
  '/companies/:id': lazyChunk(() => import('./configs/companyPage')),
  // The schedule under its branch's name.
  '/branch/schedule/:id': lazyChunk(() => import('./configs/branchSchedule')),
  // Loyalty: a branch's three kinds of reward program on one page; a customer's profile, balances and ledger.
  '/branches/reward-programs/:id': lazyChunk(() => import('./configs/rewardPrograms')),
  '/customers/:id': lazyChunk(() => import('../customers/CustomerPage')),
  // Groups: the tree beside the list of the shape; a group's customers and its pre-invitation list (../customers/groups).
  '/groups': lazyChunk(() => import('../customers/groups/GroupsPage')),
  '/groups/:id': lazyChunk(() => import('../customers/groups/GroupPage')),
  '/customers/new-customer': lazyChunk(() => import('../customers/NewCustomerPage')),
  // The customers list with its New customer button (the list itself is ./configs/customers).
  '/customers': lazyChunk(() => import('../customers/CustomersPage')),
};
