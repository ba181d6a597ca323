import { Type } from 'typebox';
import { asc, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { branches, branchSchedules, brands, companies, currencies } from '../../db/schema';
import { Obj } from '../../http/envelope';
import { route, service } from '../../http/routes';
import type { AppContext } from '../../http/context';
import type { Db } from '../../db/client';
import { and } from 'drizzle-orm';
import { localizedColumn, requestLanguage } from '../../http/language';
import { DEFAULT_LANGUAGE, type LanguageCode } from '../../../domain/languages';
import { orderingStatus, orderingWindows } from '../../../domain/schedule';
import { Nullable } from '../../http/nullable';

/** A branch's own fields as the shop shows them (the console's Branch adds its management fields). */
export const shopBranchProperties = {
  id: Type.Integer(),
  brandId: Type.Integer(),
  name: Type.String(),
  logoUrl: Type.Union([Type.String(), Type.Null()]),
  openTime: Type.String(),
  closeTime: Type.String(),
  branchAddress: Type.String(),
  branchPhoneNumber: Type.String(),
  deliveryText: Type.String(),
  isBusy: Type.Boolean(),
};

export const ShopBranch = Obj('ShopBranch', {
  ...shopBranchProperties,
  /** Takes online orders now, by the schedule the order check enforces (domain/schedule.ts orderingWindows). */
  isOpenForOrders: Type.Boolean(),
  /** When a closed branch next takes online orders (ISO time); null when open, or no opening within a week. */
  opensAt: Nullable(Type.String()),
  /** When an open branch stops taking online orders (ISO time); null when closed, or open all week. */
  closesAt: Nullable(Type.String()),
});

export const ShopBrand = Obj('ShopBrand', {
  id: Type.Integer(),
  name: Type.String(),
  logoUrl: Type.Union([Type.String(), Type.Null()]),
  currency: Type.String(),
  currencyDecimals: Type.Integer(),
  branches: Type.Array(ShopBranch),
});

/** A branch as the shop shows it: its name, address and delivery text in the request's language. */
export const branchColumns = (language: LanguageCode) => ({
  id: branches.id, brandId: branches.brandId, name: localizedColumn(language, branches.name, branches.nameAr), logoUrl: branches.logoUrl,
  openTime: branches.openTime, closeTime: branches.closeTime, branchAddress: localizedColumn(language, branches.branchAddress, branches.branchAddressAr),
  branchPhoneNumber: branches.branchPhoneNumber, deliveryText: localizedColumn(language, branches.deliveryText, branches.deliveryTextAr), isBusy: branches.isBusy,
});

type BranchRow = { id: number; openTime: string; closeTime: string };

/**
 * Each branch with whether it takes online orders now and when that changes: from its schedule
 * rows, or its daily hours without rows, as planOrder.ts refuses an order (orderingWindows).
 */
export async function withOrderingStatus<B extends BranchRow>(db: Db, rows: B[], at = new Date()) {
  const schedule = rows.length
    ? await db.select({ branchId: branchSchedules.branchId, dayOfWeek: branchSchedules.dayOfWeek, openTime: branchSchedules.openTime, closeTime: branchSchedules.closeTime })
      .from(branchSchedules).where(inArray(branchSchedules.branchId, rows.map((b) => b.id)))
    : [];
  return rows.map((b) => {
    const status = orderingStatus(orderingWindows(schedule.filter((s) => s.branchId === b.id), b), at);
    return { ...b, isOpenForOrders: status.isOpen, opensAt: status.opensAt?.toISOString() ?? null, closesAt: status.closesAt?.toISOString() ?? null };
  });
}

/** Brands a customer can order from: their company is accessible and not paused. */
export async function shopBrands(db: Db, language: LanguageCode = DEFAULT_LANGUAGE) {
  const rows = await db
    .select({ id: brands.id, name: localizedColumn(language, brands.name, brands.nameAr), logoUrl: brands.logoUrl, currency: currencies.code, currencyDecimals: currencies.decimals })
    .from(brands)
    .innerJoin(companies, eq(companies.id, brands.companyId))
    .innerJoin(currencies, eq(currencies.id, brands.currencyId))
    .where(and(eq(companies.accessible, true), eq(companies.paused, false)))
    .orderBy(asc(brands.id));
  const branchRows = await withOrderingStatus(db, rows.length
    ? await db.select(branchColumns(language)).from(branches).where(inArray(branches.brandId, rows.map((b) => b.id))).orderBy(asc(branches.id))
    : []);
  return rows.map((b) => ({ ...b, branches: branchRows.filter((br) => br.brandId === b.id) }));
}

export function registerShopBrands(app: FastifyInstance, ctx: AppContext) {
  service(app, ctx, 'Brand', [
    route({
      method: 'GET',
      name: 'GetBrandsForMangoCustomer',
      access: 'public',
      summary: 'Brands with their branches, for the shop picker.',
      result: Type.Array(ShopBrand),
      handler: ({ ctx, req }) => shopBrands(ctx.db, requestLanguage(req.headers)),
    }),
  ]);
  service(app, ctx, 'Branch', [
    route({
      method: 'GET',
      name: 'GetBranchesForCustomer',
      access: 'public',
      query: Obj('GetBranchesForCustomerQuery', { brandId: Type.Integer({ minimum: 1 }) }),
      result: Type.Array(ShopBranch),
      handler: async ({ query, ctx, req }) => withOrderingStatus(ctx.db,
        await ctx.db.select(branchColumns(requestLanguage(req.headers))).from(branches).where(eq(branches.brandId, query.brandId)).orderBy(asc(branches.id))),
    }),
  ]);
}
