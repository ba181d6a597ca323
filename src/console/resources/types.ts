import type { ComponentType, ReactNode } from 'react';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { FieldRule, Row, Sorting, Values } from '../../../machines/resourceMachine';

/**
 * What the generic screen (ResourceScreen) runs on: the Table2 list with server paging, sorting,
 * search and filters, the form with rules checked on blur and the server's messages beside the
 * fields, the History tab and the delete confirmation. A resource the server declares gets it from
 * `declaredScreen` (./declared.ts: documents, rules, sorting and filters from the declaration, the
 * config adds labels, widths, renderers, the route); a list the server does not declare writes it
 * out. Typed by the row: a column naming no field of it is a compile error.
 */
export interface ResourceConfig<R extends Row = Row> {
  /** Route pattern the screen is mounted on (src/console/pages.tsx CONSOLE_ROUTES). */
  path: string;
  title: string;
  /** What one row is called: "tax" → "New tax", "Delete this tax?". */
  noun: string;
  /** The noun's plural when the rule (./plural.ts: tax → taxes, company → companies) does not make it. */
  plural?: string;
  /**
   * The place the route fixes (/brands/taxes/7: brand 7 by `brandId`): the screen names it under its
   * title. Declared resources get it from their scope; omit for lists of no one place.
   */
  parent?: ParentPlace;
  /** The server's resource name for its history (AuditLog/GetEntityHistory); omit for no History tab. */
  historyResource?: string;
  /** Table2 columns; `sortable` columns are sent as `Sorting` (the server's whitelist decides). */
  columns: ColumnConfig<R>[];
  /** The form's fields, in order; omit for a read-only list. */
  fields?: FieldConfig[];
  /** Values a new row starts with. */
  defaults?: Values;
  /** Select filters above the list (equality on the server). */
  filters?: FilterConfig[];
  /** Placeholder of the search box (the server's `Search`); omit when the list has no search. */
  searchPlaceholder?: string;
  /** Filters fixed by the route, e.g. /brands/taxes/:id → { brandId: Number(params.id) }. */
  fixedFilter?: (params: Record<string, string | undefined>) => Values;
  defaultSorting?: Sorting;
  /** Class of a row's cells (row styles: inactive, expired…). */
  rowClassName?(row: R): string | undefined;
  /** What a save announces, when it is not simply saved (a request goes to another person first). */
  savedNotice?: { title: string; message: string };
  /**
   * A save that acts at once and cannot be taken back (ADMIN's notification, sent to customers on
   * Save): the form asks first, naming what will happen; Back keeps the form as it was.
   */
  confirmSave?: { message: (values: Values) => string; confirm: string };
  /**
   * A route that opens the form at once (/brands/new → create, /brands/edit/:id → edit that row);
   * when that form closes, the screen goes to `closeTo` (the list's own route).
   */
  openOnEntry?: (params: Record<string, string | undefined>) => { create: true } | { edit: number } | null;
  closeTo?: string;
  /** The resource's GraphQL operations, each in the config's own file. */
  operations: ResourceOperations;
}

/**
 * A config whatever its row, as the generic screen takes it: the screen hands each row only to the
 * config's own renderers, so it needs no row type (a typed config is not a `ResourceConfig<Row>`:
 * its columns name fewer fields).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyResourceConfig = ResourceConfig<any>;

export type ParentPlace = { level: 'company' | 'brand' | 'branch'; field: string };

/** What a cell may ask of its list. */
export interface ListHandle {
  /** Reads the page again after a cell's own call (a switch, say). */
  refresh(): void;
  /**
   * Shows a dialog the list holds, not the cell (a confirmation, a reason to type): Table2 draws a
   * cell anew when it scrolls into view or the page is read again, which would close a dialog the
   * cell held and lose what was typed in it. `close` ends it.
   */
  open(dialog: (close: () => void) => ReactNode): void;
}

interface ColumnBase<R extends Row> {
  name: string;
  width?: number;
  sortable?: boolean;
  /** The cell, drawn from the row; `list` reads the page again or opens a dialog (ListHandle). */
  render?(row: R, list: ListHandle): ReactNode;
}
/** A column shows a field of the row (`field`), or something the row makes (`key`, drawn by `render`). */
export type ColumnConfig<R extends Row = Row> = ColumnBase<R> & (
  | { field: keyof R & string; key?: never }
  | { key: string; field?: never; render(row: R, list: ListHandle): ReactNode }
);

export interface FieldConfig extends FieldRule {
  options?: { value: string; label: string }[];
  placeholder?: string;
  help?: string;
  /** An input of its own (an image upload, a select whose options come from the server) instead of the kind's. */
  Input?: ComponentType<FieldInputProps>;
}

/** What a field's own input gets: its value and the form's events, like the built-in inputs. */
export interface FieldInputProps {
  id: string;
  value: unknown;
  disabled: boolean;
  invalid: boolean;
  onChange: (value: unknown) => void;
  onBlur: () => void;
  /** The form's values, for an input whose choices follow another field (a group of the chosen brand). */
  values?: Values;
}

export type FilterOption = { value: string | number | boolean; label: string };

/**
 * A filter above the list, sent as the list variable `field`: a select of fixed `options`, a select
 * whose options come from the server (`useOptions`, a hook; their values are ids, as the address
 * keeps them: ./resourceUrl.ts), or a date (`kind: 'date'`) sent as the ISO moment its day starts
 * (`edge: 'start'`) or ends (`edge: 'end'`, the next day's start: the server's periods end before
 * their end moment), on the brand's clock (domain/time.ts).
 */
export type FilterConfig = { field: string; label: string } & (
  | { kind?: 'select'; options: FilterOption[]; useOptions?: never }
  | { kind?: 'select'; options?: never; useOptions: () => FilterOption[] }
  | { kind: 'date'; edge: 'start' | 'end' }
);

/**
 * The variables every list operation takes, whatever the resource: the gateway types them alike
 * (server/resources/list.ts), so one generic list drives them all. Filters are added by field name.
 */
export interface ListVariables { SkipCount: number; MaxResultCount: number; Sorting?: string; Search?: string; id?: number; [filter: string]: unknown }
/** A list operation's answer: a page of rows, each with its id. */
export type ListData = { list?: { totalCount: number; data: (Row | null)[] } | null };

/**
 * Operation conventions: the list aliases its field `list`; create and update take `$input` and
 * alias `row`; delete takes `$id` (mapped to the legacy id parameter inside the document).
 */
export interface ResourceOperations {
  // Variables differ by resource (each list adds its own filters); the shapes above are the contract.
  list: TypedDocumentNode<ListData, any>;
  create?: TypedDocumentNode<{ row?: Record<string, unknown> | null }, any>;
  update?: TypedDocumentNode<{ row?: Record<string, unknown> | null }, any>;
  delete?: TypedDocumentNode<unknown, any>;
}
