/**
 * The admin resource shape: one declaration gives a resource's list / create / update / delete
 * routes under their legacy names (SPEC.md 7), scoped, authorised, validated and audited.
 *
 * ```ts
 * export const taxResource = defineResource({
 *   service: 'Tax',                                  // /api/services/app/Tax/<Method>
 *   table: taxes,                                    // Drizzle table with a serial `id`
 *   item: Tax, create: TaxCreate, update: TaxUpdate, // TypeBox objects; update carries `id`
 *   scope: { level: 'brand', field: 'brandId' },     // or null for rows that belong to no place
 *   can: { view: 'brands.manage', create: 'brands.manage', update: 'brands.manage', delete: 'brands.manage' },
 *   methods: { list: 'GetAllByBrandId', create: 'Create', update: 'Update', delete: 'Delete?TaxId' },
 *   sortable: ['id', 'name', 'percent'], defaultSorting: 'name asc',
 *   filters: { brandId: 'equals', isActive: 'equals', name: 'contains' },
 * });
 * ```
 * Then add it to RESOURCES in server/resources/index.ts (the one place resources are registered).
 *
 * What it gives:
 * - list (GET): `SkipCount`, `MaxResultCount` (≤ 100), `Sorting` ("name asc", only `sortable`
 *   fields, else 400), `Search` (contains over the `contains` fields), one parameter per filter
 *   (equality or contains, named as the field), `id` (one row); answers `{ data, totalCount }`;
 * - create (POST, body = `create`) and update (PUT, body = `update` with `id`; only the fields sent
 *   change, the scope field never does) answer the saved item; delete (DELETE, `?<IdParam>=`) answers true;
 * - every query and write is limited to the caller's scope (server/resources/scope.ts): a row
 *   outside it is a 404, a parent id outside it or unknown is a 400, a role without the action's
 *   capability a 403, and nothing is written;
 * - every write appends to `audit_log` in its own transaction (server/resources/audit.ts);
 * - a delete that other rows still refer to (a foreign key: orders, customers, users) is refused
 *   with a 409 and a sentence, so history is never removed (docs/decisions.md).
 * Rows map to items field by field (same names; numeric columns become numbers, timestamps ISO
 * strings); give `toItem` when they differ. A body per kind, switches, work after a write and the
 * other calls are hooks of the declaration (below); those calls use `scopeOf`, `audited`, `list`.
 */
