import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { and, desc, eq, sql } from 'drizzle-orm';
import { countRows } from '../support/server';
import { queryString } from '../support/restHelpers';
import { useServer } from '../support/harness';
import * as t from '../../server/db/schema';
import { rowsOf } from '../../server/db/client';
import { CODE_TEXT } from '../../server/services/verification/codes';
import { INVALID_LOGIN } from '../../server/services/tokenAuth/routes';

/**
 * Issue 24, the shop's sign-in: numbers typed with Arabic-Indic (٠-٩) or Persian (۰-۹) digits,
 * the phone as typed on sign-in (8 local digits are +965), sign-in with a one-time code, and car
 * plates saved once whatever digits they were typed in. Each test speaks from its own address.
 */
const APP = '/api/services/app';
const AUTH = '/api/TokenAuth/Authenticate';
const SEND_SIGN_IN = '/api/TokenAuth/SendSignInCodeBySms';
const SIGN_IN_BY_CODE = '/api/TokenAuth/AuthenticateBySmsCode';
const SEND_RESET = '/api/TokenAuth/SendPasswordResetCodeBySms';
const RESET = '/api/TokenAuth/ResetPasswordBySmsCode';
const REGISTER = `${APP}/Customer/RegistrateNewUnregisteredUser`;
const VALIDATE = `${APP}/Customer/ValidateNewUnregisteredUser`;
const COMPLETE = `${APP}/Customer/RegistrateUserFromMobileAppByPhone`;
const ADD_CAR = `${APP}/Cars/AddCustomerCar`;
const CARS = `${APP}/Cars/GetCustomerCars`;

const db = () => server.database.db;
const server = useServer();

type Call = { body?: unknown; query?: Record<string, unknown>; token?: string; ip: string };
async function call(method: 'GET' | 'POST', url: string, { body, query, token, ip }: Call) {
  const res = await server.app.inject({
    method, url: `${url}${queryString(query)}`, remoteAddress: ip,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(body !== undefined ? { payload: body as object } : {}),
  });
  return { status: res.statusCode, body: res.json() };
}
async function codesOf(phone: string, purpose: 'register' | 'reset' | 'signIn') {
  return db().select().from(t.smsOutbox)
    .where(and(eq(t.smsOutbox.phoneNumber, phone), eq(t.smsOutbox.purpose, purpose))).orderBy(desc(t.smsOutbox.id));
}
const latestCode = async (phone: string, purpose: 'register' | 'reset' | 'signIn') => (await codesOf(phone, purpose))[0].code;

/** ASCII digits written as Arabic-Indic ('٠'-'٩') or Persian ('۰'-'۹') ones. */
const arabic = (s: string) => s.replace(/\d/g, (d) => String.fromCharCode(0x0660 + Number(d)));
const persian = (s: string) => s.replace(/\d/g, (d) => String.fromCharCode(0x06f0 + Number(d)));

let n = 0;
/** A fresh Kuwaiti phone: its 8 local digits and its E.164. */
function newPhone() {
  const local = `5${String(Date.now() % 1e4).padStart(4, '0')}${String(++n).padStart(3, '0')}`;
  return { local, phone: `+965${local}` };
}

/** A customer who registers through the three real steps, typing the phone as given. */
async function register(typedPhone: string, phone: string, ip: string, password = 'secret-1') {
  expect((await call('POST', REGISTER, { body: { phoneNumber: typedPhone }, ip })).status).toBe(200);
  const validationCode = Number(await latestCode(phone, 'register'));
  expect((await call('POST', VALIDATE, { body: { phoneNumber: typedPhone, validationCode }, ip })).status).toBe(200);
  const done = await call('POST', COMPLETE, { body: { phoneNumber: typedPhone, fullName: `Customer ${phone}`, password }, ip });
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  return done.body.result.userId as number;
}

