import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { insertOrder } from '../support/orders';
import { useServer } from '../support/harness';
import { branches, brands, companies, orders } from '../../server/db/schema';
import type { Caller } from '../../server/http/context';
import { orderScope } from '../../server/orders/scope';
import { reachOf, withinScope } from '../../server/resources/scope';

/**
 * One role-scope rule (issue 11 "One order vocabulary"): the order lists read it as SQL
 * (scopeWhere), the live feed as a test of one order's place (withinScope). For every role, the
 * orders each form lets a caller see are the same, over orders in two companies, three brands
 * and four branches.
 */
let place: { companyId: number; brandId: number; branchId: number; otherBrandId: number; otherBranchId: number; otherCompanyId: number };
const server = useServer();
beforeAll(async () => {
  const db = server.database.db;
  const [{ id: _, createdAt: __, ...brand7 }] = await db.select().from(brands).where(eq(brands.id, 7));
  const [otherCompany] = await db.insert(companies).values({ name: 'Scope Test Co' }).returning();
  const [foreignBrand] = await db.insert(brands).values({ ...brand7, companyId: otherCompany.id, name: 'Scope Test Brand' }).returning();
  const [foreignBranch] = await db.insert(branches).values({ brandId: foreignBrand.id, name: 'Scope Test Branch' }).returning();
  const [siblingBrand] = await db.insert(brands).values({ ...brand7, name: 'Scope Sibling Brand' }).returning();
  const [siblingBranch] = await db.insert(branches).values({ brandId: siblingBrand.id, name: 'Scope Sibling Branch' }).returning();
  const [secondBranch] = await db.insert(branches).values({ brandId: 7, name: 'Scope Second Branch' }).returning();
  for (const [brandId, branchId] of [[7, 1], [7, secondBranch.id], [siblingBrand.id, siblingBranch.id], [foreignBrand.id, foreignBranch.id]]) {
    await insertOrder(server, { brandId, branchId, items: [] });
  }
  place = { companyId: brand7.companyId, brandId: 7, branchId: 1, otherBrandId: siblingBrand.id, otherBranchId: secondBranch.id, otherCompanyId: otherCompany.id };
});

const caller = (c: Partial<NonNullable<Caller>> & Pick<NonNullable<Caller>, 'role'>): Caller =>
  ({ id: 999, companyId: null, brandId: null, branchId: null, isGuest: false, ...c });

describe('the role scope of orders (issue 11)', () => {
  it('the lists (SQL) and the live feed (one order at a time) let each role see the same orders', async () => {
    const db = server.database.db;
    const all = await db.select({ id: orders.id, brandId: orders.brandId, branchId: orders.branchId, companyId: brands.companyId })
      .from(orders).innerJoin(brands, eq(brands.id, orders.brandId));
    const callers: Record<string, Caller> = {
      system: null,
      admin: caller({ role: 'ADMIN' }),
      companyAdmin: caller({ role: 'COMPANY_ADMIN', companyId: place.companyId }),
      otherCompanyAdmin: caller({ role: 'COMPANY_ADMIN', companyId: place.otherCompanyId }),
      companyAdminWithoutCompany: caller({ role: 'COMPANY_ADMIN' }),
      brandManager: caller({ role: 'BRAND_MANAGER', brandId: 7, brandIds: [7] }),
      twoBrandManager: caller({ role: 'BRAND_MANAGER', brandId: 7, brandIds: [7, place.otherBrandId] }),
      branchUser: caller({ role: 'BRANCH_USER', brandId: 7, branchId: 1 }),
      secondBranchUser: caller({ role: 'BRANCH_USER', brandId: 7, branchId: place.otherBranchId }),
      reviewer: caller({ role: 'BRAND_REVIEWER', brandId: 7 }),
      customer: caller({ role: 'CUSTOMER' }),
    };
    const seen: Record<string, number> = {};
    for (const [name, who] of Object.entries(callers)) {
      const bySql = (await db.select({ id: orders.id }).from(orders).where(orderScope(who))).map((r) => r.id).sort((a, b) => a - b);
      const reach = reachOf(who);
      const inMemory = all.filter((o) => withinScope(reach, o)).map((o) => o.id).sort((a, b) => a - b);
      expect(inMemory, name).toEqual(bySql);
      seen[name] = bySql.length;
    }
    // The rule itself, so the two cannot agree on nothing.
    const total = all.length;
    expect(seen.admin).toBe(total);
    expect(seen.system).toBe(total);
    expect(seen.companyAdmin).toBeGreaterThan(seen.brandManager);
    expect(seen.twoBrandManager).toBeGreaterThan(seen.brandManager);
    expect(seen.brandManager).toBeGreaterThan(seen.branchUser);
    expect(seen.otherCompanyAdmin).toBe(1);
    expect(seen.branchUser).toBeGreaterThan(0);
    expect(seen.secondBranchUser).toBe(1);
    for (const none of ['companyAdminWithoutCompany', 'reviewer', 'customer']) expect(seen[none], none).toBe(0);
    console.log(`orders seen by role: ${JSON.stringify(seen)}`);
  });
});
