import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { brands } from '../db/schema';
import type { AppContext } from '../http/context';
import { ApiError, forbidden, notFound, unauthorized } from '../http/envelope';
import { authorize } from '../http/routes';
import { mayReadOrder, orderKeyOf } from '../services/store/orderAccess';
import { can } from '../../domain/permissions';
import type { OrderEvent, ResumeFrom } from './orderEvents';
import { reachOf, withinScope } from '../resources/scope';

/** Decides, per event, whether a live-feed subscriber may see it. */
export type OrderEventFilter = (event: OrderEvent) => boolean | Promise<boolean>;

/** What the gateway's subscription needs from the server: the events, and who may see which. */
export interface LiveOrderFeedSource {
  /**
   * Hands each event to the listener until unsubscribed. `end` is called when the feed closes
   * (the server is shutting down), so the subscriber's stream ends and its console reconnects elsewhere.
   * With `resume`, the events after the subscriber's last id come first, from the database (OrderEvents).
   */
  subscribe(listener: (event: OrderEvent) => void, end?: () => void, resume?: ResumeFrom): () => void;
  /**
   * Checks the subscriber's bearer token (Authorization header) like a REST call, and returns the
   * filter of their scope (server/resources/scope.ts reachOf, the same rule as the order lists),
   * narrowed to `branchId` when given. Throws a 401/403 ApiError.
   */
  authorize(authorization: string | undefined, branchId?: number | null): Promise<OrderEventFilter>;
  /**
   * For one order's tracker (the shop's /track-order): the caller must be a customer (registered
   * or guest) who may read the order as Store/GetOrderDetail lets them (the owner, or the holder of
   * its ohash), or hold its ohash without a token. Returns the filter of that order's events only.
   * Throws a 401/403, or a 404 as GetOrderDetail does, so an order id alone reveals nothing.
   */
  authorizeOrder(authorization: string | undefined, orderId: number, ohash?: string | null): Promise<OrderEventFilter>;
}

export function createLiveOrderFeed(ctx: AppContext): LiveOrderFeedSource & { close(): void } {
  const ends = new Set<() => void>();
  let closed = false;
  return {
    subscribe(listener, end, resume) {
      if (closed) {
        if (end) queueMicrotask(end);
        return () => {};
      }
      const unsubscribe = ctx.events.subscribe(listener, resume);
      const stop = () => { unsubscribe(); if (end) ends.delete(end); };
      if (end) ends.add(end);
      return stop;
    },
    /** Ends every open subscription and refuses new ones. */
    close() {
      closed = true;
      for (const end of [...ends]) end();
      ends.clear();
    },
    async authorizeOrder(authorization, orderId, ohash) {
      const caller = authorization ? await ctx.auth.callerOf({ headers: { authorization } } as FastifyRequest) : null;
      const order = await orderKeyOf(ctx.db, orderId);
      // Without a token, the ohash is the credential (the /track-order link opened anywhere): holding
      // the order follows it; anything else is the 401 it always was, a wrong ohash like an unknown order.
      if (!caller && mayReadOrder(null, order, ohash)) return (e) => e.orderId === orderId;
      authorize('customer', caller);
      if (!mayReadOrder(caller, order, ohash)) throw notFound('Order');
      return (e) => e.orderId === orderId;
    },
    async authorize(authorization, branchId) {
      if (!authorization) throw unauthorized();
      const caller = await ctx.auth.callerOf({ headers: { authorization } } as FastifyRequest);
      if (!caller) throw unauthorized();
      if (!can(caller.role, 'orders.view')) throw forbidden();
      if (caller.role === 'BRANCH_USER' && branchId != null && branchId !== caller.branchId) {
        throw new ApiError(403, 'You can only follow the orders of your own branch.');
      }
      const inBranch = (e: OrderEvent) => branchId == null || e.branchId === branchId;
      const reach = reachOf(caller);
      if (reach.level !== 'company') return (e) => inBranch(e) && withinScope(reach, e);
      // A company admin's reach is by company: an event names its brand, whose company is read
      // once per brand (again for a brand not seen yet, e.g. a new one).
      const companyOf = new Map<number, number | null>();
      return async (e) => {
        if (!inBranch(e)) return false;
        if (!companyOf.has(e.brandId)) {
          const [brand] = await ctx.db.select({ companyId: brands.companyId }).from(brands).where(eq(brands.id, e.brandId));
          companyOf.set(e.brandId, brand?.companyId ?? null);
        }
        return withinScope(reach, { ...e, companyId: companyOf.get(e.brandId) });
      };
    },
  };
}