describe('numbers typed with Arabic-Indic or Persian digits', () => {
  it('registers a phone typed in Arabic-Indic digits as its E.164 phone', async () => {
    const { local, phone } = newPhone();
    const userId = await register(`+٩٦٥${arabic(local)}`, phone, '10.24.1.1');
    const [user] = await db().select({ phoneNumber: t.users.phoneNumber }).from(t.users).where(eq(t.users.id, userId));
    expect(user.phoneNumber).toBe(phone);
  });

  it('signs in with the phone in Arabic-Indic or Persian digits, and resets a password with a code typed in Arabic-Indic digits', async () => {
    const ip = '10.24.1.2';
    const { local, phone } = newPhone();
    await register(phone, phone, ip);
    for (const typed of [arabic(local), `+${persian(`965${local}`)}`]) {
      const res = await call('POST', AUTH, { body: { userNameOrEmailAddress: typed, password: 'secret-1' }, ip });
      expect(res.status, `${typed}: ${JSON.stringify(res.body)}`).toBe(200);
    }
    expect((await call('GET', SEND_RESET, { query: { phoneNumber: arabic(local) }, ip })).body.result).toBe(true);
    const code = arabic(await latestCode(phone, 'reset'));
    const reset = await call('POST', RESET, { body: { phoneNumber: phone, code, newPassword: 'secret-2' }, ip });
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    expect((await call('POST', AUTH, { body: { userNameOrEmailAddress: phone, password: 'secret-2' }, ip })).status).toBe(200);
  });

  it("finds a customer's codes on /ValidationCode by digits typed in Arabic-Indic", async () => {
    const ip = '10.24.1.5';
    const { local, phone } = newPhone();
    await call('POST', REGISTER, { body: { phoneNumber: phone }, ip });
    await call('POST', REGISTER, { body: { phoneNumber: newPhone().phone }, ip });
    const admin = (await call('POST', AUTH, { body: { userNameOrEmailAddress: 'admin', password: '123qwe' }, ip })).body.result.accessToken;
    const res = await call('GET', `${APP}/Customer/GetALlconfermationCode`, { query: { PhoneNumber: arabic(local.slice(2)) }, token: admin, ip });
    expect(res.status).toBe(200);
    expect(res.body.result.data.map((r: { phoneNumber: string }) => r.phoneNumber)).toEqual([phone]);
  });

  it('saves a car plate once, whichever digits it was typed in', async () => {
    const ip = '10.24.1.3';
    const { phone } = newPhone();
    await register(phone, phone, ip);
    const token = (await call('POST', AUTH, { body: { userNameOrEmailAddress: phone, password: 'secret-1' }, ip })).body.result.accessToken;
    const car = { carBrandId: 1, carTypeId: 1, carColorId: 1 };
    const first = await call('POST', ADD_CAR, { query: { ...car, plateNumber: '23/45678' }, token, ip });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const again = await call('POST', ADD_CAR, { query: { ...car, plateNumber: ' ٢٣/٤٥٦٧٨ ', description: 'roof box' }, token, ip });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.result).toMatchObject({ id: first.body.result.id, plateNumber: '23/45678', description: 'roof box' });
    const persianPlate = await call('POST', ADD_CAR, { query: { ...car, plateNumber: '۲۳/۴۵۶۷۸' }, token, ip });
    expect(persianPlate.body.result.id).toBe(first.body.result.id);
    const cars = (await call('GET', CARS, { token, ip })).body.result as { plateNumber: string }[];
    expect(cars.map((c) => c.plateNumber)).toEqual(['23/45678']);
  });

  it('migration 0046 rewrites saved plates with ASCII digits and merges a plate saved twice into one car', async () => {
    const { phone } = newPhone();
    const userId = await register(phone, phone, '10.24.1.4');
    // The cars as they were saved before: the same plate in two kinds of digits.
    await db().execute(sql`drop index customer_cars_user_plate_uq`);
    const car = { userId, carBrandId: 1, carTypeId: 1, carColorId: 1 };
    const [kept] = await db().insert(t.customerCars).values({ ...car, plateNumber: '23/45678' }).returning();
    await db().insert(t.customerCars).values({ ...car, plateNumber: ' ٢٣/٤٥٦٧٨ ' });
    await db().insert(t.customerCars).values({ ...car, plateNumber: '۹۹  ab' });
    const migration = readFileSync('server/db/migrations/0046_plate_digits.sql', 'utf8');
    for (const statement of migration.split('--> statement-breakpoint')) await db().execute(sql.raw(statement));
    const cars = await db().select().from(t.customerCars).where(eq(t.customerCars.userId, userId)).orderBy(t.customerCars.id);
    expect(cars.map((c) => [c.id === kept.id, c.plateNumber])).toEqual([[true, '23/45678'], [false, '99 AB']]);
    const indexes = rowsOf<{ indexname: string }>(await db().execute(sql`select indexname from pg_indexes where tablename = 'customer_cars'`));
    expect(indexes.map((i) => i.indexname)).toContain('customer_cars_user_plate_uq');
  });
});

describe('sign-in with the phone as typed', () => {
  it('reads 8 local digits as +965: a customer registered as 50007773 signs in with "50007773" and "5000 7773"', async () => {
    const ip = '10.24.2.1';
    const { local, phone } = newPhone();
    await register(local, phone, ip);
    for (const typed of [local, `${local.slice(0, 4)} ${local.slice(4)}`, `00965${local}`, phone]) {
      const res = await call('POST', AUTH, { body: { userNameOrEmailAddress: typed, password: 'secret-1' }, ip });
      expect(res.status, `${typed}: ${JSON.stringify(res.body)}`).toBe(200);
    }
  });

  it('still names staff by their user names', async () => {
    const res = await call('POST', AUTH, { body: { userNameOrEmailAddress: 'admin', password: '123qwe' }, ip: '10.24.2.2' });
    expect(res.status).toBe(200);
  });
});

