import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Type, type TObject } from 'typebox';
import { assignableRoles, ROLE_PLACE, roleById, roleId, ROLES, type PlaceLevel, type Role } from '../../../domain/permissions';
import { branches, brands, companies } from '../../db/schema';
import { badRequest, Obj } from '../../http/envelope';
import { route, service } from '../../http/routes';
import type { AppContext } from '../../http/context';
import { oneOf } from '../../resources/list';
import { scopeWhere } from '../../resources/scope';
import {
  createStaffUser, DashboardUser, type NewStaffUser, deleteStaffUser, placeFields, readManagedUser, rolesAt, updateStaffUser, userFields, userPatchFields,
} from './staffUsers';

const INT_ID = { minimum: 1, maximum: 2147483647 };
const UserIdQuery = Obj('UserIdQuery', { UserId: Type.Integer(INT_ID) });

export const AllowedRole = Obj('AllowedRole', {
  id: Type.Integer({ description: 'The roleId of ModifyUserRole.' }),
  name: Type.String(),
  place: Type.String({ description: 'Where a user of this role belongs: none | company | brand | branch.' }),
});
const Place = (title: string, parent?: 'companyId' | 'brandId') =>
  Obj(title, { id: Type.Integer(), name: Type.String(), ...(parent && { [parent]: Type.Integer() }) });
const CompanyUM = Place('CompanyUM');
const BrandUM = Place('BrandUM', 'companyId');
const BranchUM = Place('BranchUM', 'brandId');

/**
 * The create and update bodies of a kind of staff user (a place level): the user's fields, the
 * level's place id, and a role of that level (default: the kind's own role).
 */
export function staffUserBodies(kind: string, level: Exclude<PlaceLevel, 'none'>, defaultRole: Role) {
  const roles = rolesAt(level);
  const placeId = { [`${level}Id`]: Type.Integer(INT_ID) };
  const role = Type.Optional(oneOf(roles, { description: `One of ${roles.join(', ')}; default ${defaultRole}.` }));
  return {
    create: Obj(`Create${kind}Input`, { ...userFields, ...placeId, role }) as TObject,
    update: Obj(`Update${kind}Input`, { id: Type.Integer(INT_ID), ...userPatchFields, ...Type.Partial(Type.Object(placeId)).properties, role }) as TObject,
    defaultRole,
    level,
  };
}
export const BRANCH_USER_BODIES = staffUserBodies('BranchUser', 'branch', 'BRANCH_USER');
export const BRAND_MANAGER_BODIES = staffUserBodies('BrandManagerForBrand', 'brand', 'BRAND_MANAGER');
const COMPANY_USER_BODIES = staffUserBodies('CompanyUser', 'company', 'COMPANY_ADMIN');

type Bodies = ReturnType<typeof staffUserBodies>;
type Body = Record<string, unknown> & { role?: Role };

/** Create<Kind> and Update<Kind> on the one user service: the kind fixes the place level. */
export function staffUserRoutes(bodies: Bodies, names: { create: string; update: string }) {
  return [
    route({
      method: 'POST', name: names.create, access: 'users.manage', summary: `Creates a staff user of ${bodies.level} level (role ${bodies.defaultRole} unless another of that level is given).`,
      body: bodies.create, result: DashboardUser,
      handler: ({ body, caller, ctx }) => {
        const input = body as Body;
        return createStaffUser(ctx.db, caller, { ...(input as NewStaffUser), role: input.role ?? bodies.defaultRole });
      },
    }),
    route({
      method: 'PUT', name: names.update, access: 'users.manage', summary: `Changes a staff user of ${bodies.level} level: only the fields sent; a password sent replaces theirs.`,
      body: bodies.update, result: DashboardUser,
      handler: ({ body, caller, ctx }) => {
        const { id, ...patch } = body as Body & { id: number };
        return updateStaffUser(ctx.db, caller, id, patch as never, bodies.level);
      },
    }),
  ];
}