import { and, eq, getTableColumns, inArray, isNull, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { Type, type Static, type TObject, type TSchema } from 'typebox';
import type { Db, Tx } from '../db/client';
import { foreignKeyViolation, uniqueViolation } from '../db/uniqueViolation';
import { badRequest, conflict, notFound, Obj } from '../http/envelope';
import { pageOf } from '../http/paging';
import { route, service } from '../http/routes';
import type { AppContext, Caller } from '../http/context';
import { appendAudit } from './audit';
import type { Resource, ResourceDeclaration, Row } from './declaration';
import { columnsAt, placeInScope, scopeWhere } from './scope';
export type { DeclaredParts, DeclaredResource, Resource, ResourceDeclaration } from './declaration';
import { containsText, equalsValue, filterParam, orderByOf, sharedListFields } from './list';

const INT_ID = { minimum: 1, maximum: 2147483647 };

export function defineResource<T extends PgTable, I extends TObject, C extends TObject, U extends TObject>(
  decl: ResourceDeclaration<T, I, C, U>,
): Resource<T, I> {
  const columns = getTableColumns(decl.table) as Record<string, AnyColumn & { columnType: string }>;
  const idColumn = columns.id;
  const title = (decl.item as { title?: string }).title ?? decl.service;
  const label = decl.label ?? title;
  const itemFields = Object.keys(decl.item.properties);
  if (!idColumn) throw new Error(`${decl.service}: the table has no id column`);
  const selfScoped = decl.scope?.field === 'id';
  if (decl.scope && !selfScoped && !(decl.scope.field in decl.create.properties)) throw new Error(`${decl.service}: create must hold the scope field ${decl.scope.field}`);
  for (const f of [...decl.sortable, ...Object.keys(decl.filters ?? {})]) if (!columns[f]) throw new Error(`${decl.service}: no column ${f}`);

  const scopeColumn = decl.scope && columns[decl.scope.field];
  const via = decl.scope?.via;
  /** The caller's places over a column: the row's own, or (`via`) its parent's. */
  const placedIn = (caller: Caller, column: AnyColumn) => {
    if (!via) return scopeWhere(caller, columnsAt(decl.scope!.level, column));
    const parents = scopeWhere(caller, columnsAt(decl.scope!.level, via.column));
    return parents && inArray(column, sql`(select ${via.table.id} from ${via.table} where ${parents})`);
  };
  const scopeOf = (caller: Caller) => and(decl.scope && scopeColumn ? placedIn(caller, scopeColumn) : undefined, decl.visibleTo?.(caller));
  /** Rows that are not archived (every query but history's). */
  const live = decl.archive && isNull(columns[decl.archive.column]);
  /** The place (company, brand, branch id) of a row, as its audit entry keeps it. */
  const placeOf = async (tx: Tx, row: Record<string, unknown>) => {
    if (!decl.scope) return null;
    if (!via) return Number(row[decl.scope.field]);
    const [parent] = await tx.select({ place: sql<number>`${via.column}` }).from(via.table).where(eq(via.table.id, row[decl.scope.field]));
    return Number(parent?.place);
  };

  const toItem = decl.toItem ?? ((row: Row<T>) => {
    const out: Record<string, unknown> = {};
    for (const key of itemFields) {
      const value = (row as Record<string, unknown>)[key];
      // a nullable number (Union of Number and Null) is a number too
      const schema = decl.item.properties[key] as { type?: string; anyOf?: { type?: string }[] };
      const type = schema.type ?? schema.anyOf?.find((s) => s.type === 'number' || s.type === 'integer')?.type;
      out[key] = value instanceof Date ? value.toISOString()
        : (type === 'number' || type === 'integer') && typeof value === 'string' ? Number(value)
        : value;
    }
    return out as Static<I>;
  });

  /** The body's fields as column values (numbers into numeric columns, ISO strings into timestamps). */
  const toColumns = (body: Record<string, unknown>, fields: string[]) => {
    const values: Record<string, unknown> = {};
    for (const key of fields) {
      if (!(key in body) || body[key] === undefined || !columns[key]) continue;
      const v = body[key];
      const kind = columns[key].columnType;
      values[key] = kind === 'PgNumeric' && typeof v === 'number' ? String(v)
        : kind === 'PgTimestamp' && typeof v === 'string' ? new Date(v)
        : v;
    }
    return values;
  };

  const rowScope: Resource<T, I>['rowScope'] = async (db, caller, id) => {
    const [found] = await db.select({ inside: scopeOf(caller) ?? sql<boolean>`true` }).from(decl.table as PgTable).where(eq(idColumn, id)).limit(1);
    return !found ? 'absent' : found.inside ? 'inside' : 'outside';
  };

  const audited: Resource<T, I>['audited'] = async (db, caller, action, write) => {
    try {
      return await db.transaction(async (tx) => {
        const { before, after: written } = await write(tx);
        const after = (await decl.afterWrite?.(tx, { action, before, after: written })) ?? written;
        const row = (after ?? before) as Record<string, unknown> | null;
        if (!row) return null;
        const beforeItem = before && (toItem(before) as Record<string, unknown>);
        const afterItem = after && (toItem(after) as Record<string, unknown>);
        // An update that changed nothing leaves no history.
        if (action !== 'update' || JSON.stringify(beforeItem) !== JSON.stringify(afterItem)) {
          await appendAudit(tx, caller, {
            action, resource: decl.service, rowId: Number(row.id),
            scopeId: await placeOf(tx, row), before: beforeItem, after: afterItem,
          });
        }
        return after ?? before;
      });
    } catch (err) {
      if (foreignKeyViolation(err) !== null) {
        throw conflict(`This ${label.toLowerCase()} cannot be ${action === 'delete' ? 'deleted' : 'changed'}: orders, customers or users refer to it, and their history is kept.`);
      }
      const unique = uniqueViolation(err);
      if (unique !== null && decl.uniqueMessages?.[unique]) throw badRequest(decl.uniqueMessages[unique]);
      if (unique !== null) throw conflict(`Another ${label.toLowerCase()} already has these values.`);
      throw err;
    }
  };

  const filters = Object.entries(decl.filters ?? {}) as [string, 'equals' | 'contains'][];
  const containsFields = filters.filter(([, kind]) => kind === 'contains').map(([f]) => f);
  const sortable = Object.fromEntries(decl.sortable.map((f) => [f, columns[f]]));
  orderByOf(decl.defaultSorting, sortable, decl.defaultSorting, idColumn); // a wrong default fails at start-up, not on a request

  const list: Resource<T, I>['list'] = async (db, caller, query) => {
    const orderBy = orderByOf(query.Sorting as string | undefined, sortable, decl.defaultSorting, idColumn);
    const parts: (SQL | undefined)[] = [scopeOf(caller), live];
    if (query.id !== undefined) parts.push(eq(idColumn, query.id));
    for (const [field, kind] of filters) {
      const value = query[field];
      if (value === undefined || value === '') continue;
      parts.push(kind === 'contains' ? containsText(columns[field], String(value)) : equalsValue(columns[field], value));
    }
    const search = typeof query.Search === 'string' ? query.Search.trim() : '';
    if (search && containsFields.length) {
      parts.push(sql`(${sql.join(containsFields.map((f) => containsText(columns[f], search)), sql` or `)})`);
    }
    const where = and(...parts);
    const { offset, limit } = pageOf(query as { SkipCount: number; MaxResultCount: number });
    const table = decl.table as PgTable;
    const [rows, [{ n }]] = await Promise.all([
      db.select().from(table).where(where).orderBy(...orderBy).limit(limit).offset(offset),
      db.select({ n: sql<number>`count(*)::int` }).from(table).where(where),
    ]);
    return { data: (rows as Row<T>[]).map(toItem), totalCount: Number(n) };
  };

  const ListQuery = Obj(`${title}ListQuery`, {
    ...sharedListFields,
    id: Type.Optional(Type.Integer({ ...INT_ID, description: 'Only this row.' })),
    ...Object.fromEntries(filters.map(([f]) => [f, filterParam(decl.item.properties[f] as TSchema)])),
  });
  const ListResult = Obj(`${title}List`, { data: Type.Array(decl.item), totalCount: Type.Integer() });
  const writableOf = (create: TObject, update: TObject) => ({ create: Object.keys(create.properties),
    update: Object.keys(update.properties).filter((f) => f !== 'id' && (f !== decl.scope?.field || !!via)) });
  /** The columns a body writes: the declaration's mapping of the fields sent, else field by field. */
  const columnsOf = (body: Record<string, unknown>, fields: string[], before: Row<T> | null) => (!decl.toColumns ? toColumns(body, fields)
    : decl.toColumns(Object.fromEntries(fields.filter((f) => body[f] !== undefined).map((f) => [f, body[f]])), before));
  const withTitle = (schema: TObject, name: string) => ({ ...schema, title: (schema as { title?: string }).title ?? name }) as TObject;
  const [deleteName, deleteParams] = decl.methods.delete?.split('?') ?? [];
  const [deleteIdParam, deleteParentParam] = deleteParams?.split('&') ?? [];

  /** The row `id` inside the caller's scope, locked for the write; 404 otherwise (existence is not revealed). */
  const lockInScope = async (tx: Tx, caller: Caller, id: number) => {
    const [row] = await tx.select().from(decl.table as PgTable).where(and(eq(idColumn, id), scopeOf(caller), live)).for('update');
    if (!row) throw notFound(label);
    return row as Row<T>;
  };

  const checkReferences = async (db: Db, body: Record<string, unknown>) => {
    for (const [field, ref] of Object.entries(decl.references ?? {}) as [string, { table: PgTable & { id: AnyColumn }; label: string }][]) {
      const value = body[field];
      if (value === undefined || value === null) continue;
      const found = await db.select({ one: sql<number>`1` }).from(ref.table).where(eq(ref.table.id, value)).limit(1);
      if (!found.length) {
        const message = `There is no ${ref.label} ${String(value)}.`;
        throw badRequest(message, [{ message, members: [field] }]);
      }
    }
  };

  /** The parent row `id` (`via`), live and in the caller's scope: its place; 404 otherwise. */
  const parentPlace = async (db: Db | Tx, caller: Caller, id: number) => {
    const [parent] = await db.select({ place: sql<number>`${via!.column}` }).from(via!.table)
      .where(and(eq(via!.table.id, id), via!.live, scopeWhere(caller, columnsAt(decl.scope!.level, via!.column)))).limit(1);
    if (!parent) throw notFound(via!.label);
    return Number(parent.place);
  };

  /** The body's references and parent, in the caller's scope (a 400 or 404 otherwise); answers the parent's place (`via`). */
  const checkParent = async (db: Db, caller: Caller, body: Record<string, unknown>): Promise<number | undefined> => {
    await checkReferences(db, body);
    if (!decl.scope || selfScoped) return;
    const id = Number(body[decl.scope.field]);
    if (via) return parentPlace(db, caller, id);
    if (!(await placeInScope(db, caller, decl.scope.level, id))) {
      const message = `There is no ${decl.scope.level} ${id} you can manage.`;
      throw badRequest(message, [{ message, members: [decl.scope.field] }]);
    }
  };

  const insertRow = (tx: Tx, values: Record<string, unknown>) =>
    tx.insert(decl.table).values(values as never).returning() as unknown as Promise<Row<T>[]>;
  const updateRow = (tx: Tx, id: number, values: Record<string, unknown>) =>
    tx.update(decl.table).set(values as never).where(eq(idColumn, id)).returning() as unknown as Promise<Row<T>[]>;

  type Kind = { field: string; name: string; label: string } | null;
  const createRoute = (name: string, body: TObject, fields: string[], kind: Kind, summary = `Creates a ${label.toLowerCase()}.`) => route({
    method: 'POST', name, access: decl.can.create, summary, body, result: decl.item,
    handler: async ({ body, caller, ctx }) => {
      const input = { ...(body as Record<string, unknown>), ...(kind && { [kind.field]: kind.name }) };
      const parent = await checkParent(ctx.db, caller, input);
      const saved = await audited(ctx.db, caller, 'create', async (tx) => {
        await decl.check?.(tx, input, null);
        const values = columnsOf(input, kind ? [...fields, kind.field] : fields, null);
        if (via?.placeCopiedTo) values[via.placeCopiedTo] = parent;
        const [after] = await insertRow(tx, values);
        return { before: null, after };
      });
      return toItem(saved!);
    },
  });
  /** Changes the fields sent of the row `id` in scope (of `kind`, when given). */
  const change = (ctx: AppContext, caller: Caller, input: Record<string, unknown>, fields: string[], kind: Kind) =>
    audited(ctx.db, caller, 'update', async (tx) => {
      const before = await lockInScope(tx, caller, Number(input.id));
      if (kind && (before as Record<string, unknown>)[kind.field] !== kind.name) throw notFound(kind.label);
      const parentId = via && input[decl.scope!.field];
      // A row placed by its parent moves only to a parent of the same place.
      if (parentId !== undefined && parentId !== null && parentId !== (before as Record<string, unknown>)[decl.scope!.field]
        && (await parentPlace(tx, caller, Number(parentId))) !== (await placeOf(tx, before as Record<string, unknown>))) throw notFound(via!.label);
      const values = columnsOf(input, fields, before);
      const changed = Object.fromEntries(fields.filter((f) => input[f] !== undefined).map((f) => [f, input[f]]));
      await decl.check?.(tx, { ...(toItem(before) as Record<string, unknown>), ...changed }, before);
      const [after] = Object.keys(values).length ? await updateRow(tx, Number(input.id), values) : [before];
      return { before, after };
    });
  const updateRoute = (method: string, body: TObject, fields: string[], kind: Kind, summary = `Changes a ${label.toLowerCase()}: only the fields sent.`) => {
    const [verb, name] = method.includes(' ') ? method.split(' ') : ['PUT', method];
    return route({
      method: verb as 'PUT' | 'POST', name, access: decl.can.update, summary, body, result: decl.item,
      handler: async ({ body, caller, ctx }) => {
        const input = body as Record<string, unknown>;
        await checkReferences(ctx.db, input);
        return toItem((await change(ctx, caller, input, fields, kind))!);
      },
    });
  };
  const plain = writableOf(decl.create, decl.update);
  const kinds = Object.entries(decl.kinds?.of ?? {});

  const routes = [
    decl.methods.list && route({
      method: 'GET', name: decl.methods.list, access: decl.can.view,
      summary: `${label} list: paged, sorted by ${decl.sortable.join(', ')}, in the caller's scope.`,
      query: ListQuery, result: ListResult,
      handler: async ({ query, caller, ctx }) => (await list(ctx.db, caller, query as Record<string, unknown>)) as never,
    }),
    decl.methods.create && createRoute(decl.methods.create, withTitle(decl.create, `${title}CreateInput`), plain.create, null),
    decl.methods.update && updateRoute(decl.methods.update, withTitle(decl.update, `${title}UpdateInput`), plain.update, null),
    ...kinds.flatMap(([name, k]) => {
      const [kind, fields] = [{ field: decl.kinds!.field, name, label: k.label }, writableOf(k.create, k.update)];
      return [createRoute(k.methods.create, k.create, fields.create.filter((f) => f !== kind.field), kind, `Creates a ${k.label}.`),
        updateRoute(k.methods.update, k.update, fields.update, kind, `Changes a ${k.label}; only the fields sent change.`)];
    }),
    ...Object.entries(decl.switches ?? {}).map(([name, sw]) => route({
      method: 'POST', name, access: sw.can ?? decl.can.update, summary: sw.summary,
      body: Obj(`${name}Input`, { [sw.id]: Type.Integer(INT_ID), [sw.field]: Type.Boolean() }), result: decl.item,
      handler: async ({ body, caller, ctx }) => toItem((await change(ctx, caller,
        { id: (body as Record<string, unknown>)[sw.id], [sw.field]: (body as Record<string, unknown>)[sw.field] }, [sw.field], null))!),
    })),
    deleteName && route({
      method: 'DELETE', name: deleteName, access: decl.can.delete, summary: `Deletes a ${label.toLowerCase()} (refused while other records refer to it).`,
      query: Obj(`${title}DeleteQuery`, { [deleteIdParam]: Type.Integer(INT_ID), ...(deleteParentParam ? { [deleteParentParam]: Type.Optional(Type.Integer(INT_ID)) } : {}) }),
      result: Type.Boolean(),
      handler: async ({ query, caller, ctx }) => {
        const params = query as Record<string, unknown>;
        const id = Number(params[deleteIdParam]);
        await audited(ctx.db, caller, 'delete', async (tx) => {
          const before = await lockInScope(tx, caller, id);
          if (deleteParentParam && params[deleteParentParam] !== undefined && decl.scope && Number((before as Record<string, unknown>)[decl.scope.field]) !== Number(params[deleteParentParam])) throw notFound(label);
          if (decl.archive) {
            await decl.archive.refuse?.(tx, before);
            await tx.update(decl.table).set({ [decl.archive.column]: new Date() } as never).where(eq(idColumn, id));
          } else await tx.delete(decl.table).where(eq(idColumn, id));
          return { before, after: null };
        });
        return true;
      },
    }),
  ].filter((r): r is ReturnType<typeof route> => !!r);

  const self: Resource<T, I> = {
    service: decl.service, label, scope: decl.scope, can: decl.can,
    declaration: {
      service: decl.service, mount: decl.mount, item: decl.item, create: decl.create, update: decl.update,
      scope: decl.scope && { level: decl.scope.level, field: decl.scope.field }, methods: decl.methods,
      sortable: decl.sortable, defaultSorting: decl.defaultSorting, filters: (decl.filters ?? {}) as Record<string, 'equals' | 'contains'>,
    },
    register: (app, ctx) => service(app, ctx, decl.mount ?? decl.service, [...routes, ...(decl.calls?.(self) ?? [])]),
    scopeOf, rowScope, toItem, audited, list,
  };
  return self;
}
