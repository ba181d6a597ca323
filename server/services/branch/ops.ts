import { Type } from 'typebox';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { branches } from '../../db/schema';
import { badRequest, forbidden, notFound, Obj } from '../../http/envelope';
import { route, service } from '../../http/routes';
import { allowEmptyBody } from '../../http/emptyBody';
import type { AppContext, Caller } from '../../http/context';
import { ShopBranch, branchColumns, withOrderingStatus } from '../brand/shop';
import { requestLanguage } from '../../http/language';
import { busyModeOf, busyModeRoutes } from './busy';


/** The branch user's own branch: the busy flag is only theirs to read and set (capability 'branch.busy'). */
function ownBranch(caller: Caller): number {
  if (!caller?.branchId) throw forbidden('You are not assigned to a branch.');
  return caller.branchId;
}

/**
 * The branch calls of live order operations. The busy flag lives in branches.is_busy; the
 * shop's order saving refuses new orders for a busy branch.
 */
export function registerBranchOps(app: FastifyInstance, ctx: AppContext) {
  allowEmptyBody(app, ['/api/services/app/Branch/UpdateIsbusy']);
  service(app, ctx, 'Branch', [
    route({
      method: 'GET',
      name: 'GetById',
      access: 'public',
      summary: "A branch's public details (the shop shows its delivery text, hours and busy flag), named in the request's language (Accept-Language).",
      query: Obj('BranchGetByIdQuery', { branchId: Type.Integer({ minimum: 1 }) }),
      result: ShopBranch,
      async handler({ query, ctx, req }) {
        const [branch] = await ctx.db
          .select(branchColumns(requestLanguage(req.headers)))
          .from(branches)
          .where(eq(branches.id, query.branchId));
        if (!branch) throw notFound('Branch');
        return (await withOrderingStatus(ctx.db, [branch]))[0];
      },
    }),
    route({
      method: 'GET',
      name: 'GetIsbusy',
      access: 'branch.busy',
      summary: "Whether the caller's branch is busy (takes no new orders).",
      result: Type.Boolean(),
      async handler({ caller, ctx }) {
        const [branch] = await ctx.db.select({
          branchId: branches.id, isBusy: branches.isBusy, busyUntil: branches.busyUntil, delayMinutes: branches.delayMinutes, delayUntil: branches.delayUntil,
        }).from(branches).where(eq(branches.id, ownBranch(caller)));
        if (!branch) throw notFound('Branch');
        return busyModeOf(branch).isBusy;
      },
    }),
    route({
      method: 'PUT',
      name: 'UpdateIsbusy',
      access: 'branch.busy',
      summary: "Sets the caller's branch busy or not. isBusy in the query (legacy) or the body.",
      query: Obj('UpdateIsbusyQuery', { isBusy: Type.Optional(Type.Boolean()) }),
      body: Obj('UpdateIsbusyInput', { isBusy: Type.Optional(Type.Boolean()) }),
      result: Type.Boolean(),
      async handler({ query, body, caller, ctx }) {
        const isBusy = body.isBusy ?? query.isBusy;
        if (isBusy === undefined) throw badRequest('Your request is not valid!', [{ message: 'isBusy: is required', members: ['isBusy'] }]);
        // The legacy switch has no end time: busy until switched off (busy mode's timer is dropped).
        const updated = await ctx.db.update(branches).set({ isBusy, busyUntil: null }).where(eq(branches.id, ownBranch(caller))).returning({ isBusy: branches.isBusy });
        if (updated.length === 0) throw notFound('Branch');
        return updated[0].isBusy;
      },
    }),
    ...busyModeRoutes(),
  ]);
}
