import { Type } from 'typebox';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { customerWallets, users } from '../../db/schema';
import { uniqueViolation } from '../../db/uniqueViolation';
import { badRequest, forbidden, notFound, Obj } from '../../http/envelope';
import { route, service } from '../../http/routes';
import { Nullable } from '../../http/nullable';
import type { AppContext } from '../../http/context';
import { DEFAULT_BRAND_ID, TEXT } from '../../../domain/constants';
import { cleanEmail, completeRegistration, EMAIL_TAKEN, startRegistration, validateRegistration } from './registration';
import { requestLanguage } from '../../http/language';

const Phone = () => Type.String({ minLength: 4, maxLength: 20 });
const OptionalText = (maxLength: number) => Type.Optional(Nullable(Type.String({ maxLength })));

export const RegistrationResult = Obj('RegistrationResult', {
  accessToken: Type.String(),
  encryptedAccessToken: Type.String(),
  expireInSeconds: Type.Integer(),
  userId: Type.Integer(),
});

export const CustomerDetails = Obj('CustomerDetails', {
  id: Type.Integer(),
  userName: Type.String(),
  fullName: Type.String(),
  emailAddress: Type.Union([Type.String(), Type.Null()]),
  phoneNumber: Type.Union([Type.String(), Type.Null()]),
  gender: Type.Union([Type.String(), Type.Null()]),
  birthDate: Type.Union([Type.String(), Type.Null()]),
  isGuest: Type.Boolean(),
  /** The brand the wallet figures are for. */
  brandId: Type.Integer(),
  points: Type.Integer(),
  balance: Type.Number(),
  credit: Type.Number(),
  /** Punches towards the branch's purchases collection, and the free items they have become (the loyalty ledger). */
  punches: Type.Integer(),
  freeItems: Type.Integer(),
});

async function customerDetails(db: Db, userId: number, brandId: number) {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) throw notFound('User');
  const [wallet] = await db.select().from(customerWallets).where(and(eq(customerWallets.userId, userId), eq(customerWallets.brandId, brandId)));
  return {
    id: user.id, userName: user.userName, fullName: user.fullName, emailAddress: user.emailAddress, phoneNumber: user.phoneNumber,
    gender: user.gender, birthDate: user.birthDate, isGuest: user.isGuest, brandId,
    points: wallet?.points ?? 0, balance: Number(wallet?.balance ?? 0), credit: Number(wallet?.credit ?? 0),
    punches: wallet?.punches ?? 0, freeItems: wallet?.freeItems ?? 0,
  };
}

/** A customer's profile fields, as the customer (UpdateCustomerDetails) or staff (UpdateCustomerDetailsFromAdminPanel) change them. */
export const CustomerDetailFields = {
  fullName: Type.Optional(Type.String({ maxLength: 100 })),
  emailAddress: OptionalText(256),
  gender: OptionalText(20),
  birthDate: Type.Optional(Nullable(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }))),
};

/** Saves the fields sent: a blank name or a bad or taken e-mail is a 400 naming the field, and nothing changes. */
export async function saveCustomerDetails(db: Db, userId: number, body: { fullName?: string; emailAddress?: string | null; gender?: string | null; birthDate?: string | null }) {
  const changes: Partial<typeof users.$inferInsert> = {};
  if (body.fullName !== undefined) {
    const fullName = body.fullName.trim();
    if (!fullName) throw badRequest(TEXT.guest.nameRequired, [{ message: TEXT.guest.nameRequired, members: ['fullName'] }]);
    changes.fullName = fullName;
  }
  if (body.emailAddress !== undefined) changes.emailAddress = cleanEmail(body.emailAddress, 'emailAddress');
  if (body.gender !== undefined) changes.gender = body.gender?.trim() || null;
  if (body.birthDate !== undefined) changes.birthDate = body.birthDate || null;
  if (!Object.keys(changes).length) return;
  try {
    await db.update(users).set(changes).where(eq(users.id, userId));
  } catch (err) {
    if (uniqueViolation(err) === null) throw err;
    throw badRequest(EMAIL_TAKEN, [{ message: EMAIL_TAKEN, members: ['emailAddress'] }]);
  }
}

