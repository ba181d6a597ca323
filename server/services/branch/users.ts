import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Obj } from '../../http/envelope';
import { route, service } from '../../http/routes';
import type { AppContext } from '../../http/context';
import { sharedListFields } from '../../resources/list';
import { BRANCH_USER_BODIES, staffUserRoutes } from '../adminUserManagement/routes';
import { DashboardUser, deleteStaffUser, userResource } from '../adminUserManagement/staffUsers';

const INT_ID = { minimum: 1, maximum: 2147483647 };

/** SPEC.md 7 Branch: the branch-user calls, on the one user service (adminUserManagement/staffUsers.ts). */
export function registerBranchUsers(app: FastifyInstance, ctx: AppContext) {
  service(app, ctx, 'Branch', [
    ...staffUserRoutes(BRANCH_USER_BODIES, { create: 'CreateBranchUserForBranch', update: 'UpdateBranchUser' }),
    route({
      method: 'GET', name: 'GetBranchUsersByBranchId', access: 'users.manage', summary: 'The users of a branch that the caller manages.',
      query: Obj('BranchUsersQuery', { branchId: Type.Integer(INT_ID), ...sharedListFields, id: Type.Optional(Type.Integer(INT_ID)) }),
      result: Obj('BranchUserList', { data: Type.Array(DashboardUser), totalCount: Type.Integer() }),
      handler: ({ query, caller, ctx }) => userResource.list(ctx.db, caller, query),
    }),
    route({
      method: 'DELETE', name: 'DeleteBranchUser', access: 'users.manage', summary: 'Deletes (archives) a user of the branch: their token stops working at once.',
      query: Obj('DeleteBranchUserQuery', { BranchId: Type.Integer(INT_ID), BranchUserId: Type.Integer(INT_ID) }), result: Type.Boolean(),
      handler: ({ query, caller, ctx }) => deleteStaffUser(ctx.db, caller, query.BranchUserId, 'branch', (u) => u.branchId === query.BranchId),
    }),
  ]);
}
