import { describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { countRows } from '../support/server';
import { useServer } from '../support/harness';
import { DEMO_ACCOUNTS } from '../../server/db/seed';
import { forgetCallerHere } from '../../server/auth/callers';

const server = useServer();

const AUTH = '/api/TokenAuth/Authenticate';

describe('POST TokenAuth/Authenticate', () => {
  it.each(DEMO_ACCOUNTS.map((a) => [a.userName, a.role, a.id] as const))('logs %s in (%s)', async (userName, role, id) => {
    const res = await server.api.post(AUTH, { body: { userNameOrEmailAddress: userName, password: '123qwe' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, error: null, unAuthorizedRequest: false, result: { userId: id, expireInSeconds: 86400 } });
    const me = await server.api.get('/api/services/app/User/Get', { token: res.body.result.accessToken, query: { Id: id } });
    expect(me.body.result.roleNames).toEqual([role]);
  });

  it('accepts an e-mail or a phone number as the login', async () => {
    for (const login of ['admin@brewops.test', 'ADMIN', '+96550000001', '96550000001']) {
      const res = await server.api.post(AUTH, { body: { userNameOrEmailAddress: login, password: '123qwe' } });
      expect(res.status, login).toBe(200);
    }
  });

  it('refuses a wrong password with a clear 400', async () => {
    const res = await server.api.post(AUTH, { body: { userNameOrEmailAddress: 'admin', password: 'nope' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, result: null, error: { message: 'Invalid user name or password' } });
  });

  it('gives validation errors for a missing login', async () => {
    const res = await server.api.post(AUTH, { body: { password: 'x' } });
    expect(res.status).toBe(400);
    expect(res.body.error!.validationErrors![0].members).toEqual(['userNameOrEmailAddress']);
  });

  it('rejects a body of the wrong shape with validationErrors', async () => {
    const res = await server.api.post(AUTH, { body: { userNameOrEmailAddress: 'admin', password: 'x'.repeat(500) } });
    expect(res.status).toBe(400);
    expect(res.body.error!.validationErrors!.length).toBeGreaterThan(0);
    expect(res.body.error!.validationErrors![0].members).toEqual(['password']);
  });

  it('logs the guest in as user 18, who can never log in with a password', async () => {
    const res = await server.api.post(AUTH, { body: { asGuest: true } });
    expect(res.body.result.userId).toBe(18);
    const pw = await server.api.post(AUTH, { body: { userNameOrEmailAddress: 'guest', password: '!' } });
    expect(pw.status).toBe(400);
  });

  it('stores passwords hashed, never in clear', async () => {
    const { users } = await import('../../server/db/schema');
    const rows = await server.database.db.select({ h: users.passwordHash }).from(users);
    for (const r of rows) {
      expect(r.h).not.toContain('123qwe');
      if (r.h !== '!') expect(r.h).toMatch(/^scrypt\$/);
    }
  });
});

describe('tokens', () => {
  const me = (token: string) => server.api.get('/api/services/app/User/Get', { token, query: { Id: 1 } });

  it('401 with unAuthorizedRequest for a missing token', async () => {
    const res = await server.api.get('/api/services/app/User/Get', { query: { Id: 1 } });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ success: false, unAuthorizedRequest: true, result: null });
  });

  it('refuses alg:none, unsigned, forged and expired tokens', async () => {
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const claims = { sub: '1', role: 'ADMIN', exp: Math.floor(Date.now() / 1000) + 3600 };
    const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`;
    const forged = await new SignJWT({ role: 'ADMIN' }).setProtectedHeader({ alg: 'HS256' }).setSubject('1').setExpirationTime('1h').sign(new TextEncoder().encode('wrong-secret'));
    const expired = await new SignJWT({ role: 'ADMIN' }).setProtectedHeader({ alg: 'HS256' }).setSubject('1').setExpirationTime(Math.floor(Date.now() / 1000) - 10).sign(new TextEncoder().encode('test-secret-0123456789abcdef'));
    const noExp = await new SignJWT({ role: 'ADMIN' }).setProtectedHeader({ alg: 'HS256' }).setSubject('1').sign(new TextEncoder().encode('test-secret-0123456789abcdef'));
    for (const token of [none, `${b64({ alg: 'HS256' })}.${b64(claims)}`, forged, expired, noExp, 'garbage']) {
      const res = await me(token);
      expect(res.status, token).toBe(401);
      expect(res.body.unAuthorizedRequest).toBe(true);
    }
  });

  // Issue 26: tokens are checked with node:crypto's HMAC, no longer jose's WebCrypto verify; the same tokens pass and fail.
  it('refuses a re-signed, tampered, other-algorithm or critical-extension token, 401 before any complaint about the body', async () => {
    const secret = new TextEncoder().encode('test-secret-0123456789abcdef');
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const good = await server.api.login('customer');
    const [head, , signature] = good.split('.');
    const asAdmin = b64({ role: 'ADMIN', gen: 0, sub: '1', iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 3600 });
    const tampered = `${head}.${asAdmin}.${signature}`; // the customer's signature on an admin's claims
    const hs512 = await new SignJWT({ role: 'ADMIN' }).setProtectedHeader({ alg: 'HS512' }).setSubject('1').setExpirationTime('1h').sign(secret);
    const crit = await new SignJWT({ role: 'ADMIN' }).setProtectedHeader({ alg: 'HS256', crit: ['b64'], b64: true }).setSubject('1').setExpirationTime('1h').sign(secret);
    const notYet = await new SignJWT({ role: 'ADMIN' }).setProtectedHeader({ alg: 'HS256' }).setSubject('1').setNotBefore('1h').setExpirationTime('2h').sign(secret);
    const noSub = await new SignJWT({ role: 'ADMIN' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(secret);
    // The same signature bytes spelt another way: the last of 43 characters carries 2 spare bits.
    const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const respelled = `${good.slice(0, -1)}${ALPHABET[ALPHABET.indexOf(signature.at(-1)!) ^ 1]}`;
    expect(Buffer.from(respelled.split('.')[2], 'base64url')).toEqual(Buffer.from(signature, 'base64url'));
    const extraSegment = `${good}.e30`;
    for (const token of [tampered, hs512, crit, notYet, noSub, respelled, extraSegment]) {
      const res = await me(token);
      expect(res.status, token).toBe(401);
      expect(res.body.unAuthorizedRequest).toBe(true);
    }
    // A bad body with a bad token: the 401 comes first.
    const res = await server.api.post('/api/services/app/AdminUserManagement/CreateUser', { token: tampered, body: { userName: 42 } });
    expect(res.status).toBe(401);
  });

  it('accepts a token jose signed with the secret (tokens issued before the change keep working)', async () => {
    const secret = new TextEncoder().encode('test-secret-0123456789abcdef');
    const byJose = await new SignJWT({ role: 'ADMIN', gen: 0 }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setSubject('1').setIssuedAt().setExpirationTime('1h').sign(secret);
    expect((await me(byJose)).status).toBe(200);
    const mine = await server.api.login('admin');
    expect(mine.split('.')[0]).toBe(byJose.split('.')[0]); // the same header
  });
});

describe('GET User/Get', () => {
  it('403 when a customer reads another user', async () => {
    const token = await server.api.login('customer');
    const res = await server.api.get('/api/services/app/User/Get', { token, query: { Id: 1 } });
    expect(res.status).toBe(403);
    expect(res.body.success).toBe(false);
  });

  it('404 for an unknown id', async () => {
    const token = await server.api.login('admin');
    const res = await server.api.get('/api/services/app/User/Get', { token, query: { Id: 99999 } });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, error: { message: 'User not found.' } });
  });

  it('reads staff in the caller\'s scope only, with the one scope predicate (every brand a manager manages)', async () => {
    const { brandManagers } = await import('../../server/db/schema');
    const admin = await server.api.login('admin');
    const created = await server.api.post('/api/services/app/Branch/CreateBranchUserForBranch', {
      token: admin, body: { branchId: 2, userName: 'dune.counter', fullName: 'Dune Counter', password: 'secret1' },
    });
    expect(created.status).toBe(200);
    const duneUser = created.body.result.id as number;
    const manager = await server.api.login('brandmanager');
    const read = (id: number) => server.api.get('/api/services/app/User/Get', { token: manager, query: { Id: id } });
    expect((await read(duneUser)).status).toBe(404);
    expect((await read(5)).status).toBe(404); // a customer is nobody's staff
    await server.database.db.insert(brandManagers).values({ userId: 3, brandId: 8 });
    forgetCallerHere(3); // A change by hand: the server's process hears it from the database (migration 0055) a moment later on PostgreSQL; tell it now, as the product's own writes do.
    expect((await read(duneUser)).body.result).toMatchObject({ id: duneUser, roleNames: ['BRANCH_USER'], branchId: 2 });
    const company = await server.api.login('companyadmin');
    expect((await server.api.get('/api/services/app/User/Get', { token: company, query: { Id: duneUser } })).status).toBe(404);
    expect((await server.api.get('/api/services/app/User/Get', { token: company, query: { Id: 4 } })).status).toBe(200);
  });

  it('returns fullName, emailAddress and roleNames', async () => {
    const token = await server.api.login('brandmanager');
    const res = await server.api.get('/api/services/app/User/Get', { token, query: { Id: 3 } });
    expect(res.body.result).toMatchObject({ fullName: 'Bader Brand', emailAddress: 'brand@brewops.test', roleNames: ['BRAND_MANAGER'], brandId: 7 });
  });
});

describe('password reset by SMS', () => {
  const SEND = '/api/TokenAuth/SendPasswordResetCodeBySms';
  const RESET = '/api/TokenAuth/ResetPasswordBySmsCode';
  const latestCode = async (phone: string) => {
    const { smsOutbox } = await import('../../server/db/schema');
    const { desc, eq } = await import('drizzle-orm');
    const [row] = await server.database.db.select().from(smsOutbox).where(eq(smsOutbox.phoneNumber, phone)).orderBy(desc(smsOutbox.id)).limit(1);
    return row.code;
  };

  it('answers false for a phone nobody has, and writes no code', async () => {
    const before = await countRows(server, 'sms_outbox');
    const res = await server.api.get(SEND, { query: { phoneNumber: '+96599999999' } });
    expect(res.body.result).toBe(false);
    expect(await countRows(server, 'sms_outbox')).toBe(before);
    const reset = await server.api.post(RESET, { body: { phoneNumber: '+96599999999', code: '123456', newPassword: 'secret1' } });
    expect(reset.status).toBe(400);
    expect(reset.body.error!.message).toBe('Sorry, but user with this phone number not exist');
  });

  it('resets with the SMS code once; the code cannot be used twice', async () => {
    const res = await server.api.get(SEND, { query: { phoneNumber: '+96550000001' } });
    expect(res.body.result).toBe(true);
    const code = await latestCode('+96550000001');
    expect(code).toMatch(/^\d{6}$/);
    const ok = await server.api.post(RESET, { body: { phoneNumber: '+96550000001', code, newPassword: 'newpass1' } });
    expect(ok.status).toBe(200);
    await server.api.login('customer', 'newpass1');
    const again = await server.api.post(RESET, { body: { phoneNumber: '+96550000001', code, newPassword: 'other99' } });
    expect(again.status).toBe(400);
    // restore
    await server.api.get(SEND, { query: { phoneNumber: '+96550000001' } });
    await server.api.post(RESET, { body: { phoneNumber: '+96550000001', code: await latestCode('+96550000001'), newPassword: '123qwe' } });
  });

  it('gets 429 on the 6th wrong try', async () => {
    await server.api.get(SEND, { query: { phoneNumber: '+96550000001' } });
    const code = await latestCode('+96550000001');
    const wrong = code === '000000' ? '111111' : '000000';
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await server.api.post(RESET, { body: { phoneNumber: '+96550000001', code: wrong, newPassword: 'x123456' } })).status);
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    // even the right code is refused now
    expect((await server.api.post(RESET, { body: { phoneNumber: '+96550000001', code, newPassword: 'x123456' } })).status).toBe(429);
  });
});

describe('envelope', () => {
  it('404 for an unknown route, in the envelope', async () => {
    const res = await server.api.get('/api/services/app/Nope/Nothing');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, result: null, unAuthorizedRequest: false });
  });

  it('serves an OpenAPI document with a title on every object schema', async () => {
    const res = await server.app.inject({ url: '/api/openapi.json' });
    const doc = res.json();
    const untitled: string[] = [];
    const walk = (s: any, where: string) => {
      if (!s || typeof s !== 'object') return;
      if (s.type === 'object' && s.properties && !s.title) untitled.push(where);
      for (const [k, v] of Object.entries(s)) walk(v, `${where}.${k}`);
    };
    walk(doc.paths, 'paths');
    expect(untitled).toEqual([]);
    expect(doc.paths['/api/TokenAuth/Authenticate'].post.operationId).toBe('TokenAuth_Authenticate');
  });
});
