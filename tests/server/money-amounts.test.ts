import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { callerTokens, type Who } from '../support/adminMatrix';
import { useServer } from '../support/harness';
import * as t from '../../server/db/schema';
import type { Db } from '../../server/db/client';
import { rowsOf } from '../../server/db/client';
import { ledgerMismatches } from '../../server/loyalty/ledger';
import { LOYALTY_CEILINGS } from '../../domain/money';

/**
 * Amounts (issue 20): money and count fields take JSON numbers only (3 decimals for money, whole
 * counts), every other value is a 400 naming the field with nothing written; each grant and each
 * balance has a ceiling (domain/money.ts LOYALTY_CEILINGS), a 400 and never a 500; an idempotency
 * key used again for another amount is a 422 with nothing written. Runs on PGlite, and on
 * PostgreSQL with TEST_DATABASE_URL (the parallel cases are real concurrency there).
 */
let tokens: Record<Who, string | undefined>;
const db = () => server.database.db as unknown as Db;
const API = '/api/services/app/Customer';

let phone = 0;
async function customer() {
  const [u] = await db().insert(t.users).values({
    userName: `amounts${++phone}`, fullName: `Amounts Customer ${phone}`, role: 'CUSTOMER', phoneNumber: `+9658${String(phone).padStart(7, '0')}`, passwordHash: '!',
  }).returning();
  await db().insert(t.customerWallets).values({ userId: u.id, brandId: 7 });
  return u.id;
}
async function wallet(userId: number) {
  const [w] = await db().select().from(t.customerWallets).where(and(eq(t.customerWallets.userId, userId), eq(t.customerWallets.brandId, 7)));
  return { wallet: Number(w.balance), credit: Number(w.credit), points: w.points, punches: w.punches, freeItems: w.freeItems };
}
async function written() {
  const n = async (table: string) => rowsOf<{ n: number }>(await db().execute(sql.raw(`select count(*)::int as n from ${table}`)))[0].n;
  return { ledger: await n('wallet_ledger'), requests: await n('customer_requests') };
}
/** Sends the body as JSON text as given, so values JSON.stringify cannot write (1e309) are sent too. */
async function send(who: Who, method: 'PUT' | 'POST', call: string, json: string) {
  const res = await server.app.inject({
    method, url: `${API}/${call}`, payload: json,
    headers: { 'content-type': 'application/json', ...(tokens[who] ? { authorization: `Bearer ${tokens[who]}` } : {}) },
  });
  return { status: res.statusCode, body: res.json() };
}
const put = (who: Who, call: string, body: Record<string, unknown>) => send(who, 'PUT', call, JSON.stringify(body));

const server = useServer();
beforeAll(async () => {
  tokens = await callerTokens(server);
}, 120_000);

type Kind = 'money' | 'count';
interface Field { call: string; method: 'PUT' | 'POST'; field: string; kind: Kind; base: Record<string, unknown>; max: number }
const W = LOYALTY_CEILINGS.wallet;
const P = LOYALTY_CEILINGS.punches;
/** Every adjustment and request amount field, with the largest value it takes. */
const FIELDS: Field[] = [
  { call: 'UpdateCustomerWalletBalance', method: 'PUT', field: 'balance', kind: 'money', base: {}, max: W.balance },
  { call: 'UpdateCustomerWalletBalanceByCompanyManager', method: 'PUT', field: 'balance', kind: 'money', base: {}, max: W.balance },
  { call: 'UpdateCustomerCreditBalanceByCompanyManager', method: 'PUT', field: 'balance', kind: 'money', base: {}, max: W.balance },
  { call: 'UpdateCustomerCreditWalletBalance', method: 'PUT', field: 'balance', kind: 'money', base: {}, max: W.balance },
  { call: 'UpdateDepositWalletByid', method: 'PUT', field: 'amount', kind: 'money', base: {}, max: W.grant },
  { call: 'UpdateCreditDepositWalletByid', method: 'PUT', field: 'amount', kind: 'money', base: {}, max: W.grant },
  { call: 'UpdateCustomerFreeItemsAndPunches', method: 'PUT', field: 'punches', kind: 'count', base: { freeItems: 0 }, max: P.balance },
  { call: 'UpdateCustomerFreeItemsAndPunches', method: 'PUT', field: 'freeItems', kind: 'count', base: { punches: 0 }, max: LOYALTY_CEILINGS.freeItems.balance },
  { call: 'InsertCustomerBalanceRequest', method: 'POST', field: 'amount', kind: 'money', base: { account: 'wallet' }, max: W.grant },
  { call: 'InsertUserPunchesInfoDetail', method: 'POST', field: 'amount', kind: 'count', base: { account: 'punches' }, max: Math.max(P.grant, LOYALTY_CEILINGS.points.grant) },
];
/** JSON texts that are not an amount. */
const BAD: { label: string; json: string; only?: Kind }[] = [
  { label: 'null', json: 'null' }, { label: 'true', json: 'true' }, { label: 'false', json: 'false' },
  { label: '"250"', json: '"250"' }, { label: '""', json: '""' }, { label: '"1.5"', json: '"1.5"' }, { label: '"NaN"', json: '"NaN"' },
  { label: '"Infinity"', json: '"Infinity"' }, { label: '"1e3"', json: '"1e3"' }, { label: '[]', json: '[]' }, { label: '[5]', json: '[5]' },
  { label: '{}', json: '{}' }, { label: '-1', json: '-1' }, { label: '-0.001', json: '-0.001' }, { label: '1e309', json: '1e309' },
  { label: '-1e309', json: '-1e309' }, { label: '1.0001', json: '1.0001' }, { label: '0.0005', json: '0.0005' },
  { label: '1.5 (a count)', json: '1.5', only: 'count' },
];

