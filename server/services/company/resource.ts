import { Type, type Static } from 'typebox';
import { asc } from 'drizzle-orm';
import { companies, companyCategories } from '../../db/schema';
import { notFound, Obj } from '../../http/envelope';
import { Nullable } from '../../http/nullable';
import { route } from '../../http/routes';
import type { AppContext, Caller } from '../../http/context';
import { defineResource } from '../../resources/resource';

const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });
const NullableText = Type.Union([Type.String(), Type.Null()]);

/**
 * Where an uploaded image lives (the `url` a Files/Upload… call answered): a path on this site,
 * or an https address when the storage is an object store. Nothing else, so a row never points a
 * console or shop at another scheme (docs/decisions.md "Administration: companies and brands").
 */
export const ImageUrl = Type.Optional(Nullable(Type.String({ maxLength: 500, pattern: '^(/(?!/)|https://)\\S+$' })));
const Name = Type.String({ minLength: 1, maxLength: 120, pattern: '\\S' });

/** A company (SPEC.md 3): not accessible, it is shut out of the platform; paused, it takes no orders for a while. */
export const Company = Obj('Company', {
  id: Type.Integer(),
  name: Type.String(),
  categoryId: Type.Union([Type.Integer(), Type.Null()]),
  accessible: Type.Boolean(),
  paused: Type.Boolean(),
  logoUrl: NullableText,
  bannerUrl: NullableText,
  createdAt: Type.String(),
});

/**
 * SPEC.md 7 Company: Create, UpdateCompany, GetAllCompanies, DeleteCompany (companyId). A company
 * is a place itself (scope field `id`): a company admin reaches only their own, so their
 * GetAllCompanies holds that one company (/companies/{id} reads it through the list). Creating and
 * deleting are ADMIN's (/companies); a company admin may change their company's name, category and
 * images. Access and pause are switches with their own calls (ChangeCompanyAccessStatus,
 * ChangeCompanyPauseStatus), ADMIN's.
 */
export const companyResource = defineResource({
  service: 'Company',
  table: companies,
  item: Company,
  create: Type.Object({ name: Name, categoryId: Id, logoUrl: ImageUrl, bannerUrl: ImageUrl }),
  update: Type.Object({ id: Id, name: Type.Optional(Name), categoryId: Type.Optional(Id), logoUrl: ImageUrl, bannerUrl: ImageUrl }),
  scope: { level: 'company', field: 'id' },
  references: { categoryId: { table: companyCategories, label: 'company category' } },
  can: { view: 'companies.view', create: 'companies.list', update: 'companies.view', delete: 'companies.list' },
  methods: { list: 'GetAllCompanies', create: 'Create', update: 'UpdateCompany', delete: 'DeleteCompany?companyId' },
  sortable: ['id', 'name', 'categoryId', 'accessible', 'paused', 'createdAt'],
  defaultSorting: 'name asc',
  filters: { categoryId: 'equals', accessible: 'equals', paused: 'equals', name: 'contains' },
  switches: {
    ChangeCompanyAccessStatus: { field: 'accessible', id: 'companyId', can: 'companies.list',
      summary: 'Lets a company into the platform or shuts it out (accessible: false): its brands leave the shop and take no orders.' },
    ChangeCompanyPauseStatus: { field: 'paused', id: 'companyId', can: 'companies.list',
      summary: 'Pauses a company (paused: true) or resumes it: while paused its brands leave the shop and take no orders.' },
  },
  calls: () => companyCalls(),
});

export const CompanyCategory = Obj('CompanyCategory', { id: Type.Integer(), name: Type.String() });

/** One company in the caller's scope, or a 404 (an unknown id and another company's read alike). */
async function companyOf(ctx: AppContext, caller: Caller, companyId: number): Promise<Static<typeof Company>> {
  const { data } = await companyResource.list(ctx.db, caller, { id: companyId });
  if (!data.length) throw notFound('Company');
  return data[0];
}

/** The Company calls that are not plain CRUD. */
function companyCalls(): ReturnType<typeof route>[] {
  return [
    route({
      method: 'GET', name: 'GetCompanyById', access: 'companies.view',
      summary: "One company: any for ADMIN, a company admin's own.",
      query: Obj('GetCompanyByIdQuery', { companyId: Id }), result: Company,
      handler: ({ query, caller, ctx }) => companyOf(ctx, caller, query.companyId),
    }),
    route({
      method: 'GET', name: 'GetAllCompanyCategories', access: 'companies.view',
      summary: 'The categories a company can be filed under, by name.',
      result: Type.Array(CompanyCategory),
      handler: ({ ctx }) => ctx.db.select().from(companyCategories).orderBy(asc(companyCategories.name), asc(companyCategories.id)),
    }),
  ];
}
