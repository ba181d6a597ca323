import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq, sql } from 'drizzle-orm';
import { fakeUnifonic } from '../support/fakeSms';
import { useServer } from '../support/harness';
import * as t from '../../server/db/schema';
import { unifonicProvider } from '../../server/messages/smsProviders';
import { rowsOf } from '../../server/db/client';
import { cooldownSeconds, SMS_GUARD_TEXT } from '../../server/limits/smsGuard';

/**
 * Issue 27, "A guard against SMS pumping", with a real provider (the Unifonic simulator): codes go
 * to +965 only unless configured, a phone's resend cooldown doubles from 60 s to 32 minutes, and
 * the circuit breaker pauses sending when fewer than half of more than 50 codes sent in the hour
 * were verified, until an admin resumes it.
 */
const APP = '/api/services/app';
const REGISTER = `${APP}/Customer/RegistrateNewUnregisteredUser`;
const VALIDATE = `${APP}/Customer/ValidateNewUnregisteredUser`;
const STATE = `${APP}/Sms/GetSendingState`;
const RESUME = `${APP}/Sms/ResumeSending`;
const PER_DAY = `${APP}/Statistic/GetSmsSendsPerDay`;

let fake: Awaited<ReturnType<typeof fakeUnifonic>>;
let admin: string;
let ip = 0;
const db = () => server.database.db;
/** Each request from its own address and number block, so only the guard under test can refuse it. */
async function register(phoneNumber: string) {
  const res = await server.app.inject({ method: 'POST', url: REGISTER, remoteAddress: `10.8.${Math.floor(ip / 250)}.${(ip++ % 250) + 1}`, payload: { phoneNumber } });
  return { status: res.statusCode, body: res.json(), retryAfter: res.headers['retry-after'] as string | undefined };
}
const lastCode = async (phone: string) =>
  (await db().select().from(t.smsOutbox).where(eq(t.smsOutbox.phoneNumber, phone)).orderBy(desc(t.smsOutbox.id)).limit(1))[0];
/** Moves a phone's sends back in time, as if `seconds` had passed. */
const age = (phone: string, seconds: number) => db().execute(sql`
  update sms_outbox set created_at = created_at - make_interval(secs => ${seconds}) where phone_number = ${phone}`);

beforeAll(async () => {
  fake = await fakeUnifonic('app-sid-2');
}, 120_000);
const server = useServer(() => ({ sms: unifonicProvider({ appSid: 'app-sid-2', senderId: 'BrewOps', baseUrl: fake.url, timeoutMs: 300 }) }));
beforeAll(async () => {
  admin = await server.api.login('admin');
}, 120_000);
afterAll(async () => { await fake?.close(); delete process.env.SMS_ALLOWED_COUNTRY_CODES; });

describe('destinations', () => {
  it('sends to +965 only by default, and to the countries SMS_ALLOWED_COUNTRY_CODES names', async () => {
    const before = fake.requests.length;
    const saudi = await register('+97333123456');
    expect(saudi.status).toBe(400);
    expect(saudi.body.error.message).toBe(SMS_GUARD_TEXT.country);
    expect(fake.requests.length).toBe(before);
    expect(await lastCode('+97333123456')).toBeUndefined();
    process.env.SMS_ALLOWED_COUNTRY_CODES = '965, 973';
    try {
      expect((await register('+97333123456')).status).toBe(200);
      expect((await register('+96552000001')).status).toBe(200);
    } finally {
      delete process.env.SMS_ALLOWED_COUNTRY_CODES;
    }
    expect((await register('+97333123457')).status).toBe(400);
  });
});

describe('resend cooldown', () => {
  it('doubles from 60 s up to 32 minutes per phone, and starts over once a code is verified', async () => {
    expect([1, 2, 3, 4, 5, 6, 7, 12].map(cooldownSeconds)).toEqual([60, 120, 240, 480, 960, 1920, 1920, 1920]);
    const phone = '+96552000002';
    expect((await register(phone)).status).toBe(200);
    const waits: number[] = [];
    for (let n = 1; n <= 6; n++) {
      const refused = await register(phone);
      expect(refused.status).toBe(429);
      expect(refused.body.error.message).toBe(SMS_GUARD_TEXT.cooldown);
      waits.push(Number(refused.retryAfter));
      await age(phone, cooldownSeconds(n)); // the wait has passed
      // (the per-phone limit of 5 codes in 10 minutes is aged along with them)
      await db().execute(sql`delete from rate_limits where key like ${`sms:phone:%:${phone}`}`);
      expect((await register(phone)).status).toBe(200);
    }
    // Each wait is the full cooldown, counted from the last code: 60, 120, … 1920 s.
    waits.forEach((w, i) => expect(Math.abs(w - cooldownSeconds(i + 1))).toBeLessThanOrEqual(2));
    expect(Number((await register(phone)).retryAfter)).toBeGreaterThan(1900);

    // The customer types the code: the next one needs only the first 60 s.
    await age(phone, 1920);
    const code = await lastCode(phone);
    expect((await server.app.inject({ method: 'POST', url: VALIDATE, payload: { phoneNumber: phone, validationCode: Number(code.code) } })).statusCode).toBe(200);
    await db().execute(sql`delete from rate_limits where key like ${`sms:phone:%:${phone}`}`);
    expect((await register(phone)).status).toBe(200);
    const next = await register(phone);
    expect(next.status).toBe(429);
    expect(Number(next.retryAfter)).toBeLessThanOrEqual(60);
  });
});

