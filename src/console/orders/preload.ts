import { useState } from 'react';
import { useApolloClient } from '@apollo/client/react';
import type { ApolloClient } from '@apollo/client';
import { DEFAULT_PAGE_SIZE, sortingText, type PageRequest } from '../../../machines/orderBoard';
import { storage, KEYS } from '../../lib/storage';
import { ORDER_SCREENS } from './screens';
import { viewFromSearch } from './boardUrl';
import { loadOrderPage } from './provideBoard';
import { isPreloaded, putPreloadedPage } from './preloadedPage';

/**
 * The first page of an order screen, asked for as soon as the console's code runs (issue 14: the
 * query waited 450–700 ms behind the user lookup, the screen's own chunk and the live feed's
 * catch-up). The server scopes the list by the token, so nothing needs the user first. The board
 * takes the answer for its first load when it asks for the same page shortly after; otherwise it
 * is dropped and the board loads as usual (preloadedPage.ts keeps it).
 */

/** What the board loads first for this address (OrderBoardInput from boardUrl, as OrderScreen builds it). */
export function firstPageRequest(path: string, search: string): PageRequest | null {
  const screen = ORDER_SCREENS[path];
  if (!screen) return null;
  const view = viewFromSearch(search);
  return { list: screen.list, skip: Math.max(0, view.skip), take: view.take ?? DEFAULT_PAGE_SIZE, sorting: sortingText(view.sorting), filter: view.filter, withCounts: true };
}

export function preloadOrderPage(client: ApolloClient, path: string, search: string) {
  const request = firstPageRequest(path, search);
  if (!request || !storage.get(KEYS.token)) return;
  if (isPreloaded(request)) return;
  const page = loadOrderPage(client, request);
  page.catch(() => {}); // the board reports a failure when it takes this answer, or loads again
  putPreloadedPage(request, page);
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

/** Preloads the first page of the order screen at this address, once, when the console mounts. */
export function usePreloadOrderPage() {
  const client = useApolloClient();
  useState(() => preloadOrderPage(client, window.location.pathname, window.location.search));
}
