import { useState } from 'react';
import { useApolloClient } from '@apollo/client/react';
import type { ApolloClient } from '@apollo/client';
import { DEFAULT_PAGE_SIZE, sortingText, type PageRequest, type PageResult } from '../../../machines/orderBoard';
import { storage, KEYS } from '../../lib/storage';
import { managerBrand } from '../shell/managerBrand';
import { ORDER_SCREENS } from './screens';
import { viewFromSearch } from './boardUrl';
import { loadOrderPage, type StaffOrderRow } from './provideBoard';

/**
 * The first page of an order screen, asked for as soon as the console's code runs (issue 14: the
 * query waited 450–700 ms behind the user lookup, the screen's own chunk and the live feed's
 * catch-up). The server scopes the list by the token, so nothing needs the user first. The board
 * takes the answer for its first load when it asks for the same page shortly after; otherwise it
 * is dropped and the board loads as usual.
 */
const FRESH_MS = 10_000;
let preloaded: { key: string; page: Promise<PageResult<StaffOrderRow>>; at: number } | null = null;

/** What the board loads first for this address (OrderBoardInput from boardUrl, as OrderScreen builds it). */
export function firstPageRequest(path: string, search: string): PageRequest | null {
  const screen = ORDER_SCREENS[path];
  if (!screen) return null;
  const view = viewFromSearch(search);
  return { list: screen.list, skip: Math.max(0, view.skip), take: view.take ?? DEFAULT_PAGE_SIZE, sorting: sortingText(view.sorting), filter: view.filter, withCounts: true };
}

// The chosen brand is part of the request too (loadOrderPage reads it).
const keyOf = (r: PageRequest) => JSON.stringify([r.list, r.skip, r.take, r.sorting ?? null, r.filter, r.withCounts, managerBrand.get()]);

export function preloadOrderPage(client: ApolloClient, path: string, search: string) {
  const request = firstPageRequest(path, search);
  if (!request || !storage.get(KEYS.token)) return;
  const key = keyOf(request);
  if (preloaded?.key === key && Date.now() - preloaded.at < FRESH_MS) return;
  const page = loadOrderPage(client, request);
  page.catch(() => {}); // the board reports a failure when it takes this answer, or loads again
  preloaded = { key, page, at: Date.now() };
  // The screen's chunk, in parallel (the lazy route takes the same import later).
  loadOrderScreen().catch(() => {});
}

let screenModule: Promise<typeof import('./OrderScreen')> | null = null;
/**
 * The order screens' module, imported once for the preload and the route alike: a second import()
 * started while the first was still evaluating the module got it half-made under vite-node (the
 * model tests), with ORDER_SCREEN_PAGES undefined. A failed import is tried again next time.
 */
export function loadOrderScreen(): Promise<typeof import('./OrderScreen')> {
  screenModule ??= import('./OrderScreen').catch((error: unknown) => { screenModule = null; throw error; });
  return screenModule;
}

/** The preloaded answer to `request`, once, while it is fresh; null otherwise. */
export function takePreloadedPage(request: PageRequest): Promise<PageResult<StaffOrderRow>> | null {
  const hit = preloaded && preloaded.key === keyOf(request) && Date.now() - preloaded.at < FRESH_MS ? preloaded.page : null;
  preloaded = null;
  return hit;
}

/** Preloads the first page of the order screen at this address, once, when the console mounts. */
export function usePreloadOrderPage() {
  const client = useApolloClient();
  useState(() => preloadOrderPage(client, window.location.pathname, window.location.search));
}
