import type { FieldErrors, FieldRule } from './resourceFields';

/** The resource machine's types and its error (machines/resourceMachine.ts, which re-exports them), apart so the machine reads as its states. */

export type Row = { id: number } & Record<string, unknown>;
export type Values = Record<string, unknown>;
export interface Sorting { field: string; direction: 'asc' | 'desc' }

/** How a failed call reaches the machine: the message, and the server's field messages when it refused the input. */
export class ResourceError extends Error {
  constructor(message: string, readonly fieldErrors: FieldErrors = {}, readonly status: number | null = null) {
    super(message);
  }
}

export interface PageRequest { skip: number; take: number; sorting?: string; search?: string; filter: Values }
export interface PageResult { rows: Row[]; totalCount: number }
/** `fixed`: the route's filters, which a new row takes (e.g. its brand). */
export interface SaveRequest { id: number | null; values: Values; fixed: Values }
/**
 * What of a list the address keeps (src/console/resources/resourceUrl.ts): its search, filters,
 * sorting and page. Read at the start (ResourceInput.view), written on each change (action
 * `writeView`), and given back when the address changes under the screen (Back: `resource.restore`).
 */
export interface ResourceView { search: string; filter: Values; sorting: Sorting | null; skip: number; take: number }
/** How a change of the view goes into the browser's history: a deliberate step is an entry of its own; typing replaces. */
export type ViewWrite = 'push' | 'replace';

export interface HistoryEntry { id: number; at: string; userName: string | null; action: string; before: Values | null; after: Values | null }

export interface ResourceInput {
  fields: readonly FieldRule[];
  /** Values of a new row (the form starts with them). */
  defaults?: Values;
  /** Filters the route fixes (a parent such as /brands/taxes/7 → { brandId: 7 }): always sent, also on create. */
  fixed?: Values;
  take?: number;
  sorting?: Sorting | null;
  /** The view the address holds at the start (a reload, a shared link): it overrides `take` and `sorting`. */
  view?: Partial<ResourceView>;
  /** A save acts at once and cannot be taken back (a notification sent to customers): it is asked for first. */
  confirmSave?: boolean;
}

export interface ResourceContext {
  fields: readonly FieldRule[];
  confirmSave: boolean;
  defaults: Values;
  fixed: Values;
  skip: number;
  take: number;
  sorting: Sorting | null;
  filter: Values;
  search: string;
  /** The last change of the view was typed search: the next keystroke replaces its history entry. */
  typing: boolean;
  rows: Row[];
  totalCount: number;
  listError: string | null;
  /** The row being edited; null while creating. */
  editId: number | null;
  values: Values;
  touched: Record<string, boolean>;
  triedSave: boolean;
  serverErrors: FieldErrors;
  saveError: string | null;
  deleteId: number | null;
  deleteError: string | null;
  history: HistoryEntry[];
  historyError: string | null;
}

export type ResourceEvent =
  | { type: 'resource.page'; skip: number }
  | { type: 'resource.pageSize'; take: number }
  | { type: 'resource.sort'; sorting: Sorting | null }
  | { type: 'resource.filter'; filter: Values }
  | { type: 'resource.search'; search: string }
  | { type: 'resource.refresh' }
  /** The address changed under the screen (Back, Forward): the list shows the view it holds. */
  | { type: 'resource.restore'; view: ResourceView }
  | { type: 'resource.create' }
  | { type: 'resource.edit'; id: number }
  | { type: 'resource.change'; field: string; value: unknown }
  | { type: 'resource.blur'; field: string }
  | { type: 'resource.save' }
  | { type: 'resource.confirmSave' }
  | { type: 'resource.cancel' }
  | { type: 'resource.delete'; id: number }
  | { type: 'resource.confirmDelete' }
  | { type: 'resource.history' };