describe('amounts are JSON numbers, nothing else', () => {
  it('every bad value of every amount field is a 400 naming the field, and nothing is written', async () => {
    const userId = await customer();
    const before = { ...(await written()), wallet: await wallet(userId) };
    const failures: string[] = [];
    for (const f of FIELDS) {
      const cases = [...BAD.filter((b) => !b.only || b.only === f.kind), { label: 'above the maximum', json: String(f.kind === 'money' ? f.max + 0.001 : f.max + 1) }];
      for (const bad of cases) {
        const body = JSON.stringify({ customerId: userId, brandId: 7, reason: 'Matrix', ...f.base, [f.field]: '__VALUE__' }).replace('"__VALUE__"', bad.json);
        const r = await send('admin', f.method, f.call, body);
        const members = (r.body.error?.validationErrors ?? []).flatMap((v: { members: string[] }) => v.members);
        if (r.status !== 400 || !members.includes(f.field)) failures.push(`${f.call}.${f.field} = ${bad.label}: ${r.status} ${JSON.stringify(members)}`);
      }
    }
    expect(failures).toEqual([]);
    expect({ ...(await written()), wallet: await wallet(userId) }).toEqual(before);
  }, 120_000);

  it('good values still go through: 3 decimals of money (0.043 KD included), whole counts, 1.0 as 1', async () => {
    const userId = await customer();
    const r = await put('admin', 'UpdateDepositWalletByid', { customerId: userId, brandId: 7, amount: 0.043, reason: 'Change' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const c = await send('admin', 'PUT', 'UpdateCustomerFreeItemsAndPunches', `{"customerId":${userId},"brandId":7,"punches":2.0,"freeItems":1,"reason":"x"}`);
    expect(c.status, JSON.stringify(c.body)).toBe(200);
    expect(await wallet(userId)).toMatchObject({ wallet: 0.043, punches: 2, freeItems: 1 });
  });
});

describe('ceilings', () => {
  it('one grant above its ceiling, a set that grants more than it, and a balance past its ceiling are 400s naming the field', async () => {
    const userId = await customer();
    const grant = await put('admin', 'UpdateDepositWalletByid', { customerId: userId, brandId: 7, amount: W.grant + 0.001, reason: 'Too much' });
    expect(grant.status).toBe(400);
    const setJump = await put('admin', 'UpdateCustomerWalletBalance', { customerId: userId, brandId: 7, balance: W.grant + 1, reason: 'Too much at once' });
    expect(setJump.status).toBe(400);
    expect(setJump.body.error.validationErrors[0].members).toEqual(['balance']);
    for (let i = 0; i < W.balance / W.grant; i++) {
      expect((await put('admin', 'UpdateDepositWalletByid', { customerId: userId, brandId: 7, amount: W.grant, reason: `Top up ${i}` })).status).toBe(200);
    }
    const over = await put('admin', 'UpdateDepositWalletByid', { customerId: userId, brandId: 7, amount: 0.001, reason: 'One fils more' });
    expect(over.status).toBe(400);
    expect(over.body.error.validationErrors[0].members).toEqual(['amount']);
    expect(over.body.error.message).toContain('10000.000 KD');
    expect((await wallet(userId)).wallet).toBe(W.balance);
    expect(await ledgerMismatches(db())).toEqual([]);
  }, 60_000);

  it('an approved request that would pass the balance ceiling is a 400 and pays nothing', async () => {
    const userId = await customer();
    await db().insert(t.walletLedger).values({ userId, brandId: 7, account: 'wallet', amount: String(W.balance - 1), reason: 'Opening', referenceType: 'opening', idempotencyKey: `opening:amounts:${userId}` });
    await db().update(t.customerWallets).set({ balance: String(W.balance - 1) }).where(and(eq(t.customerWallets.userId, userId), eq(t.customerWallets.brandId, 7)));
    const asked = await send('brandmanager', 'POST', 'InsertCustomerBalanceRequest', JSON.stringify({ customerId: userId, brandId: 7, account: 'wallet', amount: 2, reason: 'Refund in cash' }));
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    const approved = await put('companyadmin', 'ApproveCustomerBalanceRequest', { id: asked.body.result.id });
    expect(approved.status, JSON.stringify(approved.body)).toBe(400);
    expect((await wallet(userId)).wallet).toBe(W.balance - 1);
  });

  it('40 parallel deposits of a grant each: the balance stops at its ceiling, the rest are 400s, the ledger sums to the balance', async () => {
    const userId = await customer();
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) =>
      put('admin', 'UpdateDepositWalletByid', { customerId: userId, brandId: 7, amount: W.grant, reason: `Parallel ${i}` })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(W.balance / W.grant);
    expect(statuses.filter((s) => s !== 200 && s !== 400)).toEqual([]);
    expect((await wallet(userId)).wallet).toBe(W.balance);
    expect(await ledgerMismatches(db())).toEqual([]);
  }, 60_000);
});

describe('an idempotency key is one change', () => {
  const deposit = (userId: number, amount: number, key: string) =>
    put('admin', 'UpdateDepositWalletByid', { customerId: userId, brandId: 7, amount, reason: 'Keyed', idempotencyKey: key });

  it('the same key and amount again is 200 applied:false; another amount is a 422 that writes nothing', async () => {
    const userId = await customer();
    expect((await deposit(userId, 5, 'k1')).body.result).toMatchObject({ applied: true, balance: 5 });
    expect((await deposit(userId, 5, 'k1')).body.result).toMatchObject({ applied: false, balance: 5 });
    const before = await written();
    const other = await deposit(userId, 6, 'k1');
    expect(other.status).toBe(422);
    expect(other.body.error.message).toContain('idempotency key');
    expect(await written()).toEqual(before);
    expect((await wallet(userId)).wallet).toBe(5);

    // A set call: the wanted balance is what the key stands for, not the difference written.
    const set = (balance: number) => put('admin', 'UpdateCustomerCreditWalletBalance', { customerId: userId, brandId: 7, balance, reason: 'Keyed', idempotencyKey: 's1' });
    expect((await set(10)).body.result).toMatchObject({ applied: true, balance: 10 });
    expect((await set(10)).body.result).toMatchObject({ applied: false });
    expect((await set(20)).status).toBe(422);
    expect((await wallet(userId)).credit).toBe(10);

    // Punches and free items are one call: a retry is the whole call or a 422, never half of it.
    const pair = (punches: number, freeItems: number) => put('admin', 'UpdateCustomerFreeItemsAndPunches', { customerId: userId, brandId: 7, punches, freeItems, reason: 'Keyed', idempotencyKey: 'p1' });
    expect((await pair(3, 0)).status).toBe(200);
    expect((await pair(3, 2)).status).toBe(422);
    expect((await pair(3, 0)).status).toBe(200);
    expect(await wallet(userId)).toMatchObject({ punches: 3, freeItems: 0 });
    expect(await ledgerMismatches(db())).toEqual([]);
  });

  it('20 parallel replays of one key with mixed amounts: exactly one applies; the others are applied:false (same amount) or 422', async () => {
    const userId = await customer();
    const amounts = Array.from({ length: 20 }, (_, i) => (i % 2 ? 7 : 5));
    const results = await Promise.all(amounts.map((amount) => deposit(userId, amount, 'race')));
    const applied = results.filter((r) => r.status === 200 && r.body.result.applied);
    expect(applied).toHaveLength(1);
    const winner = amounts[results.indexOf(applied[0])];
    results.forEach((r, i) => {
      if (r === applied[0]) return;
      if (amounts[i] === winner) expect(r.body.result).toMatchObject({ applied: false, balance: winner });
      else expect(r.status).toBe(422);
    });
    expect((await wallet(userId)).wallet).toBe(winner);
    const rows = await db().select().from(t.walletLedger).where(eq(t.walletLedger.userId, userId));
    expect(rows).toHaveLength(1);
    expect(await ledgerMismatches(db())).toEqual([]);
  }, 60_000);
});
