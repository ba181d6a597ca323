import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { brands } from '../db/schema';
import type { AppContext } from '../http/context';
import { ApiError, forbidden, unauthorized } from '../http/envelope';
import { can } from '../../domain/permissions';
import type { OrderEvent } from './orderEvents';
import { managedBrandIds } from '../resources/scope';

/** Decides, per event, whether a live-feed subscriber may see it. */
export type OrderEventFilter = (event: OrderEvent) => boolean | Promise<boolean>;

/** What the gateway's subscription needs from the server: the events, and who may see which. */
export interface LiveOrderFeedSource {
  /**
   * Hands each event to the listener until unsubscribed. `end` is called when the feed closes
   * (the server is shutting down), so the subscriber's stream ends and its console reconnects elsewhere.
   */
  subscribe(listener: (event: OrderEvent) => void, end?: () => void): () => void;
  /**
   * Checks the subscriber's bearer token (Authorization header) like a REST call, and returns the
   * filter of their scope (ADMIN all, COMPANY_ADMIN their company's brands, BRAND_MANAGER the
   * brands they manage, BRANCH_USER their branch), narrowed to `branchId` when given. Throws a 401/403 ApiError.
   */
  authorize(authorization: string | undefined, branchId?: number | null): Promise<OrderEventFilter>;
}

export function createLiveOrderFeed(ctx: AppContext): LiveOrderFeedSource & { close(): void } {
  const ends = new Set<() => void>();
  let closed = false;
  return {
    subscribe(listener, end) {
      if (closed) {
        if (end) queueMicrotask(end);
        return () => {};
      }
      const unsubscribe = ctx.events.subscribe(listener);
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
    async authorize(authorization, branchId) {
      if (!authorization) throw unauthorized();
      const caller = await ctx.auth.callerOf({ headers: { authorization } } as FastifyRequest);
      if (!caller) throw unauthorized();
      if (!can(caller.role, 'orders.view')) throw forbidden();
      if (caller.role === 'BRANCH_USER' && branchId != null && branchId !== caller.branchId) {
        throw new ApiError(403, 'You can only follow the orders of your own branch.');
      }
      const inBranch = (e: OrderEvent) => branchId == null || e.branchId === branchId;
      switch (caller.role) {
        case 'ADMIN':
          return inBranch;
        case 'BRAND_MANAGER':
          return (e) => managedBrandIds(caller).includes(e.brandId) && inBranch(e);
        case 'BRANCH_USER':
          return (e) => e.branchId === caller.branchId && inBranch(e);
        case 'COMPANY_ADMIN': {
          // Brands of the company, re-read when an event names a brand not seen yet (a new brand).
          const companyOf = new Map<number, number | null>();
          return async (e) => {
            if (!inBranch(e)) return false;
            if (!companyOf.has(e.brandId)) {
              const [brand] = await ctx.db.select({ companyId: brands.companyId }).from(brands).where(eq(brands.id, e.brandId));
              companyOf.set(e.brandId, brand?.companyId ?? null);
            }
            return companyOf.get(e.brandId) === caller.companyId;
          };
        }
        default:
          throw forbidden();
      }
    },
  };
}
