import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { eq } from 'drizzle-orm';
import { customerWallets, users } from '../../db/schema';
import { badRequest, Obj } from '../../http/envelope';
import { Nullable } from '../../http/nullable';
import { route, service } from '../../http/routes';
import type { AppContext } from '../../http/context';
import { placeInScope } from '../../resources/scope';
import { hashPassword } from '../../auth/password';
import { TEXT } from '../../../domain/constants';
import { assertUnregistered, cleanEmail, createCustomerAccount, registrationPhone, type TakenMessages } from './registration';
import { CustomerDetailFields } from './shop';
import { CustomerListItem } from './loyalty';

const STAFF_TAKEN: TakenMessages = {
  phone: 'A customer or user with this phone number is already registered.',
  email: 'A customer or user with this e-mail address is already registered.',
  emailField: 'emailAddress',
};

/**
 * A password nobody can log in with (like the guest's): a customer registered by staff sets their
 * own through the shop's "forgot password" SMS, so staff never know it (docs/decisions.md).
 */
const NO_PASSWORD = '!';

/**
 * Customer/Registrate (SPEC.md 7 Customers, /customers/new-customer): staff register a customer
 * by phone for a brand of their scope. The account is the shop's (the same createCustomerAccount:
 * pre-invitations are honoured in its transaction) and gets a wallet in the brand, which is what
 * makes it that brand's customer (docs/decisions.md "Loyalty").
 */
export function registerStaffRegistration(app: FastifyInstance, ctx: AppContext) {
  service(app, ctx, 'Customer', [
    route({
      method: 'POST', name: 'Registrate', access: 'customers.manage',
      summary: 'Staff register a customer by phone for a brand of their scope; the customer sets a password through "forgot password" unless one is given.',
      body: Obj('RegistrateInput', {
        brandId: Type.Integer({ minimum: 1 }),
        phoneNumber: Type.String({ minLength: 4, maxLength: 20 }),
        ...CustomerDetailFields,
        fullName: Type.String({ maxLength: 100 }),
        password: Type.Optional(Nullable(Type.String({ minLength: 6, maxLength: 128 }))),
      }),
      result: CustomerListItem,
      async handler({ body, caller, ctx }) {
        if (!(await placeInScope(ctx.db, caller, 'brand', body.brandId))) {
          const message = `There is no brand ${body.brandId} you can manage.`;
          throw badRequest(message, [{ message, members: ['brandId'] }]);
        }
        const phone = registrationPhone(body.phoneNumber);
        const fullName = body.fullName.trim();
        if (!fullName) throw badRequest(TEXT.guest.nameRequired, [{ message: TEXT.guest.nameRequired, members: ['fullName'] }]);
        const email = cleanEmail(body.emailAddress, 'emailAddress');
        await assertUnregistered(ctx.db, phone, email, STAFF_TAKEN);
        const passwordHash = body.password ? await hashPassword(body.password) : NO_PASSWORD;
        const id = await createCustomerAccount(ctx.db, { phone, email, fullName, passwordHash, gender: body.gender, birthDate: body.birthDate },
          async (tx, userId) => { await tx.insert(customerWallets).values({ userId, brandId: body.brandId }).onConflictDoNothing(); }, STAFF_TAKEN);
        const [user] = await ctx.db.select().from(users).where(eq(users.id, id));
        return { id, fullName: user.fullName, phoneNumber: user.phoneNumber, emailAddress: user.emailAddress, createdAt: user.createdAt.toISOString() };
      },
    }),
  ]);
}
