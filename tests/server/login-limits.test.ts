import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { LOGIN_LIMITS, throttleDelayMs } from '../../server/limits/login';
import * as t from '../../server/db/schema';
import { useServer } from '../support/harness';

/**
 * Login limits behind a shared address (issue 20): someone guessing among many accounts from one
 * address (a mobile carrier's NAT) is slowed, and refused at the accounts they have been failing
 * at, but the others behind that address still get in with their right password; the per-account
 * limit stays strict from any number of addresses. Each test speaks for its own address (inject's
 * remoteAddress). Runs on PGlite, and on PostgreSQL with TEST_DATABASE_URL.
 */
const AUTH = '/api/TokenAuth/Authenticate';
const server = useServer();

async function login(userNameOrEmailAddress: string, password: string, ip: string) {
  const started = performance.now();
  const res = await server.app.inject({ method: 'POST', url: AUTH, remoteAddress: ip, payload: { userNameOrEmailAddress, password } });
  return { status: res.statusCode, body: res.json(), retryAfter: res.headers['retry-after'] as string | undefined, ms: performance.now() - started };
}

describe('one address guessing among many accounts', () => {
  it('after 40 failures across accounts, a right password for another account from the same address gets in', async () => {
    const ip = '10.20.0.1';
    const statuses: number[] = [];
    // 37 names and the admin 3 times (under the admin's own limit of 5): every one of them judged, none refused
    for (let i = 0; i < 40; i++) statuses.push((await login(i % 10 === 0 && i < 30 ? 'admin' : `stuffed-${i}@example.test`, 'wrong', ip)).status);
    expect(statuses).toEqual(Array(40).fill(400));
    const colleague = await login('brandmanager', '123qwe', ip);
    expect(colleague.status, JSON.stringify(colleague.body)).toBe(200);
    // A customer behind the same address, signing in by phone number, too.
    expect((await login('+96550000001', '123qwe', ip)).status).toBe(200);
  });

  it('slows the address: each of its tries waits, right password or wrong, and the wait grows with its failures', async () => {
    const ip = '10.20.0.2';
    for (let i = 0; i < LOGIN_LIMITS.client.max; i++) expect((await login(`slow-${i}`, 'wrong', ip)).status).toBe(400);
    const wrong = await login('slow-new-1', 'wrong', ip);
    expect(wrong.status).toBe(400);
    const right = await login('companyadmin', '123qwe', ip);
    expect(right.status).toBe(200);
    for (let i = 0; i < 10; i++) await login(`slow-more-${i}`, 'wrong', ip);
    const later = await login('slow-new-2', 'wrong', ip);
    console.log(`throttled address: try ${wrong.ms.toFixed(0)} ms, right password ${right.ms.toFixed(0)} ms, 10 failures later ${later.ms.toFixed(0)} ms`);
    expect(wrong.ms).toBeGreaterThanOrEqual(throttleDelayMs(LOGIN_LIMITS.client.max) - 5);
    expect(right.ms).toBeGreaterThanOrEqual(throttleDelayMs(LOGIN_LIMITS.client.max + 1) - 5);
    expect(later.ms).toBeGreaterThanOrEqual(throttleDelayMs(LOGIN_LIMITS.client.max + 11) - 5);
    expect(throttleDelayMs(LOGIN_LIMITS.client.max + 11)).toBeGreaterThan(throttleDelayMs(LOGIN_LIMITS.client.max));
  });

  it('refuses the address at accounts with failures of their own (429 with Retry-After), the right password too', async () => {
    const ip = '10.20.0.3';
    for (let i = 0; i < LOGIN_LIMITS.client.max; i++) await login(`again-${i}`, 'wrong', ip);
    // a second guess at an account already tried
    const again = await login('again-0', 'other-guess', ip);
    expect(again.status).toBe(429);
    expect(again.body.error.message).toMatch(/^Too many failed logins\. Please try again in \d+ minutes?\.$/);
    expect(Number(again.retryAfter)).toBeGreaterThan(0);
    expect(Number(again.retryAfter)).toBeLessThanOrEqual(LOGIN_LIMITS.client.windowMs / 1000);
    // an account someone failed at from elsewhere is under attack: not from this address either
    expect((await login('branchuser', 'typo', '10.20.0.4')).status).toBe(400);
    expect((await login('branchuser', '123qwe', ip)).status).toBe(429);
    // from any other address it logs in (and its failures are forgotten)
    expect((await login('branchuser', '123qwe', '10.20.0.5')).status).toBe(200);
    expect((await login('branchuser', '123qwe', ip)).status).toBe(200);
  });

  it('counts the address\'s failures in the database, a good login given back', async () => {
    const ip = '10.20.0.6';
    await login('counted-1', 'wrong', ip);
    await login('counted-2', 'wrong', ip);
    await login('admin', '123qwe', ip);
    const [row] = await server.database.db.select().from(t.rateLimits).where(eq(t.rateLimits.key, `login:client:${ip}`));
    expect(row.count).toBe(2);
  });
});

describe('the per-account limit stays strict', () => {
  it('locks the attacked account after 5 failures from 5 addresses; the right password from a sixth is refused with Retry-After', async () => {
    for (let i = 0; i < 5; i++) expect((await login('brandmanager', `guess-${i}`, `10.21.0.${i + 1}`)).status).toBe(400);
    const locked = await login('brandmanager', '123qwe', '10.21.0.9');
    expect(locked.status).toBe(429);
    expect(Number(locked.retryAfter)).toBeGreaterThan(0);
    // other accounts from those addresses are not affected
    expect((await login('companyadmin', '123qwe', '10.21.0.1')).status).toBe(200);
  });
});
