import type { ComponentType } from 'react';
import {
  DashboardIcon, OfficeIcon, ShopIcon, UpdatedIcon, GitBranchIcon, ListIcon, TimeIcon, DollarIcon, WalkIcon, DriveTimeIcon,
  PeopleIcon, PersonIcon, HistoryIcon, ApplicationsIcon, ManualIcon, GroupObjectsIcon, FeedIcon, NotificationsIcon, ChatIcon,
  InboxIcon, ExchangeIcon, KeyIcon, BankAccountIcon, ChartIcon,
} from '@blueprintjs/icons';

/** Side-menu icons, passed as components so only these few are bundled. */
export const MENU_ICONS: Record<string, ComponentType> = {
  '/dashboard': DashboardIcon,
  '/companies': OfficeIcon,
  '/brands': ShopIcon,
  '/AppUpdates': UpdatedIcon,
  '/branches': GitBranchIcon,
  '/order': ListIcon,
  '/Currentorder': TimeIcon,
  '/unpaidorders': DollarIcon,
  '/pickup': WalkIcon,
  '/CurrentDriveThruOrderPage': DriveTimeIcon,
  '/UserManagement': PeopleIcon,
  '/customers': PersonIcon,
  '/payment-history': HistoryIcon,
  '/store': ApplicationsIcon,
  '/MenuManagement': ManualIcon,
  '/groups': GroupObjectsIcon,
  '/news': FeedIcon,
  '/notifications': NotificationsIcon,
  '/NotificationRequest': ChatIcon,
  '/Request': InboxIcon,
  '/CustomerRequest': ExchangeIcon,
  '/ValidationCode': KeyIcon,
  '/Balance-Enquiry': BankAccountIcon,
  '/QualityReport': ChartIcon,
};