export function registerShopCustomer(app: FastifyInstance, ctx: AppContext) {
  service(app, ctx, 'Customer', [
    route({
      method: 'POST',
      name: 'RegistrateNewUnregisteredUser',
      access: 'public',
      summary: 'Registration step 1: sends a code by SMS to a phone that is not registered yet.',
      body: Obj('RegistrateNewUnregisteredUserInput', { phoneNumber: Phone(), email: OptionalText(256) }),
      result: Type.Boolean(),
      async handler({ body, ctx, req }) {
        await startRegistration(ctx.db, ctx.sms, body.phoneNumber, body.email, req.ip, requestLanguage(req.headers));
        return true;
      },
    }),
    route({
      method: 'POST',
      name: 'ValidateNewUnregisteredUser',
      access: 'public',
      summary: 'Registration step 2: checks the SMS code (6 digits, 10 minutes, single use; 429 after 5 wrong tries).',
      body: Obj('ValidateNewUnregisteredUserInput', {
        phoneNumber: Phone(),
        email: OptionalText(256),
        validationCode: Type.Integer({ minimum: 0, maximum: 999999 }),
      }),
      result: Type.Boolean(),
      async handler({ body, ctx }) {
        await validateRegistration(ctx.db, body.phoneNumber, body.validationCode);
        return true;
      },
    }),
    route({
      method: 'POST',
      name: 'RegistrateUserFromMobileAppByPhone',
      access: 'public',
      summary: 'Registration step 3: creates the customer account of a validated phone and logs it in.',
      body: Obj('RegistrateUserFromMobileAppByPhoneInput', {
        phoneNumber: Phone(),
        fullName: Type.String({ maxLength: 100 }),
        email: OptionalText(256),
        password: Type.String({ minLength: 6, maxLength: 128 }),
        gender: OptionalText(20),
        birthDate: Type.Optional(Nullable(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }))),
      }),
      result: RegistrationResult,
      async handler({ body, ctx }) {
        const userId = await completeRegistration(ctx.db, body);
        const token = await ctx.tokens.issue({ userId, role: 'CUSTOMER', generation: 0 }); // a new account's first session
        return { ...token, encryptedAccessToken: token.accessToken, userId };
      },
    }),
    route({
      method: 'GET',
      name: 'GetCurrentCustomerDetails',
      access: 'customer',
      summary: "The caller's profile and wallet for a brand (default 7).",
      query: Obj('GetCurrentCustomerDetailsQuery', { brandId: Type.Optional(Type.Integer({ minimum: 1 })) }),
      result: CustomerDetails,
      handler: ({ query, caller, ctx }) => customerDetails(ctx.db, caller!.id, query.brandId ?? DEFAULT_BRAND_ID),
    }),
    route({
      method: 'PUT',
      name: 'UpdateCustomerDetails',
      access: 'customer',
      summary: "Changes the caller's own name, e-mail, gender and birth date. The phone number is the login and does not change here.",
      body: Obj('UpdateCustomerDetailsInput', {
        id: Type.Optional(Nullable(Type.Integer())),
        ...CustomerDetailFields,
        brandId: Type.Optional(Type.Integer({ minimum: 1 })),
      }),
      result: CustomerDetails,
      async handler({ body, caller, ctx }) {
        if (body.id && body.id !== caller!.id) throw forbidden();
        if (caller!.isGuest) throw forbidden('Please log in to change your details.');
        await saveCustomerDetails(ctx.db, caller!.id, body);
        return customerDetails(ctx.db, caller!.id, body.brandId ?? DEFAULT_BRAND_ID);
      },
    }),
  ]);
}