/** SPEC.md 7 "User management (AdminUserManagement)". GetDashboardUsersList is the users resource's list (staffUsers.ts). */
export function registerAdminUserManagement(app: FastifyInstance, ctx: AppContext) {
  service(app, ctx, 'AdminUserManagement', [
    route({
      method: 'GET', name: 'GetCurrentAllowedRoles', access: 'users.manage', summary: 'The roles the caller may give (and so the users they manage).',
      result: Type.Array(AllowedRole),
      handler: async ({ caller }) => assignableRoles(caller!.role).map((r) => ({ id: roleId(r), name: r, place: ROLE_PLACE[r] })),
    }),
    route({
      method: 'GET', name: 'GetUserManagementUserById', access: 'users.manage', summary: 'One staff user the caller manages (a brand manager with their brands).',
      query: UserIdQuery, result: DashboardUser,
      handler: ({ query, caller, ctx }) => readManagedUser(ctx.db, caller, query.UserId),
    }),
    route({
      method: 'GET', name: 'GetAllCompaniesUM', access: 'users.manage', summary: "Companies in the caller's scope, for the user form.",
      result: Type.Array(CompanyUM),
      handler: ({ caller, ctx }) =>
        ctx.db.select({ id: companies.id, name: companies.name }).from(companies)
          .where(scopeWhere(caller, { companyId: companies.id })).orderBy(asc(companies.name), asc(companies.id)),
    }),
    route({
      method: 'GET', name: 'GetBrandsForCurrentUserUM', access: 'users.manage', summary: "Brands in the caller's scope (a brand manager's own brands), optionally of one company.",
      query: Obj('BrandsUMQuery', { companyId: Type.Optional(Type.Integer(INT_ID)) }), result: Type.Array(BrandUM),
      handler: ({ query, caller, ctx }) =>
        ctx.db.select({ id: brands.id, name: brands.name, companyId: brands.companyId }).from(brands)
          .where(and(scopeWhere(caller, { brandId: brands.id }), query.companyId ? eq(brands.companyId, query.companyId) : undefined))
          .orderBy(asc(brands.name), asc(brands.id)),
    }),
    route({
      method: 'GET', name: 'GetBranchesForCurrentUserUM', access: 'users.manage', summary: "Branches in the caller's scope, optionally of one brand.",
      query: Obj('BranchesUMQuery', { brandId: Type.Optional(Type.Integer(INT_ID)) }), result: Type.Array(BranchUM),
      handler: ({ query, caller, ctx }) =>
        ctx.db.select({ id: branches.id, name: branches.name, brandId: branches.brandId }).from(branches)
          .where(and(scopeWhere(caller, { brandId: branches.brandId, branchId: branches.id }), query.brandId ? eq(branches.brandId, query.brandId) : undefined))
          .orderBy(asc(branches.name), asc(branches.id)),
    }),
    route({
      method: 'DELETE', name: 'DeleteDashboardUser', access: 'users.manage', summary: 'Deletes (archives) a staff user the caller manages: their token stops working at once.',
      query: UserIdQuery, result: Type.Boolean(),
      handler: ({ query, caller, ctx }) => deleteStaffUser(ctx.db, caller, query.UserId),
    }),
    route({
      method: 'POST', name: 'ModifyUserRole', access: 'users.manage',
      summary: 'Gives a user another role (roleId: see GetCurrentAllowedRoles) and the place it needs; effective at their next request.',
      query: Obj('ModifyUserRoleQuery', {
        userId: Type.Integer(INT_ID), roleId: Type.Integer({ minimum: 1, maximum: 100 }),
        companyId: Type.Optional(Type.Integer(INT_ID)), brandId: Type.Optional(Type.Integer(INT_ID)), branchId: Type.Optional(Type.Integer(INT_ID)),
      }),
      result: DashboardUser,
      handler: ({ query, caller, ctx }) => {
        const role = roleById(query.roleId);
        if (!role) throw badRequest(`There is no role ${query.roleId}.`, [{ message: `There is no role ${query.roleId}.`, members: ['roleId'] }]);
        const { userId, roleId: _id, ...place } = query;
        return updateStaffUser(ctx.db, caller, userId, { role, ...place });
      },
    }),
    ...staffUserRoutes(BRANCH_USER_BODIES, { create: 'CreateBranchUser', update: 'UpdateBranchUser' }),
    ...staffUserRoutes(BRAND_MANAGER_BODIES, { create: 'CreateBrandManagerForBrand', update: 'UpdateBrandManagerForBrand' }),
    ...staffUserRoutes(COMPANY_USER_BODIES, { create: 'CreateCompanyUser', update: 'UpdateCompanyUser' }),
    // Any role name is accepted here: one the caller may not give (CUSTOMER too) is a 403, not a 400.
    route({
      method: 'POST', name: 'CreateUser', access: 'users.manage', summary: 'Creates a staff user of any role the caller may give, with the place that role needs.',
      body: Obj('CreateUserInput', { ...userFields, role: oneOf(ROLES), ...placeFields }), result: DashboardUser,
      handler: ({ body, caller, ctx }) => createStaffUser(ctx.db, caller, body as never),
    }),
    route({
      method: 'PUT', name: 'UpdateUser', access: 'users.manage', summary: 'Changes a staff user the caller manages: only the fields sent (role and place included).',
      body: Obj('UpdateUserInput', { id: Type.Integer(INT_ID), ...userPatchFields, role: Type.Optional(oneOf(ROLES)), ...placeFields }), result: DashboardUser,
      handler: ({ body, caller, ctx }) => {
        const { id, ...patch } = body as Body & { id: number };
        return updateStaffUser(ctx.db, caller, id, patch as never);
      },
    }),
  ]);
}

