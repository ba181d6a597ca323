import { sortingText, type BoardFilter, type OrderBoardContext, type PageRequest } from './orderBoardTypes';

/** The order board's paging, filter and selection rules (machines/orderBoard.ts), pure. */

export function movedSelection(rowIds: number[], selectedId: number | null, by: 1 | -1): number | null {
  if (!rowIds.length) return null;
  const at = selectedId == null ? -1 : rowIds.indexOf(selectedId);
  if (at < 0) return by > 0 ? rowIds[0] : rowIds[rowIds.length - 1];
  return rowIds[Math.min(rowIds.length - 1, Math.max(0, at + by))];
}

export function pageRequest(context: OrderBoardContext): PageRequest {
  return { list: context.list, skip: context.skip, take: context.take, sorting: sortingText(context.sorting), filter: context.filter, withCounts: context.countsStale };
}

/** Filters that differ at most in status (both made by `clean`, so their keys come in one order). */
export function sameBesidesStatus(a: BoardFilter, b: BoardFilter) {
  const { status: _a, ...restA } = a;
  const { status: _b, ...restB } = b;
  return JSON.stringify(restA) === JSON.stringify(restB);
}

export const lastPageSkip = (totalCount: number, take: number) => Math.max(0, Math.floor((totalCount - 1) / take) * take);

export function clean(filter: BoardFilter): BoardFilter {
  const out: BoardFilter = {};
  if (filter.status) out.status = filter.status;
  if (filter.payment) out.payment = filter.payment;
  if (filter.deliverySystem) out.deliverySystem = filter.deliverySystem;
  if (filter.search?.trim()) out.search = filter.search.trim();
  if (filter.branchId != null && Number.isInteger(filter.branchId) && filter.branchId > 0) out.branchId = filter.branchId;
  return out;
}

export const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));
