import type { AnyActorRef, ActorRefFrom } from 'xstate';
import type {
  DeliverySystem, OrderEventType, OrderLifecycleEvent, OrderLifecycleRow, OrderStatus, orderLifecycleMachine,
} from './orderLifecycle';

/** The order board's vocabulary (machines/orderBoard.ts): its lists, pages, rows, context, events and input. */

/** Which server list the board shows (Store/Get*Orders*AsBranchUser). */
export type OrderListKind = 'all' | 'current' | 'unpaid' | 'pickup' | 'driveThru';
export type SortColumn = 'id' | 'createdAt' | 'total' | 'status';
export interface BoardSorting { column: SortColumn; direction: 'asc' | 'desc' }

export interface BoardFilter {
  status?: OrderStatus;
  payment?: 'paid' | 'unpaid';
  deliverySystem?: DeliverySystem;
  search?: string;
  /** One branch, for the roles that see several (company admin, brand manager, admin). */
  branchId?: number;
}

/** A row as the lists answer it: the lifecycle columns, id and version, and whatever else the view shows. */
export interface BoardOrder extends OrderLifecycleRow {
  id: number;
  version: number;
  /** Paid at the branch: closing or serving it unpaid asks "Cash collected?" (the console's dialog). */
  isCash?: boolean;
}

/** pending/accepted/ready/rejected/closed, and per list arrived/served/noShow. */
export type BoardCounts = Partial<Record<OrderStatus | 'arrived' | 'served' | 'noShow', number>>;

export interface PageRequest {
  list: OrderListKind;
  skip: number;
  take: number;
  /** "<column> <direction>", or undefined for the server's default (newest first). */
  sorting?: string;
  filter: BoardFilter;
  /**
   * Whether to count the orders by status too. Only when they may have changed: on the first load,
   * a refresh (an order event from the live feed, an action) or a filter other than status; a page
   * jump, a page size or a sort moves through the same orders, so their counts stay (issue 14).
   */
  withCounts: boolean;
}
/** `counts` is absent when the request did not ask for them. */
export interface PageResult<R extends BoardOrder = BoardOrder> { rows: R[]; totalCount: number; counts?: BoardCounts }

/** Extra input some events need (a refund's reason). */
export interface OrderActionDetails { reason?: string; amount?: number }
export interface OrderActionRequest { orderId: number; version: number; event: OrderLifecycleEvent; details?: OrderActionDetails }

export type OrderActorRef = ActorRefFrom<typeof orderLifecycleMachine>;

export interface OrderBoardContext {
  list: OrderListKind;
  /** The live order feed this board watches, or null. */
  feed: AnyActorRef | null;
  skip: number;
  take: number;
  sorting: BoardSorting | null;
  filter: BoardFilter;
  /** The page's ids in the server's order: the view's index map into `rows`. */
  rowIds: number[];
  rows: Record<number, BoardOrder>;
  /** One orderLifecycle actor per row. */
  orders: Record<number, OrderActorRef>;
  totalCount: number;
  counts: BoardCounts;
  /** The counts are to be read again with the next page (see PageRequest.withCounts). */
  countsStale: boolean;
  /** Rows with an action on its way to the server, and which. */
  acting: Record<number, OrderEventType>;
  openOrderId: number | null;
  /** The row the keyboard acts on (J/K move it; A, R, C and Enter use it). */
  selectedId: number | null;
  error: string | null;
}

export type OrderBoardEvent =
  | { type: 'board.page'; skip: number }
  | { type: 'board.pageSize'; take: number }
  | { type: 'board.sort'; sorting: BoardSorting | null }
  | { type: 'board.filter'; filter: BoardFilter }
  | { type: 'board.refresh' }
  | { type: 'order.act'; orderId: number; event: OrderLifecycleEvent; details?: OrderActionDetails }
  | { type: 'order.open'; orderId: number }
  /** Select a row (null: none), or move the selection one row down (1) or up (-1) the page. */
  | { type: 'board.select'; orderId: number | null }
  | { type: 'board.move'; by: 1 | -1 }
  | { type: 'order.closeDetails' };

/**
 * `skip`, `take`, `filter` and `sorting` restore a view (the console keeps them in the address);
 * `feed` is the live order feed to watch, if this user hears one.
 */
export interface OrderBoardInput { list: OrderListKind; skip?: number; take?: number; filter?: BoardFilter; sorting?: BoardSorting | null; feed?: AnyActorRef | null }

export const DEFAULT_PAGE_SIZE = 50;

export const sortingText = (s: BoardSorting | null) => (s ? `${s.column} ${s.direction}` : undefined);
