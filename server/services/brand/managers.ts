import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { users } from '../../db/schema';
import { badRequest, Obj } from '../../http/envelope';
import { route, service } from '../../http/routes';
import type { AppContext } from '../../http/context';
import { sharedListFields } from '../../resources/list';
import { BRAND_MANAGER_BODIES, staffUserRoutes } from '../adminUserManagement/routes';
import { addManagedBrand, brandManagersWhere, DashboardUser, managesBrand, removeManagedBrand, type DashboardUserItem } from '../adminUserManagement/staffUsers';

const INT_ID = { minimum: 1, maximum: 2147483647 };
/** The shape's list parameters (paging, Sorting, Search) and `id`, so a generic console list drives these too. */
const listFields = { ...sharedListFields, id: Type.Optional(Type.Integer(INT_ID)) };
const ManagerList = Obj('BrandManagerList', { data: Type.Array(DashboardUser), totalCount: Type.Integer() });
const [create, update] = staffUserRoutes(BRAND_MANAGER_BODIES, { create: 'CreateBrandManagerForBrand', update: 'UpdateBrandManagerForBrand' });

/**
 * SPEC.md 7 Brand: the brand-manager calls, on the one user service (adminUserManagement/staffUsers.ts).
 * A brand manager may manage several brands: CreateBrandManagerForBrand with `userId` adds an
 * existing manager to the brand; without it, it creates a new manager.
 */
export function registerBrandManagers(app: FastifyInstance, ctx: AppContext) {
  service(app, ctx, 'Brand', [
    route({
      method: 'GET', name: 'GetBrandManagersByCompanyId', access: 'users.manage', summary: "The brand managers of a company that the caller manages, with their brands.",
      query: Obj('BrandManagersByCompanyQuery', { companyId: Type.Integer(INT_ID), ...listFields }), result: ManagerList,
      handler: ({ query, caller, ctx }) => brandManagersWhere(ctx.db, caller, eq(users.companyId, query.companyId), query),
    }),
    route({
      method: 'GET', name: 'GetBrandManagersByBrandId', access: 'users.manage', summary: 'The managers of a brand that the caller manages, with their brands.',
      query: Obj('BrandManagersByBrandQuery', { brandId: Type.Integer(INT_ID), ...listFields }), result: ManagerList,
      handler: ({ query, caller, ctx }) => brandManagersWhere(ctx.db, caller, managesBrand(query.brandId), query),
    }),
    route({
      method: 'POST', name: 'CreateBrandManagerForBrand', access: 'users.manage',
      summary: 'Adds an existing brand manager (`userId`) to a brand, or creates a new manager for it (the user fields).',
      body: Obj('BrandManagerForBrandInput', {
        userId: Type.Optional(Type.Integer({ ...INT_ID, description: 'An existing brand manager who also manages this brand.' })),
        ...Type.Partial(BRAND_MANAGER_BODIES.create).properties,
        brandId: Type.Integer(INT_ID),
      }),
      result: DashboardUser,
      handler: async (input) => {
        const body = input.body as Record<string, unknown>;
        if (body.userId !== undefined) return addManagedBrand(input.ctx.db, input.caller, body.userId as number, body.brandId as number);
        const missing = ['userName', 'fullName', 'password'].filter((f) => body[f] === undefined);
        if (missing.length) {
          throw badRequest('Give userId (an existing brand manager) or the new manager\'s userName, fullName and password.',
            missing.map((f) => ({ message: `The ${f} field is required.`, members: [f] })));
        }
        return create.handler(input as never) as Promise<DashboardUserItem>;
      },
    }),
    update,
    route({
      method: 'DELETE', name: 'DeleteBrandManager', access: 'users.manage',
      summary: 'The manager stops managing the brand; a manager of no other brand is deleted (archived).',
      query: Obj('DeleteBrandManagerQuery', { BrandId: Type.Integer(INT_ID), BrandManagerId: Type.Integer(INT_ID) }), result: Type.Boolean(),
      handler: ({ query, caller, ctx }) => removeManagedBrand(ctx.db, caller, query.BrandManagerId, query.BrandId),
    }),
  ]);
}
