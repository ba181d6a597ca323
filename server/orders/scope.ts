import type { SQL } from 'drizzle-orm';
import { branches, orders } from '../db/schema';
import type { Caller } from '../http/context';
import { scopeWhere } from '../resources/scope';

/** Orders in the caller's scope (server/resources/scope.ts holds the rule). Every order query goes through here. */
export const orderScope = (caller: Caller): SQL | undefined => scopeWhere(caller, { brandId: orders.brandId, branchId: orders.branchId });

/** Branches in the caller's scope. */
export const branchScope = (caller: Caller): SQL | undefined => scopeWhere(caller, { brandId: branches.brandId, branchId: branches.id });
