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
export interface HistoryEntry { id: number; at: string; userName: string | null; action: string; before: Values | null; after: Values | null }

export interface ResourceInput {
  fields: readonly FieldRule[];
  /** Values of a new row (the form starts with them). */
  defaults?: Values;
  /** Filters the route fixes (a parent such as /brands/taxes/7 → { brandId: 7 }): always sent, also on create. */
  fixed?: Values;
  take?: number;
  sorting?: Sorting | null;
}

export interface ResourceContext {
  fields: readonly FieldRule[];
  defaults: Values;
  fixed: Values;
  skip: number;
  take: number;
  sorting: Sorting | null;
  filter: Values;
  search: string;
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
  | { type: 'resource.create' }
  | { type: 'resource.edit'; id: number }
  | { type: 'resource.change'; field: string; value: unknown }
  | { type: 'resource.blur'; field: string }
  | { type: 'resource.save' }
  | { type: 'resource.cancel' }
  | { type: 'resource.delete'; id: number }
  | { type: 'resource.confirmDelete' }
  | { type: 'resource.history' };
