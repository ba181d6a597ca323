import { Type } from 'typebox';
import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { brands, currencies } from '../../db/schema';
import { notFound, Obj } from '../../http/envelope';
import { route, service } from '../../http/routes';
import type { AppContext, Caller } from '../../http/context';
import { defineResource } from '../../resources/resource';
import { oneOf } from '../../resources/list';
import { scopeWhere } from '../../resources/scope';
import { ImageUrl } from '../company/resource';
import { LANGUAGES } from '../../../domain/languages';
import { ArabicName } from '../../http/language';

const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });
const NullableText = Type.Union([Type.String(), Type.Null()]);
const Language = oneOf(LANGUAGES.map((l) => l.code));

/** A brand (SPEC.md 3) of a company: its shop, menu, branches and prices in its currency. */
export const Brand = Obj('Brand', {
  id: Type.Integer(),
  companyId: Type.Integer(),
  name: Type.String(),
  /** Its name in the Arabic shop; null or empty: the English name. */
  nameAr: NullableText,
  logoUrl: NullableText,
  bannerUrl: NullableText,
  currencyId: Type.Integer(),
  defaultLanguage: Type.String({ description: 'A code of Brand/GetLanguagesDictionary.' }),
  createdAt: Type.String(),
});
const fields = {
  name: Type.String({ minLength: 1, maxLength: 120, pattern: '\\S' }),
  nameAr: ArabicName,
  currencyId: Id,
  defaultLanguage: Language,
};

/**
 * SPEC.md 7 Brand: CreateBrand, UpdateBrand, and GetBrandsForCurrentUserV2 as the paged list of
 * /brands. A brand belongs to a company: ADMIN manages every brand, a company admin their
 * company's (a create naming another company is a 400). There is no brand delete in SPEC.md.
 */
export const brandResource = defineResource({
  service: 'Brand',
  table: brands,
  item: Brand,
  create: Type.Object({
    companyId: Id, ...fields, nameAr: Type.Optional(ArabicName), defaultLanguage: Type.Optional(Language), logoUrl: ImageUrl, bannerUrl: ImageUrl,
  }),
  update: Type.Object({ id: Id, ...Type.Partial(Type.Object(fields)).properties, logoUrl: ImageUrl, bannerUrl: ImageUrl }),
  scope: { level: 'company', field: 'companyId' },
  references: { currencyId: { table: currencies, label: 'currency' } },
  can: { view: 'brands.manage', create: 'brands.manage', update: 'brands.manage', delete: 'brands.manage' },
  methods: { list: 'GetBrandsForCurrentUserV2', create: 'CreateBrand', update: 'UpdateBrand' },
  sortable: ['id', 'name', 'companyId', 'currencyId', 'createdAt'],
  defaultSorting: 'name asc',
  filters: { companyId: 'equals', currencyId: 'equals', name: 'contains' },
});

/**
 * The brands a caller may read: their scope's (scopeWhere: a company admin their company's, a
 * brand manager theirs), and a branch user their branch's brand, which they see but never manage.
 */
export function readableBrands(caller: Caller): SQL | undefined {
  if (caller?.role === 'BRANCH_USER') {
    return caller.branchId == null ? sql`false` : sql`${brands.id} = (select "brand_id" from "branches" where "id" = ${caller.branchId})`;
  }
  return scopeWhere(caller, { companyId: brands.companyId, brandId: brands.id });
}

const readBrands = (ctx: AppContext, caller: Caller, where?: SQL) =>
  ctx.db.select().from(brands).where(and(readableBrands(caller), where)).orderBy(asc(brands.name), asc(brands.id));

export const LanguageItem = Obj('Language', {
  code: Type.String(), name: Type.String(), nativeName: Type.String(), isRightToLeft: Type.Boolean(),
});

/** The Brand calls that are not plain CRUD; the shop's picker is in shop.ts. */
export function registerBrand(app: FastifyInstance, ctx: AppContext) {
  service(app, ctx, 'Brand', [
    route({
      method: 'GET', name: 'GetBrandById', access: 'brands.view',
      summary: "One brand the caller may read (ADMIN any, a company admin their company's, a brand manager theirs, a branch user their branch's).",
      query: Obj('GetBrandByIdQuery', { brandId: Id }), result: Brand,
      handler: async ({ query, caller, ctx }) => {
        const [row] = await readBrands(ctx, caller, eq(brands.id, query.brandId));
        if (!row) throw notFound('Brand');
        return brandResource.toItem(row);
      },
    }),
    route({
      method: 'GET', name: 'GetBrandsForCurrentUser', access: 'brands.view',
      summary: "The caller's brands, by name: ADMIN all, a company admin their company's, a brand manager theirs, a branch user their branch's.",
      result: Type.Array(Brand),
      handler: async ({ caller, ctx }) => (await readBrands(ctx, caller)).map(brandResource.toItem),
    }),
    route({
      method: 'GET', name: 'GetLanguagesDictionary', access: 'brands.view',
      summary: "The languages a brand's shop can speak (a brand's defaultLanguage is one of their codes).",
      result: Type.Array(LanguageItem),
      handler: async () => LANGUAGES.map((l) => ({ ...l })),
    }),
  ]);
}
