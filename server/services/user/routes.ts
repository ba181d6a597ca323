import { Type } from 'typebox';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { branches, brands, companies, users } from '../../db/schema';
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
  /** The names of the ids above, for the dashboard (issue 11: it showed '#1', '#7'). */
  companyName: Type.Union([Type.String(), Type.Null()]),
  brandName: Type.Union([Type.String(), Type.Null()]),
  branchName: Type.Union([Type.String(), Type.Null()]),
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
        const names = await namesOf(ctx, user);
        return {
          id: user.id, userName: user.userName, name: user.fullName.split(' ')[0] ?? '', fullName: user.fullName,
          emailAddress: user.emailAddress, phoneNumber: user.phoneNumber, isActive: user.isActive,
          roleNames: [user.role], companyId: user.companyId, brandId: user.brandId, branchId: user.branchId, ...names,
        };
      },
    }),
  ]);
}

/** The user's company, brand and branch names (null where the user has none). */
async function namesOf(ctx: AppContext, user: { companyId: number | null; brandId: number | null; branchId: number | null }) {
  const first = (rows: { name: string }[]) => rows[0]?.name ?? null;
  const [companyName, brandName, branchName] = await Promise.all([
    user.companyId == null ? null : ctx.db.select({ name: companies.name }).from(companies).where(eq(companies.id, user.companyId)).then(first),
    user.brandId == null ? null : ctx.db.select({ name: brands.name }).from(brands).where(eq(brands.id, user.brandId)).then(first),
    user.branchId == null ? null : ctx.db.select({ name: branches.name }).from(branches).where(eq(branches.id, user.branchId)).then(first),
  ]);
  return { companyName, brandName, branchName };
}
