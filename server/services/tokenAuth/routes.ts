import { Type } from 'typebox';
import { and, eq, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { GUEST_USER_ID, TEXT } from '../../../domain/constants';
import { isValidPhone, normalisePhone } from '../../../domain/phone';
import { typedDigits } from '../../../domain/digits';
import { users } from '../../db/schema';
import { hashPassword, verifyPasswordEqualWork } from '../../auth/password';
import { endAllSessions } from '../../auth/sessions';
import { badRequest, forbidden, Obj } from '../../http/envelope';
import { route, service } from '../../http/routes';
import type { AppContext } from '../../http/context';
import { admitCode, CODE_TEXT, consumeCode, issueCode } from '../verification/codes';
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
        code: Type.String({ maxLength: 20, description: 'The 6 digits of the SMS, Arabic-Indic or Persian digits too.' }),
        newPassword: Type.String({ minLength: 6, maxLength: 128 }),
      }),
      result: Type.Boolean(),
      async handler({ body, ctx }) {
        const code = typedCode(body.code);
        const phone = normalisePhone(body.phoneNumber);
        const [user] = phone ? await ctx.db.select({ id: users.id }).from(users).where(eq(users.phoneNumber, phone)) : [];
        if (!user) throw badRequest('Sorry, but user with this phone number not exist');
        await consumeCode(ctx.db, phone!, 'reset', code);
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
      name: 'SendSignInCodeBySms',
      access: 'public',
      summary: 'Sign-in with a one-time code, step 1: sends a 6-digit code (10 minutes, single use) to the phone of a customer account. '
        + 'The phone as typed: 8 local digits are +965, Arabic-Indic digits are digits. Always true, registered or not, and nothing is sent '
        + 'to a phone without an account (no account enumeration); the same SMS limits (429) either way.',
      body: Obj('SendSignInCodeBySmsInput', { phoneNumber: Type.String({ maxLength: 30 }) }),
      result: Type.Boolean(),
      async handler({ body, ctx, req }) {
        const phone = signInPhone(body.phoneNumber);
        await admitPhoneLookup(ctx.db, req.ip);
        const [user] = await ctx.db.select({ id: users.id }).from(users).where(codeSignInAccount(phone));
        const request = { phoneNumber: phone, purpose: 'signIn' as const, client: req.ip };
        if (user) await issueCode(ctx.db, ctx.sms, { ...request, language: requestLanguage(req.headers) });
        else await admitCode(ctx.db, ctx.sms, request);
        return true;
      },
    }),
    route({
      method: 'POST',
      name: 'AuthenticateBySmsCode',
      access: 'public',
      summary: 'Sign-in with a one-time code, step 2: the phone and the code of SendSignInCodeBySms give a session, as Authenticate does. '
        + '5 wrong tries use the code up (429 until a new one is sent).',
      body: Obj('AuthenticateBySmsCodeInput', {
        phoneNumber: Type.String({ maxLength: 30 }),
        code: Type.String({ maxLength: 20, description: 'The 6 digits of the SMS, Arabic-Indic or Persian digits too.' }),
      }),
      result: AuthenticateResult,
      async handler({ body, ctx }) {
        const phone = signInPhone(body.phoneNumber);
        const code = typedCode(body.code);
        // A phone with no account has no code: its answer is a known phone's without a live code.
        await consumeCode(ctx.db, phone, 'signIn', code);
        const [user] = await ctx.db.select().from(users).where(codeSignInAccount(phone));
        if (!user) throw badRequest(INVALID_LOGIN);
        const token = await ctx.tokens.issue({ userId: user.id, role: user.role, generation: user.sessionGeneration });
        return { ...token, encryptedAccessToken: token.accessToken, userId: user.id };
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

/** The phone of a sign-in with a code, as typed (domain/phone.ts), or a 400 in the spec's words. */
function signInPhone(input: string): string {
  const phone = normalisePhone(input);
  if (!phone || !isValidPhone(phone)) throw badRequest(TEXT.guest.invalidPhone, [{ message: TEXT.guest.invalidPhone, members: ['phoneNumber'] }]);
  return phone;
}

/** A code typed with any digits (domain/digits.ts): its 6 ASCII digits, or the 400 of a wrong code. */
function typedCode(input: string): string {
  const code = typedDigits(input);
  if (!/^\d{6}$/.test(code)) throw badRequest(CODE_TEXT.wrong, [{ message: CODE_TEXT.wrong, members: ['code'] }]);
  return code;
}

/** Who may sign in with a code: an active customer account (not the shared guest) with that phone. */
const codeSignInAccount = (phone: string) =>
  and(eq(users.phoneNumber, phone), eq(users.role, 'CUSTOMER'), eq(users.isGuest, false), eq(users.isActive, true));
