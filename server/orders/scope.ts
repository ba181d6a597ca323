import { eq, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { branches, orders } from '../db/schema';
import type { Caller } from '../http/context';

/**
 * Which orders (or branches) a caller may see and change, as one Drizzle `where` fragment:
 * ADMIN everything, COMPANY_ADMIN the brands of their company, BRAND_MANAGER their brand,
 * BRANCH_USER their branch, anyone else nothing. A null caller is the system itself
 * (e.g. the payment callback) and is not restricted. Every order query goes through here.
 */
export function scopeWhere(caller: Caller, cols: { brandId: AnyColumn; branchId: AnyColumn }): SQL | undefined {
  if (caller === null) return undefined;
  switch (caller.role) {
    case 'ADMIN':
      return undefined;
    case 'COMPANY_ADMIN':
      return caller.companyId == null
        ? sql`false`
        : sql`${cols.brandId} in (select "id" from "brands" where "company_id" = ${caller.companyId})`;
    case 'BRAND_MANAGER':
      return caller.brandId == null ? sql`false` : eq(cols.brandId, caller.brandId);
    case 'BRANCH_USER':
      return caller.branchId == null ? sql`false` : eq(cols.branchId, caller.branchId);
    default:
      return sql`false`;
  }
}

/** Orders in the caller's scope. */
export const orderScope = (caller: Caller) => scopeWhere(caller, { brandId: orders.brandId, branchId: orders.branchId });

/** Branches in the caller's scope. */
export const branchScope = (caller: Caller) => scopeWhere(caller, { brandId: branches.brandId, branchId: branches.id });
