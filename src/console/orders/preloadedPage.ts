import type { PageRequest, PageResult } from '../../../machines/orderBoard';
import { managerBrand } from '../shell/managerBrand';
// provideBoard.ts's StaffOrderRow is this generated fragment type; named from gql here so this module imports nothing of the board.
import type { BoardOrderFieldsFragment as StaffOrderRow } from '../../gql/graphql';

/**
 * The first page of an order screen, asked for before the board exists (preload.ts puts it here)
 * and taken by the board's first load (provideBoard.ts). Its own module, so the board does not
 * import the preload, which imports the board.
 */
const FRESH_MS = 10_000;
let preloaded: { key: string; page: Promise<PageResult<StaffOrderRow>>; at: number } | null = null;

// The chosen brand is part of the request too (loadOrderPage reads it).
const keyOf = (r: PageRequest) => JSON.stringify([r.list, r.skip, r.take, r.sorting ?? null, r.filter, r.withCounts, managerBrand.get()]);

/** Whether the page for `request` was preloaded and is still fresh. */
export const isPreloaded = (request: PageRequest) => preloaded?.key === keyOf(request) && Date.now() - preloaded.at < FRESH_MS;

export function putPreloadedPage(request: PageRequest, page: Promise<PageResult<StaffOrderRow>>) {
  preloaded = { key: keyOf(request), page, at: Date.now() };
}

/** The preloaded answer to `request`, once, while it is fresh; null otherwise. */
export function takePreloadedPage(request: PageRequest): Promise<PageResult<StaffOrderRow>> | null {
  const hit = preloaded && isPreloaded(request) ? preloaded.page : null;
  preloaded = null;
  return hit;
}
