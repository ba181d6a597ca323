import { Type } from 'typebox';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { users } from '../../db/schema';
import { forbidden, notFound, Obj } from '../../http/envelope';
import { route, service } from '../../http/routes';
import type { AppContext } from '../../http/context';
import { can } from '../../../domain/permissions';
import { scopeWhere } from '../../resources/scope';

export const UserDto = Obj('User', {
  id: Type.Integer(),
  userName: Type.String(),
  name: Type.String(),
  fullName: Type.String(),
  emailAddress: Type.Union([Type.String(), Type.Null()]),
  phoneNumber: Type.Union([Type.String(), Type.Null()]),
  isActive: Type.Boolean(),
  roleNames: Type.Array(Type.String()),
  companyId: Type.Union([Type.Integer(), Type.Null()]),
  brandId: Type.Union([Type.Integer(), Type.Null()]),
  branchId: Type.Union([Type.Integer(), Type.Null()]),
});

export function registerUser(app: FastifyInstance, ctx: AppContext) {
  service(app, ctx, 'User', [
    route({
      method: 'GET',
      name: 'Get',
      access: 'user',
      summary: 'A user profile with its role. Callers read themselves; user managers read staff in their scope.',
      query: Obj('UserGetQuery', { Id: Type.Integer({ minimum: 1 }) }),
      result: UserDto,
      async handler({ query, caller, ctx }) {
        const self = caller!.id === query.Id;
        if (!self && !can(caller!.role, 'users.manage')) throw forbidden();
        // Others: staff placed inside the caller's scope (the one scope predicate: a manager's every brand).
        const [user] = await ctx.db.select().from(users).where(and(eq(users.id, query.Id), self ? undefined : and(
          eq(users.isGuest, false),
          scopeWhere(caller, { companyId: users.companyId, brandId: users.brandId, branchId: users.branchId }),
        )));
        if (!user) throw notFound('User');
        return {
          id: user.id, userName: user.userName, name: user.fullName.split(' ')[0] ?? '', fullName: user.fullName,
          emailAddress: user.emailAddress, phoneNumber: user.phoneNumber, isActive: user.isActive,
          roleNames: [user.role], companyId: user.companyId, brandId: user.brandId, branchId: user.branchId,
        };
      },
    }),
  ]);
}
