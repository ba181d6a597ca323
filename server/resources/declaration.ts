import type { AnyColumn, SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Static, TObject } from 'typebox';
import type { Capability } from '../../domain/permissions';
import type { Tx } from '../db/client';
import type { route } from '../http/routes';
import type { Caller } from '../http/context';
import type { AuditAction } from './audit';
import type { Db } from '../db/client';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../http/context';
import type { ScopedRows } from './audit';
import type { ScopeLevel } from './scope';

/** What a declaration says (server/resources/resource.ts `defineResource` reads it). */
export type Action = 'view' | 'create' | 'update' | 'delete';
export type Row<T extends PgTable> = T['$inferSelect'];
export type ColumnName<T extends PgTable> = keyof T['_']['columns'] & string;

/**
 * A row placed by its parent row rather than by a column of its own (a sub-type by its product
 * type, which belongs to a brand): the scope field names a row of `table`, whose `column` is the
 * place. A parent outside the caller's scope, unknown or not `live` is a 404 naming `label` (as a
 * row of it would be); the row may move to another parent of the same place when update holds the
 * field; its history is kept under the parent's place.
 */
export interface ParentRow {
  table: PgTable & { id: AnyColumn }; column: AnyColumn; label: string; live?: SQL;
  /** The row's own column that keeps its parent's place (a pre-invitation's brand, its group's): written on create. */
  placeCopiedTo?: string;
}

export interface ResourceDeclaration<T extends PgTable, I extends TObject, C extends TObject, U extends TObject> {
  /** ABP service name; routes are /api/services/app/<service>/<Method>, history is kept under it. */
  service: string;
  /** The Drizzle table; it has a serial `id`. */
  table: T;
  /** A row as the API answers it (give it a title: it names the gateway's type). */
  item: I;
  /** Body of create; holds the scope field (the parent id) of a scoped resource. */
  create: C;
  /** Body of update: `id` and the fields that may change (usually optional). */
  update: U;
  /**
   * The column that places a row in a company, brand or branch; null: the capability alone decides.
   * `field: 'id'` declares rows that are places themselves (companies): the row's own id places it,
   * and create has no parent to check.
   */
  scope: { level: ScopeLevel; field: (ColumnName<T> & keyof Static<C>) | 'id'; via?: ParentRow } | null;
  /**
   * Rows that exist for the caller besides `scope`, as a where fragment: for rows placed by several
   * columns at once, or not every row of the table (staff users: only the roles the caller may give).
   * Applied wherever the scope is (list, history, update, delete).
   */
  visibleTo?: (caller: Caller) => SQL | undefined;
  /**
   * Fields of create/update that name a row of another table (a currency, a category…): a value
   * naming no row is a 400 on that field before anything is written (not the database's 409).
   */
  references?: Partial<Record<keyof Static<C> & string, { table: PgTable & { id: AnyColumn }; label: string }>>;
  /** The capability (domain/permissions.ts) each action needs. */
  can: Record<Action, Capability>;
  /**
   * Legacy method names (SPEC.md 7); a delete names its id parameter after a '?': 'Delete?TaxId'. Omit a method to leave it out.
   * Legacy quirks: an update sent by POST is 'POST EditX'; a delete that also names the parent is
   * 'DeleteX?Id&BranchId' (when the parent is sent, a row of another parent is a 404; the console's
   * generic delete sends the id alone).
   */
  methods: { list?: string; create?: string; update?: string; delete?: `${string}?${string}` };
  /**
   * The service whose path (and gateway name) the routes are mounted under, when one legacy service
   * holds several resources (ProductTypesAndSubtypes: types and sub-types); `service` stays the
   * resource's own name in history and in the console's generated module.
   */
  mount?: string;
  /**
   * Delete archives instead of removing (rows that orders may still name): sets `column` to now;
   * an archived row is neither listed, changed nor deleted again (404), and its history stays
   * readable. `refuse` may throw (a 409 saying what still depends on the row) before it is archived.
   */
  archive?: { column: ColumnName<T>; refuse?: (tx: Tx, row: Row<T>) => Promise<void> };
  /**
   * Rules a row must keep that its schemas cannot say (one fee per brand and area, a weekday once…):
   * called in the write's transaction before the write, with the row as it will be (item fields;
   * no `id` on create) and the row before (null on create); throws a 400 naming the field. A unique
   * index stays the backstop when two writers race (409).
   */
  check?: (tx: Tx, next: Record<string, unknown>, before: Row<T> | null) => Promise<void>;
  /** Fields the list may be sorted by. */
  sortable: readonly (ColumnName<T> & keyof Static<I>)[];
  /** Sorting when the client sends none, e.g. 'id desc'. */
  defaultSorting: string;
  /** Filterable fields: 'equals' (same type as the item field) or 'contains' (text, also searched by `Search`). */
  filters?: Partial<Record<ColumnName<T> & keyof Static<I>, 'equals' | 'contains'>>;
  /** Row → item when the fields do not map one to one. */
  toItem?: (row: Row<T>) => Static<I>;
  /** What a row is called in messages (default: the item's title). */
  label?: string;
  /** A body per kind (reward programs'): a create and an update call each; create sets `field`, another kind's row is a 404 (`label`). */
  kinds?: { field: ColumnName<T>; of: Record<string, { label: string; create: TObject; update: TObject; methods: { create: string; update: string } }> };
  /** Body → column values when they are not field by field (trimmed, defaulted, kept as text); `before` is null on create. */
  toColumns?: (body: Record<string, unknown>, before: Row<T> | null) => Record<string, unknown>;
  /** Work a write brings with it (rows of other tables that follow this one, the row's place among its siblings), in the write's transaction, before its audit entry; answering the row re-read makes it the one answered and audited. */
  afterWrite?: (tx: Tx, change: { action: AuditAction; before: Row<T> | null; after: Row<T> | null }) => Promise<Row<T> | void>;
  /** Switches: a boolean column set by its own call, `POST <Name> { <id>, <field>: boolean }`, in scope, checked, audited; answers the item. */
  switches?: Record<string, { field: ColumnName<T> & keyof Static<I>; id: string; can?: Capability; summary: string }>;
  /** A unique index whose violation is the caller's to mend: its name → the 400's message (otherwise a 409). */
  uniqueMessages?: Record<string, string>;
  /** Row actions and the service's other calls that are not CRUD, mounted with its routes; `self` is the declared resource. */
  calls?: (self: Resource<T, I>) => ReturnType<typeof route>[];
}

