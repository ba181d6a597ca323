import { and, desc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Db, Tx } from '../db/client';
import { auditLog, users } from '../db/schema';
import { badRequest, notFound, Obj } from '../http/envelope';
import { Nullable } from '../http/nullable';
import { authorize, route, service } from '../http/routes';
import type { AppContext, Caller } from '../http/context';
import { columnsAt, scopeWhere, type ScopeLevel } from './scope';
import type { Capability } from '../../domain/permissions';

/**
 * Rows of one service, scoped: what every declared resource is (server/resources/resource.ts's
 * Resource extends it) and what its history reads.
 */
export interface ScopedRows {
  service: string;
  label: string;
  scope: { level: ScopeLevel; field: string } | null;
  /** Whether row `id` is inside the caller's scope, outside it, or absent. */
  rowScope(db: Db | Tx, caller: Caller, id: number): Promise<'inside' | 'outside' | 'absent'>;
}

/**
 * What history needs of a resource: every declared resource has it, and hand-written services
 * whose writes are audited (the menu) declare it too.
 */
export type HistorySource = ScopedRows & { can: { view: Capability } };

export type AuditAction = 'create' | 'update' | 'delete';

export interface AuditEntry {
  action: AuditAction;
  /** The resource's service name, e.g. 'Tax'. */
  resource: string;
  rowId: number;
  /** The row's company, brand or branch id (its scope column), null for unscoped resources. */
  scopeId: number | null;
  /** The row as the API shows it, before and after; null for a create's before and a delete's after. */
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/**
 * Appends who did what to which row. Takes the transaction of the write itself, so a change and
 * its history commit or roll back together.
 */
export async function appendAudit(tx: Tx, caller: Caller, entry: AuditEntry | AuditEntry[]): Promise<void> {
  // Several entries (a bulk write, e.g. an uploaded list) go in one statement.
  const entries = Array.isArray(entry) ? entry : [entry];
  if (entries.length) await tx.insert(auditLog).values(entries.map((e) => ({ ...e, userId: caller?.id ?? null })));
}

export const AuditRecord = Obj('AuditRecord', {
  id: Type.Integer(),
  at: Type.String(),
  userId: Nullable(Type.Integer()),
  userName: Nullable(Type.String()),
  action: Type.String({ description: 'create | update | delete' }),
  resource: Type.String(),
  rowId: Type.Integer(),
  before: Nullable(Type.Record(Type.String(), Type.Unknown())),
  after: Nullable(Type.Record(Type.String(), Type.Unknown())),
});
const AuditHistory = Obj('AuditHistory', { data: Type.Array(AuditRecord), totalCount: Type.Integer() });
const HistoryQuery = Obj('AuditHistoryQuery', {
  resource: Type.String({ maxLength: 60, description: 'The service name of the resource, e.g. Tax.' }),
  id: Type.Integer({ minimum: 1, maximum: 2147483647 }),
});

/** How many history entries one answer holds, newest first. */
const HISTORY_LIMIT = 200;

/**
 * AuditLog/GetEntityHistory?resource=&id=: one row's history, newest first. Needs the resource's
 * view capability; a live row outside the caller's scope is a 404, and a deleted row's history is
 * scoped by the place it belonged to.
 */
export function registerAuditHistory(app: FastifyInstance, ctx: AppContext, resources: readonly HistorySource[]) {
  service(app, ctx, 'AuditLog', [
    route({
      method: 'GET', name: 'GetEntityHistory', access: 'dashboard.view',
      summary: "A row's change history (who, when, before and after), newest first.",
      query: HistoryQuery, result: AuditHistory,
      handler: async ({ query, caller }) => {
        const resource = resources.find((r) => r.service.toLowerCase() === query.resource.toLowerCase());
        if (!resource) {
          throw badRequest(`There is no resource "${query.resource}". Known: ${resources.map((r) => r.service).join(', ')}.`, [
            { message: 'Unknown resource.', members: ['resource'] },
          ]);
        }
        authorize(resource.can.view, caller);
        if ((await resource.rowScope(ctx.db, caller, query.id)) === 'outside') throw notFound(resource.label);
        const where = and(
          eq(auditLog.resource, resource.service),
          eq(auditLog.rowId, query.id),
          resource.scope ? scopeWhere(caller, columnsAt(resource.scope.level, auditLog.scopeId)) : undefined,
        );
        const rows = await ctx.db
          .select({
            id: auditLog.id, at: auditLog.at, userId: auditLog.userId, userName: users.userName, action: auditLog.action,
            resource: auditLog.resource, rowId: auditLog.rowId, before: auditLog.before, after: auditLog.after,
          })
          .from(auditLog)
          .leftJoin(users, eq(users.id, auditLog.userId))
          .where(where)
          .orderBy(desc(auditLog.id))
          .limit(HISTORY_LIMIT);
        const [{ n }] = await ctx.db.select({ n: sql<number>`count(*)::int` }).from(auditLog).where(where);
        return {
          data: rows.map((r) => ({
            ...r,
            at: new Date(r.at).toISOString(),
            before: r.before as Record<string, unknown> | null,
            after: r.after as Record<string, unknown> | null,
          })),
          totalCount: Number(n),
        };
      },
    }),
  ]);
}