describe('sign-in with a one-time code', () => {
  it('sends a code to a customer and signs them in with it, typed in Arabic-Indic digits; the code is used up', async () => {
    const ip = '10.24.3.1';
    const { local, phone } = newPhone();
    const userId = await register(phone, phone, ip);
    const sent = await call('POST', SEND_SIGN_IN, { body: { phoneNumber: arabic(local) }, ip });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.result).toBe(true);
    const code = await latestCode(phone, 'signIn');
    const res = await call('POST', SIGN_IN_BY_CODE, { body: { phoneNumber: local, code: arabic(code) }, ip });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result.userId).toBe(userId);
    expect((await call('GET', CARS, { token: res.body.result.accessToken, ip })).status).toBe(200);
    const again = await call('POST', SIGN_IN_BY_CODE, { body: { phoneNumber: local, code }, ip });
    expect(again.status).toBe(400);
    expect(again.body.error.message).toBe(CODE_TEXT.expired);
  });

  it('answers an unknown phone as a known one, and sends it nothing', async () => {
    const ip = '10.24.3.2';
    const known = newPhone();
    await register(known.phone, known.phone, ip);
    const unknown = newPhone();
    const outboxBefore = await countRows(server, 'sms_outbox');
    const forUnknown = await call('POST', SEND_SIGN_IN, { body: { phoneNumber: unknown.local }, ip });
    expect(await countRows(server, 'sms_outbox')).toBe(outboxBefore);
    const forKnown = await call('POST', SEND_SIGN_IN, { body: { phoneNumber: known.local }, ip });
    expect(forUnknown).toEqual(forKnown);
    expect(await codesOf(unknown.phone, 'signIn')).toEqual([]);
    // Signing in: an unknown phone reads as a known phone whose code has not come.
    const unknownTry = await call('POST', SIGN_IN_BY_CODE, { body: { phoneNumber: unknown.local, code: '123456' }, ip });
    const knownNoCode = newPhone();
    await register(knownNoCode.phone, knownNoCode.phone, ip);
    const knownTry = await call('POST', SIGN_IN_BY_CODE, { body: { phoneNumber: knownNoCode.local, code: '123456' }, ip });
    expect(unknownTry).toEqual(knownTry);
    expect(unknownTry.status).toBe(400);
  });

  it('sends no code to a staff account or the guest, and signs none of them in', async () => {
    const ip = '10.24.3.3';
    await db().update(t.users).set({ phoneNumber: '+96551110001' }).where(eq(t.users.userName, 'branchuser'));
    const outboxBefore = await countRows(server, 'sms_outbox');
    expect((await call('POST', SEND_SIGN_IN, { body: { phoneNumber: '51110001' }, ip })).body.result).toBe(true);
    expect(await countRows(server, 'sms_outbox')).toBe(outboxBefore);
  });

  it('is under the same limits as the other codes: 5 codes a phone in 10 minutes, 5 wrong tries a code, for unknown phones too', async () => {
    const ip = '10.24.3.4';
    const { local, phone } = newPhone();
    await register(phone, phone, ip);
    const unknown = newPhone();
    for (const p of [local, unknown.local]) {
      for (let i = 0; i < 5; i++) expect((await call('POST', SEND_SIGN_IN, { body: { phoneNumber: p }, ip })).status).toBe(200);
      const sixth = await call('POST', SEND_SIGN_IN, { body: { phoneNumber: p }, ip });
      expect(sixth.status).toBe(429);
    }
    const code = await latestCode(phone, 'signIn');
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 5; i++) {
      const res = await call('POST', SIGN_IN_BY_CODE, { body: { phoneNumber: phone, code: wrong }, ip });
      expect(res.body.error.message).toBe(CODE_TEXT.wrong);
    }
    const right = await call('POST', SIGN_IN_BY_CODE, { body: { phoneNumber: phone, code }, ip });
    expect(right.status).toBe(429);
  });

  it('refuses a phone that is not a phone and a code that is not 6 digits with a 400, and writes nothing', async () => {
    const ip = '10.24.3.5';
    const before = await countRows(server, 'sms_outbox');
    const bad = await call('POST', SEND_SIGN_IN, { body: { phoneNumber: 'abc' }, ip });
    expect(bad.status).toBe(400);
    expect(bad.body.error.validationErrors[0].members).toEqual(['phoneNumber']);
    const shortCode = await call('POST', SIGN_IN_BY_CODE, { body: { phoneNumber: '50000001', code: '١٢٣' }, ip });
    expect(shortCode.status).toBe(400);
    expect(shortCode.body.error.validationErrors[0].members).toEqual(['code']);
    expect(await countRows(server, 'sms_outbox')).toBe(before);
  });

  it('an account deactivated after the code was sent is not signed in', async () => {
    const ip = '10.24.3.6';
    const { phone } = newPhone();
    const userId = await register(phone, phone, ip);
    await call('POST', SEND_SIGN_IN, { body: { phoneNumber: phone }, ip });
    const code = await latestCode(phone, 'signIn');
    await db().update(t.users).set({ isActive: false }).where(eq(t.users.id, userId));
    const res = await call('POST', SIGN_IN_BY_CODE, { body: { phoneNumber: phone, code }, ip });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(INVALID_LOGIN);
  });
});
