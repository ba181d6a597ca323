import { useEffect, useState } from 'react';
import { fromCallback } from 'xstate';
import { DEFAULT_TAKE, type resourceMachine, type ResourceEvent, type ResourceView, type Sorting, type Values } from '../../../machines/resourceMachine';
import { addDays, dayKey, dayStart } from '../../../domain/time';
import type { AnyResourceConfig, FilterConfig } from './types';

/**
 * A resource list's view in the address bar, as the order boards keep theirs (../orders/boardUrl.ts),
 * so that a reload, a shared link or Back shows the same list (issue 23):
 * ?q=mango&isActive=true&fromDate=2026-11-01&sort=name.desc&page=2&size=50. A filter is kept by its
 * field's name (a day as the day, an option as its value); anything unknown or malformed is ignored
 * and the screen's default stands. Lists that share a page keep theirs apart by a prefix
 * (`brand.q`, `sent-notification.page`); the route's own list has none.
 */

/** The page sizes the pager offers. */
export const PAGE_SIZES = [10, 25, 50, 100];

/** What the address may hold for one list: where its keys are, what its filters and sorting may be. */
export interface ViewShape {
  /** '' for plain keys, else the prefix of each key (`brand` → `brand.q`). */
  prefix: string;
  filters: readonly FilterConfig[];
  /** The fields the list sorts by. */
  sortable: readonly string[];
  defaultSorting: Sorting | null;
}

/** The address's prefix a list takes by default when it shares its page: its noun ("sent notification" → "sent-notification"). */
export const urlPrefixOf = (noun: string) => noun.trim().toLowerCase().replace(/[^a-z0-9]+/g, '-');

export function viewShapeOf(config: AnyResourceConfig, prefix: string): ViewShape {
  return {
    prefix,
    filters: config.filters ?? [],
    sortable: config.columns.flatMap((c) => (c.sortable && c.field ? [c.field] : [])),
    defaultSorting: config.defaultSorting ?? null,
  };
}

/**
 * The brand's day (Kuwait's, domain/time.ts) of an ISO moment ('' for none), and back: the day's
 * start, or the next day's start for an end. Not the browser's: a manager abroad filters Kuwait's days.
 */
export const dayOf = (iso: unknown, edge: 'start' | 'end') => {
  if (typeof iso !== 'string' || Number.isNaN(Date.parse(iso))) return '';
  // An end is the next day's start: the day it closes is the one before.
  return dayKey(edge === 'end' ? Date.parse(iso) - 1 : iso);
};
export const momentOf = (day: string, edge: 'start' | 'end') => dayStart(edge === 'end' ? addDays(day, 1) : day);

/** A calendar day as the address writes it (2026-11-01), and only a real one (not 2026-02-31). */
function isDay(text: string) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const at = Date.parse(`${text}T00:00:00Z`);
  return !Number.isNaN(at) && new Date(at).toISOString().slice(0, 10) === text;
}

/** A filter's value from the address's text, or undefined when it is not one the filter offers. */
function filterValue(filter: FilterConfig, text: string): unknown {
  if (filter.kind === 'date') return isDay(text) ? momentOf(text, filter.edge) : undefined;
  // Options the server gives (brands, branches, methods) are ids; they are read before the options are.
  if (filter.useOptions) return /^[1-9]\d{0,9}$/.test(text) ? Number(text) : undefined;
  return filter.options?.find((o) => String(o.value) === text)?.value;
}
const filterText = (filter: FilterConfig, value: unknown) => (filter.kind === 'date' ? dayOf(value, filter.edge) : String(value));

const keyOf = (shape: ViewShape, name: string) => (shape.prefix ? `${shape.prefix}.${name}` : name);
const keysOf = (shape: ViewShape) => ['q', 'page', 'size', 'sort', ...shape.filters.map((f) => f.field)].map((name) => keyOf(shape, name));

