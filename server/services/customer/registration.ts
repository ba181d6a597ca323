import { and, desc, eq, gt, isNotNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { joinInvitedGroups } from '../preInvitationLists/join';
import { smsOutbox, users } from '../../db/schema';
import { uniqueViolation } from '../../db/uniqueViolation';
import { hashPassword } from '../../auth/password';
import { badRequest, type ValidationError } from '../../http/envelope';
import type { SmsProvider } from '../verification/codes';
import { consumeCode, issueCode } from '../verification/codes';
import { isValidPhone, normalisePhone } from '../../../domain/phone';
import { TEXT } from '../../../domain/constants';
import type { LanguageCode } from '../../../domain/languages';

/**
 * Registration by phone in three steps (SPEC.md 4): a code is sent (register), the code is
 * checked (validate), then the account is created (complete). The validated code itself is the
 * proof between steps 2 and 3: its sms_outbox row is used (used_at) no more than
 * REGISTRATION_WINDOW_MS ago. Once the account exists the phone is taken, so one validation
 * creates at most one account.
 */
export const REGISTRATION_WINDOW_MS = 30 * 60 * 1000;

export const PHONE_TAKEN = 'This phone number is already registered. Please log in.';
export const EMAIL_TAKEN = 'This e-mail address is already registered.';
export const NOT_VALIDATED = 'Please verify your phone number with the SMS code first.';
export const INVALID_EMAIL = 'Please enter a valid e-mail address.';

const invalid = (message: string, member: string) => badRequest(message, [{ message, members: [member] }]);

/** The normalised phone, or a 400 in the spec's words. */
export function registrationPhone(input: string): string {
  const phone = normalisePhone(input);
  if (!phone || !isValidPhone(phone)) throw invalid(TEXT.guest.invalidPhone, 'phoneNumber');
  return phone;
}

export function cleanEmail(input: string | null | undefined, member = 'email'): string | null {
  const email = input?.trim() || null;
  if (email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw invalid(INVALID_EMAIL, member);
  return email;
}

/** What a taken phone or e-mail is called: the shop's words to a customer, or staff's (Customer/Registrate). */
export interface TakenMessages { phone: string; email: string; emailField: string }
const SHOP_TAKEN: TakenMessages = { phone: PHONE_TAKEN, email: EMAIL_TAKEN, emailField: 'email' };

export async function assertUnregistered(db: Db, phone: string, email: string | null, taken: TakenMessages = SHOP_TAKEN) {
  const [byPhone] = await db.select({ id: users.id }).from(users).where(eq(users.phoneNumber, phone));
  if (byPhone) throw invalid(taken.phone, 'phoneNumber');
  if (email) {
    const [byEmail] = await db.select({ id: users.id }).from(users).where(sql`lower(${users.emailAddress}) = lower(${email})`);
    if (byEmail) throw invalid(taken.email, taken.emailField);
  }
}

/** Step 1; `client` is the caller's address, for the SMS limits. */
export async function startRegistration(db: Db, sms: SmsProvider, phoneInput: string, emailInput: string | null | undefined, client: string, language?: LanguageCode) {
  const phone = registrationPhone(phoneInput);
  const email = cleanEmail(emailInput);
  await assertUnregistered(db, phone, email);
  await issueCode(db, sms, { phoneNumber: phone, purpose: 'register', email, client, language });
}

export async function validateRegistration(db: Db, phoneInput: string, code: number) {
  const phone = registrationPhone(phoneInput);
  await assertUnregistered(db, phone, null);
  await consumeCode(db, phone, 'register', code);
}

export interface CompleteRegistration {
  phoneNumber: string;
  fullName: string;
  email?: string | null;
  password: string;
  gender?: string | null;
  birthDate?: string | null;
}

/** Creates the CUSTOMER account of a validated phone; returns its id. */
export async function completeRegistration(db: Db, input: CompleteRegistration): Promise<number> {
  const phone = registrationPhone(input.phoneNumber);
  const [validated] = await db.select({ email: smsOutbox.email }).from(smsOutbox)
    .where(and(
      eq(smsOutbox.phoneNumber, phone), eq(smsOutbox.purpose, 'register'), isNotNull(smsOutbox.usedAt),
      gt(smsOutbox.usedAt, new Date(Date.now() - REGISTRATION_WINDOW_MS)),
    ))
    .orderBy(desc(smsOutbox.usedAt))
    .limit(1);
  if (!validated) throw invalid(NOT_VALIDATED, 'phoneNumber');
  const fullName = input.fullName.trim();
  const errors: ValidationError[] = [];
  if (!fullName) errors.push({ message: TEXT.guest.nameRequired, members: ['fullName'] });
  if (errors.length) throw badRequest(errors[0].message, errors);
  const email = cleanEmail(input.email) ?? validated.email;
  await assertUnregistered(db, phone, email);
  return createCustomerAccount(db, {
    phone, email, fullName, passwordHash: await hashPassword(input.password), gender: input.gender, birthDate: input.birthDate,
  });
}

export interface NewCustomerAccount {
  phone: string;
  email: string | null;
  fullName: string;
  passwordHash: string;
  gender?: string | null;
  birthDate?: string | null;
}

/**
 * Creates a CUSTOMER account (the shop's registration and staff's Customer/Registrate), in one
 * transaction with what a new account brings: the groups its phone was pre-invited to
 * (preInvitationLists/join.ts), and whatever `also` adds (a staff registration's wallet). A phone
 * or e-mail taken meanwhile (two registrations at once) is the 400 of `taken`.
 */
export async function createCustomerAccount(
  db: Db, account: NewCustomerAccount, also?: (tx: Tx, userId: number) => Promise<void>, taken: TakenMessages = SHOP_TAKEN,
): Promise<number> {
  try {
    return await db.transaction(async (tx) => {
      const [user] = await tx.insert(users).values({
        userName: account.phone, phoneNumber: account.phone, emailAddress: account.email, fullName: account.fullName, role: 'CUSTOMER',
        passwordHash: account.passwordHash, gender: account.gender?.trim() || null, birthDate: account.birthDate || null,
      }).returning({ id: users.id });
      await joinInvitedGroups(tx, [account.phone], 'registration');
      await also?.(tx, user.id);
      return user.id;
    });
  } catch (err) {
    const index = uniqueViolation(err);
    if (index === null) throw err;
    throw index.includes('email') ? invalid(taken.email, taken.emailField) : invalid(taken.phone, 'phoneNumber');
  }
}
