import { beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { buildApp } from '../../server/app';
import { users } from '../../server/db/schema';
import { countRows } from '../support/server';
import { guestOrderBody } from '../support/guestOrders';
import { insertOrder } from '../support/orders';
import { useServer } from '../support/harness';

/** Inputs that used to answer 500 (issue 7 "No 500 from any input"), each now a 400 in the envelope. */
let admin: string;
let customer: string;
const APP = '/api/services/app';

const server = useServer();
beforeAll(async () => {
  admin = await server.api.login('admin');
  customer = await server.api.login('customer');
});

/** Sends raw text, for bodies JSON.stringify cannot write (5,000 levels deep, 1e400). */
async function sendRaw(method: 'POST' | 'PUT', url: string, payload: string, token?: string, headers: Record<string, string> = {}) {
  const res = await server.app.inject({
    method, url, payload,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
  });
  return { status: res.statusCode, body: res.json() };
}

function expectBadRequest(res: { status: number; body: any }, member: string, text: RegExp) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.success).toBe(false);
  expect(res.body.error.message).toBe('Your request is not valid!');
  const v = res.body.error.validationErrors.find((e: { members: string[] }) => e.members.includes(member));
  expect(v, JSON.stringify(res.body.error.validationErrors)).toBeTruthy();
  expect(v.message).toMatch(text);
}

describe('integers past 32 bits', () => {
  it.each(['2147483648', '-2147483649', '1e23', 'Infinity', '-Infinity', '1e400', '9'.repeat(30)])(
    'Branch/GetById?branchId=%s (anonymous) → 400 naming branchId', async (branchId) => {
      const res = await server.api.get(`${APP}/Branch/GetById`, { query: { branchId } });
      expectBadRequest(res, 'branchId', /must be (<=|>=|a finite number)|must be integer/);
    });

  it('the largest int4 is still a valid id (404, not 400)', async () => {
    const res = await server.api.get(`${APP}/Branch/GetById`, { query: { branchId: 2147483647 } });
    expect(res.status).toBe(404);
  });

  it('an id past 32 bits inside an order body is a 400 and no order is written', async () => {
    const before = await countRows(server, 'orders');
    const body = guestOrderBody();
    body.products[0].productId = 2147483648;
    const res = await server.api.post(`${APP}/Store/SaveNewOrderVS1`, { token: customer, body, headers: { 'idempotency-key': randomUUID() } });
    expectBadRequest(res, 'products.0.productId', /must be <= 2147483647/);
    expect(await countRows(server, 'orders')).toBe(before);
  });

  it('an amount a numeric(12,3) cannot hold is a 400: refund amount 1e23 (body) and the delivery fee Amount=Infinity (query)', async () => {
    const order = await insertOrder(server, { payment: 'paid' });
    const before = await countRows(server, 'refund_requests');
    const refund = await sendRaw('POST', `${APP}/Refund/InitiateRefundRequest`, `{"orderId":${order.id},"amount":1e23,"reason":"x"}`, admin);
    expectBadRequest(refund, 'amount', /must be <= 999999999.999/);
    const infinite = await sendRaw('POST', `${APP}/Refund/InitiateRefundRequest`, `{"orderId":${order.id},"amount":1e400,"reason":"x"}`, admin);
    expectBadRequest(infinite, 'amount', /must be number/);
    expect(await countRows(server, 'refund_requests')).toBe(before);
    const fee = await server.api.get(`${APP}/BrandDeliveryFee/GetDeliveryFeeForOrderingCustomer`, { query: { BrandId: 7, AreaId: 1, Amount: 'Infinity' } });
    expectBadRequest(fee, 'Amount', /must be a finite number/);
  });
});

describe('NUL characters', () => {
  it('a login name with \\u0000 → 400', async () => {
    const res = await server.api.post('/api/TokenAuth/Authenticate', { body: { userNameOrEmailAddress: 'adm\u0000in', password: '123qwe' } });
    expectBadRequest(res, 'userNameOrEmailAddress', /must not contain the NUL character/);
  });

  it('a profile update with \\u0000 → 400 and nothing changes', async () => {
    const [before] = await server.database.db.select().from(users).where(eq(users.userName, 'customer'));
    const res = await server.api.put(`${APP}/Customer/UpdateCustomerDetails`, { token: customer, body: { fullName: 'Sara\u0000', gender: 'f' } });
    expectBadRequest(res, 'fullName', /must not contain the NUL character/);
    const [after] = await server.database.db.select().from(users).where(eq(users.userName, 'customer'));
    expect(after).toEqual(before);
  });

  it('Search on the staff lists with \\u0000 → 400', async () => {
    const res = await server.api.get(`${APP}/Store/GetUserOrdersAsBranchUser`, { token: admin, query: { Search: 'B1-\u0000' } });
    expectBadRequest(res, 'Search', /must not contain the NUL character/);
  });

  it('a NUL in an unknown property name is a 400 too', async () => {
    const res = await sendRaw('PUT', `${APP}/Customer/UpdateCustomerDetails`, '{"fullName":"Sara","\\u0000":1}', customer);
    expect(res.status).toBe(400);
    expect(res.body.error.validationErrors[0].message).toMatch(/NUL/);
  });
});