/** The view an address holds for a list: what it does not say, or says wrong, is the list's default. */
export function viewFromSearch(search: string, shape: ViewShape): ResourceView {
  const q = new URLSearchParams(search);
  const get = (name: string) => q.get(keyOf(shape, name));
  const filter: Values = {};
  for (const f of shape.filters) {
    const text = get(f.field);
    const value = text === null ? undefined : filterValue(f, text);
    if (value !== undefined) filter[f.field] = value;
  }
  const [field, direction] = (get('sort') ?? '').split('.');
  const sorting = shape.sortable.includes(field) && (direction === 'asc' || direction === 'desc') ? { field, direction } as Sorting : shape.defaultSorting;
  const size = Number(get('size'));
  const take = PAGE_SIZES.includes(size) ? size : DEFAULT_TAKE;
  const page = Number(get('page'));
  return {
    search: get('q')?.trim() ?? '',
    filter,
    sorting,
    take,
    skip: Number.isInteger(page) && page > 1 && page <= 1e6 ? (page - 1) * take : 0,
  };
}

/** The address's query with this list's view in it (others' keys kept, the default left out), '' for none. */
export function searchWithView(search: string, view: ResourceView, shape: ViewShape): string {
  const q = new URLSearchParams(search);
  for (const key of keysOf(shape)) q.delete(key);
  const set = (name: string, value: string) => q.set(keyOf(shape, name), value);
  if (view.search.trim()) set('q', view.search.trim());
  for (const f of shape.filters) {
    const value = view.filter[f.field];
    if (value !== undefined && value !== null && value !== '') set(f.field, filterText(f, value));
  }
  const s = view.sorting;
  const d = shape.defaultSorting;
  // No sorting is the screen's default too (a third click on a column).
  if (s && !(d && s.field === d.field && s.direction === d.direction)) set('sort', `${s.field}.${s.direction}`);
  const page = Math.floor(view.skip / view.take) + 1;
  if (page > 1) set('page', String(page));
  if (view.take !== DEFAULT_TAKE) set('size', String(view.take));
  const text = q.toString();
  return text ? `?${text}` : '';
}

/**
 * The machine's address port for one list: it writes the view on each change (a history entry of
 * its own, or in place of the last while typing) and, when the address changes under the screen
 * (Back, Forward) on the same page, gives the view it holds back to the machine.
 */
export function provideAddress(machine: typeof resourceMachine, shape: ViewShape): typeof resourceMachine {
  return machine.provide({
    actions: {
      writeView: (_, { view, history }) => {
        const next = searchWithView(window.location.search, view, shape);
        if (next === window.location.search) return;
        const url = `${window.location.pathname}${next}${window.location.hash}`;
        if (history === 'push') window.history.pushState(null, '', url);
        else window.history.replaceState(window.history.state, '', url);
      },
    },
    actors: {
      watchView: fromCallback<ResourceEvent>(({ sendBack }) => {
        const path = window.location.pathname;
        // Another page's address is that page's: this list is leaving.
        const onPop = () => { if (window.location.pathname === path) sendBack({ type: 'resource.restore', view: viewFromSearch(window.location.search, shape) }); };
        window.addEventListener('popstate', onPop);
        return () => window.removeEventListener('popstate', onPop);
      }),
    },
  });
}

/**
 * A page's tab in the address (`?tab=reset`; the first tab is the default, an unknown one ignored),
 * for pages of lists behind tabs: choosing a tab is a history entry, and starts its list afresh
 * (the other tab's search and page are dropped); Back comes back to the tab and its list.
 */
export function useUrlTab<T extends string>(tabs: readonly T[], key = 'tab'): [T, (tab: T) => void] {
  const [tab, setTab] = useState(() => tabIn(window.location.search, tabs, key));
  useEffect(() => {
    const onPop = () => setTab(tabIn(window.location.search, tabs, key));
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [tabs, key]);
  const choose = (next: T) => {
    if (next === tab) return;
    const q = next === tabs[0] ? '' : `?${new URLSearchParams({ [key]: next })}`;
    window.history.pushState(null, '', `${window.location.pathname}${q}`);
    setTab(next);
  };
  return [tab, choose];
}

const tabIn = <T extends string>(search: string, tabs: readonly T[], key: string): T => {
  const named = new URLSearchParams(search).get(key);
  return tabs.find((t) => t === named) ?? tabs[0];
};
