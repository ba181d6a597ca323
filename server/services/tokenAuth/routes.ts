import { Type } from 'typebox';
import { eq, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { GUEST_USER_ID } from '../../../domain/constants';
import { normalisePhone } from '../../../domain/phone';
import { users } from '../../db/schema';
import { hashPassword, verifyPasswordEqualWork } from '../../auth/password';
import { endAllSessions } from '../../auth/sessions';
import { badRequest, forbidden, Obj } from '../../http/envelope';
import { route, service } from '../../http/routes';
import type { AppContext } from '../../http/context';
import { consumeCode, issueCode } from '../verification/codes';
import { admitLoginAttempt, forgetLoginFailures, loginAccountKey, loginSucceeded } from '../../limits/login';
import { admitPhoneLookup } from '../../limits/sms';
import { requestLanguage } from '../../http/language';

const AuthenticateResult = Obj('AuthenticateResult', {
  accessToken: Type.String(),
  encryptedAccessToken: Type.String(),
  expireInSeconds: Type.Integer(),
  userId: Type.Integer(),
});

/** A wrong login or password (also read in Arabic, server/messages/arabic.ts). */
export const INVALID_LOGIN = 'Invalid user name or password';

/** Auth calls live at /api/TokenAuth/*, outside services/app. */
export function registerTokenAuth(app: FastifyInstance, ctx: AppContext) {
  service(app, ctx, 'TokenAuth', [
    route({
      method: 'POST',
      name: 'Authenticate',
      access: 'public',
      summary: 'Log in with a user name, e-mail or phone number. `asGuest` logs in as the shop guest (user 18). '
        + '429 with Retry-After after 5 failures in a row for an account (even with the right password, for a while). '
        + 'After 30 failures in an hour from one client, its tries are slowed, and tries at accounts with recent failures are 429.',
      body: Obj('AuthenticateInput', {
        userNameOrEmailAddress: Type.Optional(Type.String({ maxLength: 256 })),
        password: Type.Optional(Type.String({ maxLength: 128 })),
        rememberClient: Type.Optional(Type.Boolean()),
        asGuest: Type.Optional(Type.Boolean()),
      }),
      result: AuthenticateResult,
      async handler({ body, ctx, req }) {
        if (body.asGuest) {
          const [guest] = await ctx.db.select({ generation: users.sessionGeneration }).from(users).where(eq(users.id, GUEST_USER_ID));
          const token = await ctx.tokens.issue({ userId: GUEST_USER_ID, role: 'CUSTOMER', generation: guest?.generation ?? 0 });
          return { ...token, encryptedAccessToken: token.accessToken, userId: GUEST_USER_ID };
        }
        const login = body.userNameOrEmailAddress?.trim() ?? '';
        if (!login || !body.password) {
          throw badRequest('Your request is not valid!', [
            ...(!login ? [{ message: 'The User name or email address field is required.', members: ['userNameOrEmailAddress'] }] : []),
            ...(!body.password ? [{ message: 'The Password field is required.', members: ['password'] }] : []),
          ]);
        }
        const phone = normalisePhone(login);
        const [user] = await ctx.db.select().from(users).where(or(
          sql`lower(${users.userName}) = lower(${login})`,
          sql`lower(${users.emailAddress}) = lower(${login})`,
          ...(phone ? [eq(users.phoneNumber, phone)] : []),
        )).limit(1);
        // Counted before the password is checked, and the same scrypt work whether or not the account exists.
        const account = loginAccountKey(user?.id ?? null, login);
        await admitLoginAttempt(ctx.db, account, req.ip);
        const matched = await verifyPasswordEqualWork(body.password, user?.passwordHash ?? null);
        if (!user || user.isGuest || !user.isActive || !matched) throw badRequest(INVALID_LOGIN);
        await loginSucceeded(ctx.db, account, req.ip);
        const token = await ctx.tokens.issue({ userId: user.id, role: user.role, generation: user.sessionGeneration });
        return { ...token, encryptedAccessToken: token.accessToken, userId: user.id };
      },
    }),
    route({
      method: 'GET',
      name: 'SendPasswordResetCodeBySms',
      access: 'public',
      summary: 'Sends a reset code to a registered phone. Result false: no user has that phone number. 429 over the SMS limits.',
      query: Obj('SendPasswordResetCodeBySmsQuery', { phoneNumber: Type.String({ minLength: 4, maxLength: 20 }) }),
      result: Type.Boolean(),
      async handler({ query, ctx, req }) {
        const phone = normalisePhone(query.phoneNumber);
        if (!phone) throw badRequest('Not a valid Phone Number', [{ message: 'Not a valid Phone Number', members: ['phoneNumber'] }]);
        await admitPhoneLookup(ctx.db, req.ip);
        const [user] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.phoneNumber, phone));
        if (!user) return false;
        await issueCode(ctx.db, ctx.sms, { phoneNumber: phone, purpose: 'reset', client: req.ip, language: requestLanguage(req.headers) });
        return true;
      },
    }),
    route({
      method: 'POST',
      name: 'ResetPasswordBySmsCode',
      access: 'public',
      body: Obj('ResetPasswordBySmsCodeInput', {
        phoneNumber: Type.String({ minLength: 4, maxLength: 20 }),
        code: Type.String({ pattern: '^[0-9]{6}$' }),
        newPassword: Type.String({ minLength: 6, maxLength: 128 }),
      }),
      result: Type.Boolean(),
      async handler({ body, ctx }) {
        const phone = normalisePhone(body.phoneNumber);
        const [user] = phone ? await ctx.db.select({ id: users.id }).from(users).where(eq(users.phoneNumber, phone)) : [];
        if (!user) throw badRequest('Sorry, but user with this phone number not exist');
        await consumeCode(ctx.db, phone!, 'reset', body.code);
        const passwordHash = await hashPassword(body.newPassword);
        await ctx.db.transaction(async (tx) => {
          await tx.update(users).set({ passwordHash }).where(eq(users.id, user.id));
          await endAllSessions(tx, user.id);
        });
        await forgetLoginFailures(ctx.db, user.id);
        return true;
      },
    }),
    route({
      method: 'POST',
      name: 'SignOutEverywhere',
      access: 'user',
      summary: "Ends every session of the caller, on every device, this one included: every token issued to them so far is "
        + 'refused (401) from now on, on every server. Signing in again starts a new session. The shared shop guest cannot (403).',
      result: Type.Boolean(),
      async handler({ caller, ctx }) {
        if (caller!.isGuest) throw forbidden('The guest has no sessions of its own to end.');
        await endAllSessions(ctx.db, caller!.id);
        return true;
      },
    }),
  ], '/api/TokenAuth');
}
