import type { BoardCounts, OrderListKind } from '../../../machines/orderBoard';
import { OPEN_STATUSES, ORDER_STATUSES, type OrderStatus } from '../../../machines/orderLifecycle';

export type CountKey = keyof BoardCounts;
export type OrderColumnKey = 'id' | 'placed' | 'customer' | 'mode' | 'car' | 'items' | 'total' | 'payment' | 'status' | 'actions' | 'branch' | 'brand';

/** What one order screen shows; everything else is the one generic OrderScreen. */
export interface OrderScreenConfig {
  path: string;
  list: OrderListKind;
  /** Statuses the list can hold (its status filter offers these). */
  statuses: readonly OrderStatus[];
  filters: { payment: boolean; deliverySystem: boolean };
  counts: readonly CountKey[];
  columns: OrderColumnKey[];
  /** What an empty list says. */
  empty: string;
}

const ALL = ORDER_STATUSES;
const CURRENT = OPEN_STATUSES;
const STATUS_COUNTS: readonly CountKey[] = ORDER_STATUSES;
// What staff act on first (the order, its status, the buttons), then how long it has waited, who and how
// (issue 23: an operator on a 1024 px tablet sees the timer, the customer and the mode without scrolling).
const COLUMNS: OrderColumnKey[] = ['id', 'status', 'actions', 'placed', 'customer', 'mode', 'items', 'total', 'payment'];
/** Roles that see more than one branch also get the Branch and Brand columns (and a branch filter). */
export const MULTI_BRANCH_COLUMNS: OrderColumnKey[] = ['branch', 'brand'];

export const ORDER_SCREENS: Record<string, OrderScreenConfig> = {
  '/order': {
    path: '/order', list: 'all', statuses: ALL, filters: { payment: true, deliverySystem: true },
    counts: STATUS_COUNTS, columns: COLUMNS, empty: 'No orders match.',
  },
  '/Currentorder': {
    path: '/Currentorder', list: 'current', statuses: CURRENT, filters: { payment: true, deliverySystem: true },
    counts: STATUS_COUNTS, columns: COLUMNS, empty: 'No current orders. New orders appear here.',
  },
  '/unpaidorders': {
    path: '/unpaidorders', list: 'unpaid', statuses: ALL, filters: { payment: false, deliverySystem: true },
    // What the screen is for first: the payment (Mark as paid) and what is owed, beside the order. At
    // 1280 px with the full side menu the nine columns are wider than the table, and Payment last was
    // off its right edge, so marking an order paid needed a sideways scroll first.
    counts: STATUS_COUNTS, columns: ['id', 'payment', 'total', 'status', 'actions', 'placed', 'customer', 'mode', 'items'],
    empty: 'No unpaid orders.',
  },
  '/pickup': {
    path: '/pickup', list: 'pickup', statuses: CURRENT, filters: { payment: true, deliverySystem: false },
    counts: [...STATUS_COUNTS, 'noShow'], columns: COLUMNS.filter((c) => c !== 'mode'), empty: 'No pick-up orders waiting.',
  },
  '/CurrentDriveThruOrderPage': {
    path: '/CurrentDriveThruOrderPage', list: 'driveThru', statuses: CURRENT, filters: { payment: true, deliverySystem: false },
    counts: [...STATUS_COUNTS, 'arrived', 'served', 'noShow'],
    // The timer beside the actions: at a drive-thru window how long a car has waited matters more than who is in it.
    columns: ['id', 'status', 'actions', 'placed', 'car', 'items', 'total', 'payment', 'customer'],
    empty: 'No drive-thru orders waiting.',
  },
};
