import { Type } from 'typebox';
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { companies, companyCategories } from '../../db/schema';
import { notFound, Obj } from '../../http/envelope';
import { Nullable } from '../../http/nullable';
import { route, service } from '../../http/routes';
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
 * images. Access and pause have their own calls below, ADMIN's.
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
});

export const CompanyCategory = Obj('CompanyCategory', { id: Type.Integer(), name: Type.String() });

/** One company in the caller's scope, or a 404 (an unknown id and another company's read alike). */
async function companyOf(ctx: AppContext, caller: Caller, companyId: number) {
  const { data } = await companyResource.list(ctx.db, caller, { id: companyId });
  if (!data.length) throw notFound('Company');
  return data[0];
}

/** Sets one of the company's switches, with its history entry; ADMIN only. */
const switchRoute = (name: string, field: 'accessible' | 'paused', summary: string) => route({
  method: 'POST', name, access: 'companies.list', summary,
  body: Obj(`${name}Input`, { companyId: Id, [field]: Type.Boolean() }),
  result: Company,
  handler: async ({ body, caller, ctx }) => {
    const input = body as { companyId: number } & Record<typeof field, boolean>;
    const saved = await companyResource.audited(ctx.db, caller, 'update', async (tx) => {
      const [before] = await tx.select().from(companies).where(eq(companies.id, input.companyId)).for('update');
      if (!before) throw notFound('Company');
      const [after] = await tx.update(companies).set({ [field]: input[field] }).where(eq(companies.id, input.companyId)).returning();
      return { before, after };
    });
    return companyResource.toItem(saved!);
  },
});

/** The Company calls that are not plain CRUD. */
export function registerCompany(app: FastifyInstance, ctx: AppContext) {
  service(app, ctx, 'Company', [
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
    switchRoute('ChangeCompanyAccessStatus', 'accessible',
      'Lets a company into the platform or shuts it out (accessible: false): its brands leave the shop and take no orders.'),
    switchRoute('ChangeCompanyPauseStatus', 'paused',
      'Pauses a company (paused: true) or resumes it: while paused its brands leave the shop and take no orders.'),
  ]);
}
