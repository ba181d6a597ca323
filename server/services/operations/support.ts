import { Type } from 'typebox';
import { and, asc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { brandManagers, brands, branches, users } from '../../db/schema';
import { Obj } from '../../http/envelope';
import { route, service } from '../../http/routes';
import type { AppContext, Caller } from '../../http/context';
import { managedBrandIds } from '../../resources/scope';

export const SupportContact = Obj('SupportContact', {
  id: Type.Integer(),
  role: Type.String(),
  fullName: Type.String(),
  phoneNumber: Type.Union([Type.String(), Type.Null()]),
  emailAddress: Type.Union([Type.String(), Type.Null()]),
});
export const SupportInfo = Obj('SupportInfo', {
  serverTime: Type.String({ description: "The server's clock (ISO): the console compares it with the browser's, which its timers rely on." }),
  branchPhoneNumber: Type.Union([Type.String(), Type.Null()], { description: "A branch user's own branch's phone." }),
  contacts: Type.Array(SupportContact, { description: 'The active people above the caller who can help, nearest first.' }),
});

/** Roles that help a caller, nearest first: a branch's brand managers, then its company's admins, then the platform's. */
const ORDER = sql`case ${users.role} when 'BRAND_MANAGER' then 1 when 'COMPANY_ADMIN' then 2 else 3 end`;

/**
 * Who a caller turns to (docs/decisions.md "Support page"): a branch user to the brand managers of
 * their brand and the admins of its company; a brand manager to their companies' admins; a company
 * admin to the platform's admins. Everyone sees the platform admins last.
 */
async function contactsOf(db: Db, caller: NonNullable<Caller>) {
  let brandIds: readonly number[] = [];
  if (caller.role === 'BRANCH_USER' && caller.branchId != null) {
    const [branch] = await db.select({ brandId: branches.brandId }).from(branches).where(eq(branches.id, caller.branchId));
    brandIds = branch ? [branch.brandId] : [];
  } else if (caller.role === 'BRAND_MANAGER') brandIds = managedBrandIds(caller);
  const companyIds = caller.role === 'COMPANY_ADMIN' || !brandIds.length ? []
    : (await db.select({ companyId: brands.companyId }).from(brands).where(inArray(brands.id, [...brandIds]))).map((b) => b.companyId);

  const who: SQL[] = [eq(users.role, 'ADMIN')];
  if (caller.role === 'BRANCH_USER' && brandIds.length) {
    who.push(and(eq(users.role, 'BRAND_MANAGER'), sql`${users.id} in (select ${brandManagers.userId} from ${brandManagers} where ${inArray(brandManagers.brandId, [...brandIds])})`)!);
  }
  if (companyIds.length) who.push(and(eq(users.role, 'COMPANY_ADMIN'), inArray(users.companyId, companyIds))!);
  return db.select({ id: users.id, role: users.role, fullName: users.fullName, phoneNumber: users.phoneNumber, emailAddress: users.emailAddress })
    .from(users)
    .where(and(eq(users.isActive, true), or(...who), sql`${users.id} <> ${caller.id}`))
    .orderBy(ORDER, asc(users.fullName), asc(users.id))
    .limit(20);
}

export function registerSupport(app: FastifyInstance, ctx: AppContext) {
  service(app, ctx, 'Support', [
    route({
      method: 'GET', name: 'GetSupportInfo', access: 'support.view',
      summary: "What /SupportPage shows: the server's clock, the caller's branch phone, and who above the caller to call.",
      result: SupportInfo,
      async handler({ caller, ctx }) {
        const [branch] = caller?.branchId != null
          ? await ctx.db.select({ phone: branches.branchPhoneNumber }).from(branches).where(eq(branches.id, caller.branchId))
          : [];
        return {
          serverTime: new Date().toISOString(),
          branchPhoneNumber: branch?.phone || null,
          contacts: caller ? await contactsOf(ctx.db, caller) : [],
        };
      },
    }),
  ]);
}