describe('resend cooldown, concurrent requests', () => {
  /**
   * N requests for one phone at the same instant, each from its own address: the cooldown lets
   * exactly one send. They start while the test holds a transaction open for a moment: on PGlite
   * (one connection, a transaction runs alone) their queries queue up behind it and then run in
   * turn, one of each request after another, as on a busy server; on PostgreSQL they run at once anyway.
   */
  async function race(phone: string, n: number) {
    const before = fake.requests.length;
    let all!: Promise<Awaited<ReturnType<typeof register>>[]>;
    await db().transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      all = Promise.all(Array.from({ length: n }, () => register(phone)));
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    const answers = await all;
    const [live] = rowsOf<{ n: number }>(await db().execute(sql`select count(*)::int as n from sms_outbox where phone_number = ${phone} and used_at is null and expires_at > now()`));
    return {
      statuses: answers.map((a) => a.status).sort(),
      refusals: answers.filter((a) => a.status !== 200).map((a) => a.body.error.message),
      // codes that reached the provider (a try that timed out is tried again under the same CorrelationID)
      sent: new Set(fake.requests.slice(before).filter((r) => r.Recipient === phone.slice(1)).map((r) => r.CorrelationID)).size,
      live: Number(live.n),
    };
  }

  it('sends one code when a phone asks several times at once, first code or resend', async () => {
    const phone = '+96552000077';
    const first = await race(phone, 5);
    expect(first.sent).toBe(1);
    expect(first.statuses).toEqual([200, 429, 429, 429, 429]);
    expect(new Set(first.refusals)).toEqual(new Set([SMS_GUARD_TEXT.cooldown]));
    expect(first.live).toBe(1); // the refused requests' codes were never sent: none of them is live

    await age(phone, 61); // the first cooldown is over
    await db().execute(sql`delete from rate_limits where key like ${`sms:phone:%:${phone}`}`);
    const resend = await race(phone, 5);
    expect(resend.sent).toBe(1);
    expect(resend.statuses).toEqual([200, 429, 429, 429, 429]);
    expect(resend.live).toBe(2); // the first code (still in its 10 minutes) and the resent one
  });
});

describe('circuit breaker', () => {
  it('pauses sending when fewer than half of more than 50 codes sent in the hour were verified; an admin sees why and resumes', async () => {
    await db().execute(sql`delete from sms_sends`);
    // 51 codes sent through the provider in the last hour, 25 of them verified (49 %).
    for (let i = 0; i < 51; i++) {
      const [row] = await db().insert(t.smsOutbox).values({
        phoneNumber: `+9655300${String(i).padStart(4, '0')}`, purpose: 'register', code: '123456', expiresAt: new Date(Date.now() + 600_000),
        usedAt: i < 25 ? new Date() : null,
      }).returning({ id: t.smsOutbox.id });
      await db().insert(t.smsSends).values({ outboxId: row.id, provider: 'unifonic', status: 'sent', cost: '0.008', currency: 'KWD' });
    }
    const before = fake.requests.length;
    const refused = await register('+96554000001');
    expect(refused.status).toBe(503);
    expect(refused.body.error.message).toBe(SMS_GUARD_TEXT.paused);
    expect(fake.requests.length).toBe(before);
    expect((await register('+96554000002')).status).toBe(503);

    // Only the admin sees the guard (403 for a brand manager, before anything else).
    expect((await server.api.get(STATE, { token: await server.api.login('brandmanager') })).status).toBe(403);
    const state = await server.api.get(STATE, { token: admin });
    expect(state.body.result).toMatchObject({ provider: 'unifonic', paused: true, sent: 51, verified: 25 });
    expect(state.body.result.reason).toBe('Only 25 of the 51 codes sent in the last hour were verified (49 %, below 50 %): possible SMS pumping.');

    // The day's sends and their cost show up in the statistics.
    const days = await server.api.get(`${PER_DAY}?Days=1`, { token: admin });
    expect(days.status).toBe(200);
    expect(days.body.result[0]).toMatchObject({ verified: 25, currency: 'KWD' });
    expect(days.body.result[0].sends).toBeGreaterThanOrEqual(51);
    expect(days.body.result[0].cost).toBeGreaterThan(0.4);

    const resumed = await server.api.post(RESUME, { token: admin });
    expect(resumed.status).toBe(200);
    expect(resumed.body.result).toMatchObject({ paused: false, reason: null, sent: 0 });
    expect((await register('+96554000001')).status).toBe(200);
    expect(fake.requests.length).toBe(before + 1);
  });

  it('does not trip at 50 sends, nor with half of them verified', async () => {
    await db().execute(sql`delete from sms_sends`);
    await db().execute(sql`update sms_guard set paused_at = null, resumed_at = null`);
    for (let i = 0; i < 60; i++) {
      const [row] = await db().insert(t.smsOutbox).values({
        phoneNumber: `+9655500${String(i).padStart(4, '0')}`, purpose: 'register', code: '123456', expiresAt: new Date(Date.now() + 600_000),
        usedAt: i % 2 === 0 ? new Date() : null,
      }).returning({ id: t.smsOutbox.id });
      await db().insert(t.smsSends).values({ outboxId: row.id, provider: 'unifonic', status: 'sent' });
    }
    expect((await register('+96556000001')).status).toBe(200); // 30 of 60 verified: 50 %, not below
    expect((await server.api.get(STATE, { token: admin })).body.result.paused).toBe(false);
  });
});