/** What the registry (server/resources/index.ts) holds of every declared resource, whatever its row. */
export interface DeclaredResource extends ScopedRows {
  can: Record<Action, Capability>;
  /** The declaration's data (schemas, method names, sorting, filters): the console's half is generated from it (scripts/resourceDocuments.ts). */
  declaration: DeclaredParts;
  /** Mounts the routes (called by the registry). */
  register(app: FastifyInstance, ctx: AppContext): void;
}

/** A declared resource: its routes, and the helpers hand-written calls on it reuse. */
export interface Resource<T extends PgTable = PgTable, I extends TObject = TObject> extends DeclaredResource {
  /** The caller's scope over this table, as a where fragment. */
  scopeOf(caller: Caller): SQL | undefined;
  /** A row as the API shows it. */
  toItem(row: Row<T>): Static<I>;
  /** Runs a write and appends its audit entry in one transaction; `write` answers the row before and after. */
  audited(db: Db, caller: Caller, action: AuditAction, write: (tx: Tx) => Promise<{ before: Row<T> | null; after: Row<T> | null }>): Promise<Row<T> | null>;
  /** One page of the list, as the list route answers it. */
  list(db: Db, caller: Caller, query: Record<string, unknown>): Promise<{ data: Static<I>[]; totalCount: number }>;
}

/** What a declaration says that the console's half is derived from; no table, no functions. */
export type DeclaredParts = {
  service: string; item: TObject; create: TObject; update: TObject;
  scope: { level: ScopeLevel; field: string } | null; mount?: string;
  methods: { list?: string; create?: string; update?: string; delete?: string };
  sortable: readonly string[]; defaultSorting: string; filters: Readonly<Record<string, 'equals' | 'contains'>>;
};
