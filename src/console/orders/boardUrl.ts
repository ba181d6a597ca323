import { DEFAULT_PAGE_SIZE, type BoardFilter, type BoardSorting, type SortColumn } from '../../../machines/orderBoard';
import { DELIVERY_SYSTEMS, ORDER_STATUSES } from '../../../machines/orderLifecycle';

/**
 * An order board's view in the address bar, so that a reload or a shared link shows the same
 * page (issue 11: a reload went back to page 1): ?status=pending&payment=unpaid&mode=pickup
 * &q=…&branch=12&sort=createdAt.desc&page=3&size=50. Anything unknown is ignored, never an error.
 */
export interface BoardView { filter: BoardFilter; sorting: BoardSorting | null; skip: number; take: number }

const SORT_COLUMNS: SortColumn[] = ['id', 'createdAt', 'total', 'status'];
/** The page sizes the pager offers. */
export const PAGE_SIZES = [25, 50, 100];

const oneOf = <T extends string>(value: string | null, allowed: readonly T[]) => (allowed.includes(value as T) ? (value as T) : undefined);

export function viewFromSearch(search: string): BoardView {
  const q = new URLSearchParams(search);
  const filter: BoardFilter = {};
  const status = oneOf(q.get('status'), ORDER_STATUSES);
  if (status) filter.status = status;
  const payment = oneOf(q.get('payment'), ['paid', 'unpaid'] as const);
  if (payment) filter.payment = payment;
  const mode = oneOf(q.get('mode'), DELIVERY_SYSTEMS);
  if (mode) filter.deliverySystem = mode;
  if (q.get('q')?.trim()) filter.search = q.get('q')!.trim();
  const branch = Number(q.get('branch'));
  if (Number.isInteger(branch) && branch > 0) filter.branchId = branch;
  const [column, direction] = (q.get('sort') ?? '').split('.');
  const sortColumn = oneOf(column, SORT_COLUMNS);
  const sortDirection = oneOf(direction, ['asc', 'desc'] as const);
  const size = Number(q.get('size'));
  const take = PAGE_SIZES.includes(size) ? size : DEFAULT_PAGE_SIZE;
  const page = Math.floor(Number(q.get('page')));
  return {
    filter,
    sorting: sortColumn && sortDirection ? { column: sortColumn, direction: sortDirection } : null,
    take,
    skip: Number.isFinite(page) && page > 1 ? (page - 1) * take : 0,
  };
}

export function searchFromView(view: BoardView): string {
  const q = new URLSearchParams();
  if (view.filter.status) q.set('status', view.filter.status);
  if (view.filter.payment) q.set('payment', view.filter.payment);
  if (view.filter.deliverySystem) q.set('mode', view.filter.deliverySystem);
  if (view.filter.search) q.set('q', view.filter.search);
  if (view.filter.branchId) q.set('branch', String(view.filter.branchId));
  if (view.sorting) q.set('sort', `${view.sorting.column}.${view.sorting.direction}`);
  const page = Math.floor(view.skip / view.take) + 1;
  if (page > 1) q.set('page', String(page));
  if (view.take !== DEFAULT_PAGE_SIZE) q.set('size', String(view.take));
  const text = q.toString();
  return text ? `?${text}` : '';
}
