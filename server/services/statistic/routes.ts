import { Type } from 'typebox';
import { asc, eq, inArray, or } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { branches, brands, companies } from '../../db/schema';
import { badRequest, Obj } from '../../http/envelope';
import { periodFields, periodOf } from '../../http/period';
import { route, service } from '../../http/routes';
import type { AppContext, Caller } from '../../http/context';
import { placeInScope, scopeWhere, unknownPlace } from '../../resources/scope';
import { statisticOf, type StatisticScope } from './statistics';

const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });

export const Statistic = Obj('Statistic', {
  companies: Type.Integer(),
  brands: Type.Integer(),
  branches: Type.Integer(),
  orders: Type.Integer({ description: 'Orders placed in the period, whatever became of them.' }),
  customers: Type.Integer({ description: 'Registered customers who ordered in the scope in the period (newCustomers + returningCustomers); guests are not counted.' }),
  registeredCustomers: Type.Integer({ description: "The scope's registered customers whenever they joined, as the Customers screen counts them: every one for the platform; for a company, brand or branch those with a wallet, an order or a reward card scan there." }),
  revenue: Type.Number({ description: 'The money captured for the orders placed in the period (paid online or cash collected at the branch), less their completed refunds.' }),
  refunded: Type.Number({ description: 'Completed refunds of those orders (the money is back with the customer): already taken off revenue.' }),
  refundsDue: Type.Number({ description: 'Refunds of those orders decided but not yet back with the customer (pending at the provider, failed and to be retried, owed in cash at the branch): still in revenue until given back.' }),
  newCustomers: Type.Integer({ description: 'Customers whose order in the period is their only one in the scope so far.' }),
  returningCustomers: Type.Integer({ description: 'Customers with more than one order in the scope up to the period end.' }),
  ordersByWeekdayHour: Type.Array(Obj('StatisticWeekdayHour', {
    weekday: Type.Integer({ description: '0 = Sunday … 6 = Saturday, Kuwait time.' }),
    hour: Type.Integer({ description: '0–23, Kuwait time.' }),
    orders: Type.Integer(),
  }), { description: 'The cells with orders; the others are 0.' }),
  revenueByBranch: Type.Array(Obj('StatisticBranchRevenue', {
    branchId: Type.Integer(), branchName: Type.String(), brandId: Type.Integer(), brandName: Type.String(),
    orders: Type.Integer(), revenue: Type.Number(), refunded: Type.Number(), refundsDue: Type.Number(),
  })),
});

const BranchId = Type.Integer({ minimum: 1, maximum: 2147483647, description: "Narrows the figures to one branch of the scope (the dashboard's branch filter)." });

/**
 * The scope narrowed to one branch when `branchId` is sent: a branch the caller may see, inside the
 * company or brand asked for; any other is refused like an unknown one (a 400 naming branchId).
 */
async function narrowed(ctx: AppContext, caller: Caller, scope: StatisticScope, branchId: number | undefined): Promise<StatisticScope> {
  if (branchId === undefined) return scope;
  const [branch] = await ctx.db.select({ brandId: branches.brandId, companyId: brands.companyId }).from(branches)
    .innerJoin(brands, eq(brands.id, branches.brandId)).where(eq(branches.id, branchId));
  const inside = !!branch && (scope.kind === 'general' || (scope.kind === 'company' ? branch.companyId === scope.companyId : scope.kind === 'brand' ? branch.brandId === scope.brandId : true));
  if (!inside || !(await placeInScope(ctx.db, caller, 'branch', branchId))) throw unknownPlace('branch', branchId);
  return { kind: 'branch', branchId };
}

const DepartmentBranch = Obj('DepartmentBranch', { id: Type.Integer(), name: Type.String() });
const DepartmentBrand = Obj('DepartmentBrand', { id: Type.Integer(), name: Type.String(), branches: Type.Array(DepartmentBranch) });
const DepartmentCompany = Obj('DepartmentCompany', { id: Type.Integer(), name: Type.String(), brands: Type.Array(DepartmentBrand) });

