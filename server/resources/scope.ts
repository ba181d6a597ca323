import { and, eq, inArray, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { branches, brands, companies } from '../db/schema';
import type { Caller } from '../http/context';
import { badRequest } from '../http/envelope';

/** Where a row belongs: a company, a brand or a branch (its scope column says which one). */
export type ScopeLevel = 'company' | 'brand' | 'branch';

/** The columns of a table that place its rows in the organisation; give the ones it has. */
export interface ScopeColumns { companyId?: AnyColumn; brandId?: AnyColumn; branchId?: AnyColumn }

const brandsOfCompany = (companyId: number) => sql`(select "id" from "brands" where "company_id" = ${companyId})`;
const branchesOfBrands = (brandIds: readonly number[]) =>
  sql`(select "id" from "branches" where "brand_id" in (${sql.join(brandIds.map((id) => sql`${id}`), sql`, `)}))`;

/**
 * The brands a brand manager manages: all of them (brand_managers, read with the caller each
 * request), or just `brandId` for a caller made without the list (the system, tests).
 */
export const managedBrandIds = (caller: NonNullable<Caller>): readonly number[] =>
  caller.brandIds ?? (caller.brandId != null ? [caller.brandId] : []);
const branchesOfCompany = (companyId: number) =>
  sql`(select "id" from "branches" where "brand_id" in (select "id" from "brands" where "company_id" = ${companyId}))`;

/**
 * What a caller reaches, by role: ADMIN everything, COMPANY_ADMIN their company, BRAND_MANAGER
 * every brand they manage, BRANCH_USER their branch, anyone else nothing. A null caller is the
 * system itself (e.g. the payment callback) and is not restricted. The one role-scope rule:
 * scopeWhere turns it into SQL for the lists, withinScope into a test of one place for the live feed.
 */
export type Reach =
  | { level: 'all' }
  | { level: 'company'; companyId: number }
  | { level: 'brand'; brandIds: readonly number[] }
  | { level: 'branch'; branchId: number }
  | { level: 'none' };

const NOTHING: Reach = { level: 'none' };

export function reachOf(caller: Caller): Reach {
  if (caller === null) return { level: 'all' };
  switch (caller.role) {
    case 'ADMIN':
      return { level: 'all' };
    case 'COMPANY_ADMIN':
      return caller.companyId == null ? NOTHING : { level: 'company', companyId: caller.companyId };
    case 'BRAND_MANAGER': {
      const brandIds = managedBrandIds(caller);
      return brandIds.length ? { level: 'brand', brandIds } : NOTHING;
    }
    case 'BRANCH_USER':
      return caller.branchId == null ? NOTHING : { level: 'branch', branchId: caller.branchId };
    default:
      return NOTHING;
  }
}

/**
 * Which rows a caller may see and change, as one Drizzle `where` fragment (reachOf's rule). A row
 * is in scope when the place it belongs to lies inside the caller's: a brand manager reaches their
 * brands' rows and their branches' rows, never the company's own rows. The most precise column
 * given is used (orders give brand and branch: a branch user is matched on the branch, a brand
 * manager on the brand). Every scoped query (orders, admin resources, users) goes through here.
 */
export function scopeWhere(caller: Caller, cols: ScopeColumns): SQL | undefined {
  const reach = reachOf(caller);
  const { companyId, brandId, branchId } = cols;
  switch (reach.level) {
    case 'all':
      return undefined;
    case 'company': {
      const id = reach.companyId;
      if (companyId) return eq(companyId, id);
      if (brandId) return sql`${brandId} in ${brandsOfCompany(id)}`;
      if (branchId) return sql`${branchId} in ${branchesOfCompany(id)}`;
      return sql`false`;
    }
    case 'brand':
      if (brandId) return inArray(brandId, [...reach.brandIds]);
      if (branchId) return sql`${branchId} in ${branchesOfBrands(reach.brandIds)}`;
      return sql`false`;
    case 'branch':
      return branchId ? eq(branchId, reach.branchId) : sql`false`;
    default:
      return sql`false`;
  }
}

/** Where one thing belongs, given whole: the brand of its branch and the company of its brand. */
export interface Place { companyId?: number | null; brandId?: number | null; branchId?: number | null }

/** scopeWhere's rule for one place in memory (an order event on the live feed). */
export function withinScope(reach: Reach, place: Place): boolean {
  switch (reach.level) {
    case 'all': return true;
    case 'company': return place.companyId === reach.companyId;
    case 'brand': return place.brandId != null && reach.brandIds.includes(place.brandId);
    case 'branch': return place.branchId === reach.branchId;
    default: return false;
  }
}

/** The scope columns of a table whose rows belong to one place through a single column. */
export const columnsAt = (level: ScopeLevel, column: AnyColumn): ScopeColumns =>
  level === 'company' ? { companyId: column } : level === 'brand' ? { brandId: column } : { branchId: column };

/**
 * Whether a company, brand or branch exists and lies in the caller's scope: the check on a
 * parent id a client sends (e.g. `brandId` of a new tax) before anything is written.
 */
export async function placeInScope(db: Db | Tx, caller: Caller, level: ScopeLevel, id: number): Promise<boolean> {
  const [table, cols] = level === 'company'
    ? [companies, { companyId: companies.id }] as const
    : level === 'brand'
      ? [brands, { brandId: brands.id }] as const
      : [branches, { brandId: branches.brandId, branchId: branches.id }] as const;
  const rows = await db.select({ id: table.id }).from(table).where(and(eq(table.id, id), scopeWhere(caller, cols))).limit(1);
  return rows.length > 0;
}

/**
 * The brand and branch a report is narrowed to, checked before anything is read: one outside the
 * caller's scope is refused like an unknown one, a 400 naming the field.
 */
export async function checkPlacesInScope(db: Db | Tx, caller: Caller, places: { brandId?: number; branchId?: number }) {
  for (const [level, id] of [['brand', places.brandId], ['branch', places.branchId]] as const) {
    if (id !== undefined && !(await placeInScope(db, caller, level, id))) throw unknownPlace(level, id);
  }
}

/** The 400 for a company, brand or branch the caller names but may not see (or that does not exist). */
export function unknownPlace(level: ScopeLevel, id: number) {
  const message = `There is no ${level} ${id} you can see.`;
  return badRequest(message, [{ message, members: [`${level}Id`] }]);
}
