import type { ComponentType } from 'react';
import { NonIdealState } from '@blueprintjs/core';
import {
  BuildIcon, DashboardIcon, OfficeIcon, ShopIcon, UpdatedIcon, GitBranchIcon, ListIcon, TimeIcon, DollarIcon, WalkIcon, DriveTimeIcon,
  PeopleIcon, PersonIcon, HistoryIcon, ApplicationsIcon, ManualIcon, GroupObjectsIcon, FeedIcon, NotificationsIcon, ChatIcon,
  InboxIcon, ExchangeIcon, KeyIcon, BankAccountIcon, ChartIcon, CreditCardIcon, StarIcon,
} from '@blueprintjs/icons';
import { can, type Role } from '../../domain/permissions';
import type { ConsoleRoute } from './shell/currentRoute';
import { lazyChunk } from '../lib/lazy';
import { loadOrderScreen } from './orders/preload';
import { RESOURCE_PAGES } from './resources';
import { MENU_PAGES } from './menu';
import { USER_PAGES } from './users';

export type { ConsoleRoute };

const orderScreen = (path: string) => lazyChunk(() => loadOrderScreen().then((m) => ({ default: m.ORDER_SCREEN_PAGES[path] })));
const notifications = (name: 'NotificationsPage' | 'NotificationRequestPage') =>
  lazyChunk(() => import('./notifications/NotificationsPages').then((m) => ({ default: m[name] })));
/** Screens registered beside their configs (./resources: the resource shape; ./menu; ./users), by route pattern. */
const registered = (path: string): ComponentType | undefined => RESOURCE_PAGES[path] ?? MENU_PAGES[path] ?? USER_PAGES[path];

const brandId = { param: 'id', kind: 'brand' } as const;
const branchId = { param: 'id', kind: 'branch' } as const;

/**
 * The one console route table (issue 22 item 3): the router, the route guard, the page titles, the
 * side menu (in this order) and its icons are all built from it. Access and menu visibility are
 * capabilities of the permission table the server reads.
 */