/** The companies, brands and branches a caller may see statistics of, as a tree. */
async function departmentsTree(ctx: AppContext, caller: Caller, brandId?: number) {
  const db = ctx.db;
  const visibleBrands = await db.select({ id: brands.id, name: brands.name, companyId: brands.companyId }).from(brands)
    .where(scopeWhere(caller, { companyId: brands.companyId, brandId: brands.id })).orderBy(asc(brands.name), asc(brands.id));
  const chosen = brandId === undefined ? visibleBrands : visibleBrands.filter((b) => b.id === brandId);
  if (brandId !== undefined && !chosen.length) throw unknownPlace('brand', brandId);
  const brandIds = chosen.map((b) => b.id);
  const companyIds = [...new Set(chosen.map((b) => b.companyId))];
  // A company without brands yet is still a department of its admins (not when one brand is asked for).
  const companyWhere = brandId === undefined
    ? or(scopeWhere(caller, { companyId: companies.id }), companyIds.length ? inArray(companies.id, companyIds) : undefined)
    : inArray(companies.id, companyIds);
  const [companyRows, branchRows] = await Promise.all([
    db.select({ id: companies.id, name: companies.name }).from(companies).where(companyWhere).orderBy(asc(companies.name), asc(companies.id)),
    brandIds.length
      ? db.select({ id: branches.id, name: branches.name, brandId: branches.brandId }).from(branches)
        .where(inArray(branches.brandId, brandIds)).orderBy(asc(branches.name), asc(branches.id))
      : Promise.resolve([]),
  ]);
  return companyRows.map((c) => ({
    id: c.id, name: c.name,
    brands: chosen.filter((b) => b.companyId === c.id).map((b) => ({
      id: b.id, name: b.name,
      branches: branchRows.filter((r) => r.brandId === b.id).map((r) => ({ id: r.id, name: r.name })),
    })),
  }));
}

/**
 * SPEC.md 7 Statistics and 6 "Data loaded on entry": general for ADMIN, a company's for
 * COMPANY_ADMIN (and ADMIN), a brand's for BRAND_MANAGER (and the roles above, within their scope).
 * A company or brand outside the caller's scope answers like an unknown one, a 400.
 * The reward-card-scan statistics of this service are in ../rewardCardScans/routes.ts.
 */
export function registerStatistic(app: FastifyInstance, ctx: AppContext) {
  service(app, ctx, 'Statistic', [
    route({
      method: 'GET', name: 'GetGeneralStatistic', access: 'statistics.general',
      summary: 'Figures over every company: counts, orders by weekday × hour, revenue by branch, new and returning customers.',
      query: Obj('GeneralStatisticQuery', { branchId: Type.Optional(BranchId), ...periodFields('Orders placed') }), result: Statistic,
      handler: async ({ query, caller, ctx }) => {
        const period = periodOf(query);
        return statisticOf(ctx.db, await narrowed(ctx, caller, { kind: 'general' }, query.branchId), period);
      },
    }),
    route({
      method: 'GET', name: 'GetStatisticByCompany', access: 'statistics.company',
      summary: "One company's figures; a company admin's own company when companyId is left out.",
      query: Obj('CompanyStatisticQuery', { companyId: Type.Optional(Id), branchId: Type.Optional(BranchId), ...periodFields('Orders placed') }), result: Statistic,
      handler: async ({ query, caller, ctx }) => {
        const companyId = query.companyId ?? caller?.companyId ?? undefined;
        if (companyId == null) {
          const message = 'Choose a company.';
          throw badRequest(message, [{ message, members: ['companyId'] }]);
        }
        const period = periodOf(query);
        if (!(await placeInScope(ctx.db, caller, 'company', companyId))) throw unknownPlace('company', companyId);
        return statisticOf(ctx.db, await narrowed(ctx, caller, { kind: 'company', companyId }, query.branchId), period);
      },
    }),
    route({
      method: 'GET', name: 'GetStatisticByBrand', access: 'statistics.brand',
      summary: "One brand's figures.",
      query: Obj('BrandStatisticQuery', { brandId: Id, branchId: Type.Optional(BranchId), ...periodFields('Orders placed') }), result: Statistic,
      handler: async ({ query, caller, ctx }) => {
        const period = periodOf(query);
        if (!(await placeInScope(ctx.db, caller, 'brand', query.brandId))) throw unknownPlace('brand', query.brandId);
        return statisticOf(ctx.db, await narrowed(ctx, caller, { kind: 'brand', brandId: query.brandId }, query.branchId), period);
      },
    }),
    route({
      method: 'GET', name: 'GetAccesibleDepartmentsTree', access: 'statistics.brand',
      summary: 'The companies, brands and branches the caller may see statistics of (one brand when brandId is sent).',
      query: Obj('AccesibleDepartmentsTreeQuery', { brandId: Type.Optional(Id) }), result: Type.Array(DepartmentCompany),
      handler: async ({ query, caller, ctx }) => departmentsTree(ctx, caller, query.brandId),
    }),
  ]);
}
