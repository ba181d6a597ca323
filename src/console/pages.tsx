import type { ComponentType } from 'react';
import { NonIdealState } from '@blueprintjs/core';
import { BuildIcon } from '@blueprintjs/icons';
import { lazyChunk } from '../lib/lazy';
import { loadOrderScreen } from './orders/preload';
import { RESOURCE_PAGES } from './resources';
import { MENU_PAGES } from './menu';
import { USER_PAGES } from './users';

/** Screens by route pattern (domain/permissions.ts CONSOLE_ROUTES). Each is its own lazy chunk. */
export const CONSOLE_PAGES: Record<string, ComponentType> = {
  '/dashboard': lazyChunk(() => import('./dashboard/DashboardPage')),
  // Notifications: the requests and their approval, and asking for (or, for ADMIN, sending) one (issue 13).
  '/notifications': lazyChunk(() => import('./notifications/NotificationsPages').then((m) => ({ default: m.NotificationsPage }))),
  '/NotificationRequest': lazyChunk(() => import('./notifications/NotificationsPages').then((m) => ({ default: m.NotificationRequestPage }))),
  // The five order screens are one generic screen, one chunk (./orders/screens.ts configures each).
  '/order': orderScreen('/order'),
  '/Currentorder': orderScreen('/Currentorder'),
  '/unpaidorders': orderScreen('/unpaidorders'),
  '/pickup': orderScreen('/pickup'),
  '/CurrentDriveThruOrderPage': orderScreen('/CurrentDriveThruOrderPage'),
  // Admin screens on the resource shape (./resources/index.tsx registers them).
  ...RESOURCE_PAGES,
  // The menu: /store, /MenuManagement, /DeliveryAreas/:id (./menu).
  ...MENU_PAGES,
  // Staff users and the brand switch (./users: configs on the resource shape).
  ...USER_PAGES,
  // A brand's reward card scans: charts by date, gender, age band (issue 13).
  '/brands/qrscans/:brandId/:brandName': lazyChunk(() => import('./qrscans/QrScansPage')),
  '/Balance-Enquiry': lazyChunk(() => import('./balance/BalanceEnquiryPage')),
  '/QualityReport': lazyChunk(() => import('./quality/QualityReportPage')),
  '/SupportPage': lazyChunk(() => import('./support/SupportPage')),
  // A branch's kitchen printers and order settings (issue 25).
  '/branches/printers/:id': lazyChunk(() => import('./printers/PrintersPage')),
};

function orderScreen(path: string) {
  return lazyChunk(() => loadOrderScreen().then((m) => ({ default: m.ORDER_SCREEN_PAGES[path] })));
}

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