describe('deep nesting', () => {
  const deep = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

  it('a 5,000-deep unknown property in SaveNewOrderVS1 (with an Idempotency-Key) → 400, no order written', async () => {
    const before = await countRows(server, 'orders');
    const body = JSON.stringify(guestOrderBody()).replace(/}$/, `,"extra":${deep(5000)}}`);
    const res = await sendRaw('POST', `${APP}/Store/SaveNewOrderVS1`, body, customer, { 'idempotency-key': randomUUID() });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error.validationErrors[0].message).toMatch(/^extra(\.a)*: is nested more than 32 levels deep$/);
    expect(await countRows(server, 'orders')).toBe(before);
  });

  it('a 5,000-deep array body → 400', async () => {
    const res = await sendRaw('POST', `${APP}/Store/SaveNewOrderVS1`, `${'['.repeat(5000)}${']'.repeat(5000)}`, customer);
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
  });

  it('a real order with an Idempotency-Key still works (the depth limit is far above real input)', async () => {
    const key = randomUUID();
    const first = await server.api.post(`${APP}/Store/SaveNewOrderVS1`, { token: customer, body: guestOrderBody(), headers: { 'idempotency-key': key } });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const again = await server.api.post(`${APP}/Store/SaveNewOrderVS1`, { token: customer, body: guestOrderBody(), headers: { 'idempotency-key': key } });
    expect(again.body.result.orderId).toBe(first.body.result.orderId);
  });
});

describe('authenticate before validating', () => {
  const calls = [
    ['PUT', `${APP}/Store/UpdateOrderStatus`],
    ['POST', `${APP}/Refund/InitiateRefundRequest`],
  ] as const;
  const badBodies = [['a body of the wrong type', '"x"'], ['a body missing every field', '{}'], ['broken JSON', '{"orderId":'], ['a NUL', '{"reason":"\\u0000"}'], ['deep nesting', `${'['.repeat(100)}${']'.repeat(100)}`]] as const;

  describe.each(calls)('%s %s', (method, url) => {
    it.each(badBodies)('anonymous with %s → 401', async (_, payload) => {
      const res = await sendRaw(method, url, payload);
      expect(res.status).toBe(401);
      expect(res.body.unAuthorizedRequest).toBe(true);
    });
    it.each(badBodies)('a customer with %s → 403', async (_, payload) => {
      const res = await sendRaw(method, url, payload, customer);
      expect(res.status).toBe(403);
      expect(res.body.error.message).toBe('Required permissions are not granted.');
    });
    it('a token that is present but invalid → 401', async () => {
      const res = await sendRaw(method, url, '{}', 'not-a-token');
      expect(res.status).toBe(401);
    });
    it('staff with a bad body → 400', async () => {
      const res = await sendRaw(method, url, '{}', admin);
      expect(res.status).toBe(400);
    });
  });

  it('public calls stay public; an invalid token on them is still a 401', async () => {
    expect((await server.api.get(`${APP}/Branch/GetById`, { query: { branchId: 1 } })).status).toBe(200);
    expect((await server.api.get(`${APP}/Branch/GetById`, { query: { branchId: 1 }, token: 'not-a-token' })).status).toBe(401);
  });
});

describe('server errors are logged with a request id', () => {
  it('a 500 answers the generic message and the request id, and logs the error under that id (request logging off)', async () => {
    const lines: string[] = [];
    const { app } = await buildApp({
      db: server.database.db, jwtSecret: 'test-secret-0123456789abcdef', logger: false, spaDir: '/nonexistent',
      logStream: { write: (line: string) => { lines.push(line); } },
    });
    // A test-only route that fails the way an unexpected bug does.
    app.get('/api/test/broken', async () => { throw new Error('the database fell over (test)'); });
    try {
      const res = await app.inject({ method: 'GET', url: '/api/test/broken?ohash=secret' });
      expect(res.statusCode).toBe(500);
      const body = res.json();
      expect(body.error.message).toBe('An internal error occurred during your request!');
      expect(body.error.message).not.toMatch(/fell over/);
      const id = res.headers['x-request-id'] as string;
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(body.error.details).toBe(`Request id: ${id}`);
      const logged = lines.map((l) => JSON.parse(l)).filter((l) => l.reqId === id);
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({ level: 50, msg: 'request failed', method: 'GET', route: '/api/test/broken', err: { message: 'the database fell over (test)' } });
      // The query string (it can carry an order's ohash) is not in the log line.
      expect(JSON.stringify(logged[0])).not.toContain('secret');
      // Refusals (4xx) are not server errors and are not logged with request logging off.
      const refused = await app.inject({ method: 'GET', url: `${APP}/Branch/GetById?branchId=2147483648` });
      expect(refused.statusCode).toBe(400);
      expect(lines.map((l) => JSON.parse(l)).filter((l) => l.reqId === refused.headers['x-request-id'])).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('every answer carries its own x-request-id', async () => {
    const a = await server.app.inject({ method: 'GET', url: `${APP}/Store/GetOrderStatusTypes` });
    const b = await server.app.inject({ method: 'GET', url: `${APP}/Store/GetOrderStatusTypes`, headers: { 'x-request-id': 'forged' } });
    expect(a.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.headers['x-request-id']).not.toBe('forged');
    expect(b.headers['x-request-id']).not.toBe(a.headers['x-request-id']);
  });
});

describe('path parameters outside the REST services', () => {
  it('a NUL in the sandbox payment page reference → 400, not 500', async () => {
    for (const url of ['/payments/sandbox/%00', '/payments/sandbox/a%00b/pay']) {
      const res = await server.app.inject({ method: url.endsWith('/pay') ? 'POST' : 'GET', url });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
    }
    expect((await server.app.inject({ method: 'GET', url: '/payments/sandbox/unknown-ref' })).statusCode).toBe(404);
  });
});