const ROUTES: ConsoleRoute[] = [
  { path: '/dashboard', title: 'Dashboard', access: 'dashboard.view', menu: { label: 'Dashboard', icon: DashboardIcon, visibleTo: 'menu.dashboard' }, page: lazyChunk(() => import('./dashboard/DashboardPage')) },
  { path: '/companies', title: 'Companies', access: 'companies.list', menu: { label: 'Companies', icon: OfficeIcon } },
  { path: '/companies/:id', title: 'Company', access: 'companies.view', place: { param: 'id', kind: 'company' } },
  { path: '/brands', title: 'Brands', access: 'brands.manage', menu: { label: 'Brands', icon: ShopIcon } },
  { path: '/brands/new', title: 'New Brand', access: 'brands.manage' },
  { path: '/brands/edit/:id', title: 'Edit Brand', access: 'brands.manage', place: brandId },
  { path: '/brands/users/:id', title: 'Brand Users', access: 'brands.manage', place: brandId },
  { path: '/brands/taxes/:id', title: 'Brand Taxes', access: 'brands.manage', place: brandId },
  { path: '/brands/BrandDeliveryAddressField/:id', title: 'Brand Delivery Address Fields', access: 'brands.manage', place: brandId },
  { path: '/brands/BrandDeliveryFee/:id', title: 'Brand Delivery Fee', access: 'brands.manage', place: brandId },
  { path: '/brands/payments/:id', title: 'Brand Payments', access: 'brands.manage', place: brandId },
  // A brand's reward card scans: charts by date, gender, age band (issue 13).
  { path: '/brands/qrscans/:brandId/:brandName', title: 'QR Scans', access: 'brands.qrScans', place: { param: 'brandId', kind: 'brand' }, page: lazyChunk(() => import('./qrscans/QrScansPage')) },
  { path: '/AppUpdates', title: 'App Updates', access: 'appUpdates.manage', menu: { label: 'App Updates', icon: UpdatedIcon } },
  { path: '/branches', title: 'Branches', access: 'branches.manage', menu: { label: 'Branches', icon: GitBranchIcon } },
  { path: '/branch/schedule/:id', title: 'Branch Schedule', access: 'branches.manage', place: branchId },
  { path: '/branches/reward-programs/:id', title: 'Reward Programs', access: 'branches.manage', place: branchId },
  { path: '/branches/users/:id', title: 'Branch Users', access: 'branches.manage', place: branchId },
  // A branch's kitchen printers and order settings (issue 25).
  { path: '/branches/printers/:id', title: 'Branch Printers', access: 'printers.manage', place: branchId, page: lazyChunk(() => import('./printers/PrintersPage')) },
  // Decision (issue 23): reward programs get their own menu entry; it opens on the branch to edit.
  { path: '/reward-programs', title: 'Reward Programs', access: 'branches.manage', menu: { label: 'Reward Programs', icon: StarIcon }, page: lazyChunk(() => import('./customers/RewardProgramsEntry')) },
  // The five order screens are one generic screen, one chunk (./orders/screens.ts configures each).
  { path: '/order', title: 'All Orders', access: 'orders.view', menu: { label: 'All Orders', icon: ListIcon }, page: orderScreen('/order') },
  { path: '/Currentorder', title: 'Current Orders', access: 'orders.view', menu: { label: 'Current Orders', icon: TimeIcon }, page: orderScreen('/Currentorder') },
  { path: '/unpaidorders', title: 'Unpaid Orders', access: 'orders.unpaid', menu: { label: 'Unpaid Orders', icon: DollarIcon }, page: orderScreen('/unpaidorders') },
  { path: '/pickup', title: 'Pick-up Orders', access: 'orders.branchLive', menu: { label: 'Pick-up Orders', icon: WalkIcon }, page: orderScreen('/pickup') },
  { path: '/CurrentDriveThruOrderPage', title: 'Drive-thru Orders', access: 'orders.branchLive', menu: { label: 'Drive-thru Orders', icon: DriveTimeIcon }, page: orderScreen('/CurrentDriveThruOrderPage') },
  { path: '/UserManagement', title: 'User Management', access: 'users.manage', menu: { label: 'User Management', icon: PeopleIcon } },
  { path: '/customers', title: 'Customers', access: 'customers.manage', menu: { label: 'Customers', icon: PersonIcon } },
  { path: '/customers/new-customer', title: 'New Customer', access: 'customers.manage' },
  { path: '/customers/:id', title: 'Customer', access: 'customers.manage' },
  { path: '/payment-history', title: 'Payment History', access: 'payments.history', menu: { label: 'Payment History', icon: HistoryIcon } },
  { path: '/payment-reconciliation', title: 'Payment Reconciliation', access: 'payments.history', menu: { label: 'Payment Reconciliation', icon: CreditCardIcon } },
  { path: '/store', title: 'Menu', access: 'menu.manage', menu: { label: 'Menu', icon: ApplicationsIcon } },
  { path: '/MenuManagement', title: 'Menu Management', access: 'menuManagement.manage', menu: { label: 'Menu Management', icon: ManualIcon } },
  { path: '/DeliveryAreas/:id', title: 'Delivery Areas', access: 'deliveryAreas.manage', place: brandId },
  // Loyalty and marketing (decision, issue 23): SPEC.md 2.2's route grants, so the brand manager finds them in the menu too.
  { path: '/groups', title: 'Groups', access: 'groups.manage', menu: { label: 'Groups', icon: GroupObjectsIcon } },
  { path: '/groups/:id', title: 'Group', access: 'groups.manage' },
  { path: '/news', title: 'News', access: 'news.manage', menu: { label: 'News', icon: FeedIcon } },
  // Notifications: the requests and their approval, and asking for (or, for ADMIN, sending) one (issue 13).
  { path: '/notifications', title: 'Notifications', access: 'notifications.manage', menu: { label: 'Notifications', icon: NotificationsIcon }, page: notifications('NotificationsPage') },
  { path: '/NotificationRequest', title: 'Notification Request', access: 'notifications.manage', menu: { label: 'Notification Request', icon: ChatIcon }, page: notifications('NotificationRequestPage') },
  { path: '/Request', title: 'Request', access: 'requests.manage', menu: { label: 'Request', icon: InboxIcon } },
  { path: '/CustomerRequest', title: 'Items and Punches Request', access: 'requests.manage', menu: { label: 'CustomerRequest', icon: ExchangeIcon } },
  { path: '/ValidationCode', title: 'Validation Code', access: 'validationCodes.view', menu: { label: 'ValidationCode', icon: KeyIcon } },
  { path: '/Balance-Enquiry', title: 'Balance Enquiry', access: 'balance.enquiry', menu: { label: 'Balance Enquiry', icon: BankAccountIcon }, page: lazyChunk(() => import('./balance/BalanceEnquiryPage')) },
  { path: '/QualityReport', title: 'Quality Report', access: 'qualityReport.view', menu: { label: 'QualityReport', icon: ChartIcon }, page: lazyChunk(() => import('./quality/QualityReportPage')) },
  // No side-menu entry (SPEC.md 6): reached from the user menu.
  { path: '/SupportPage', title: 'Support', access: 'support.view', page: lazyChunk(() => import('./support/SupportPage')) },
  { path: '/select_brand', title: 'Select Brand', access: 'brand.switch' },
];
export const CONSOLE_ROUTES: readonly ConsoleRoute[] = ROUTES.map((r) => ({ ...r, page: r.page ?? registered(r.path) }));

/** The side menu of a role, in the table's order. */
export const menuFor = (role: Role | string | null | undefined) =>
  CONSOLE_ROUTES.filter((r) => r.menu && can(role, r.menu.visibleTo ?? r.access));

/** Routes whose screen is not part of this release yet say so plainly instead of showing fake data. */
export function NotYetAvailable({ title }: { title: string }) {
  return (
    <NonIdealState
      className="console-page"
      icon={<BuildIcon size={48} />}
      title={title}
      description="This screen is not available in this release yet."
    />
  );
}
