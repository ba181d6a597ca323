import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { useSecondProcess } from '../support/mainProcess';
import { guestOrderBody } from '../support/guestOrders';
import { insertOrder } from '../support/orders';
import * as t from '../../server/db/schema';
import { LISTEN_APPLICATION_NAME } from '../../server/db/listen';

/**
 * Issue 26, "Everything else that a process keeps": nothing a user sees depends on which process
 * served them. Each test runs two real server processes on one PostgreSQL database
 * (useSecondProcess: A in this test process, B a child process) and checks one thing a process
 * could have kept to itself (docs/deploy.md, "What each process keeps"). Skipped without
 * TEST_DATABASE_URL (PGlite is one process by construction).
 */
const pgUrl = process.env.TEST_DATABASE_URL;
const APP = '/api/services/app';
const SAVE = `${APP}/Store/SaveNewOrderVS1`;
const AUTH = '/api/TokenAuth/Authenticate';
const STAT = `${APP}/Statistic`;

type Api = { post: (url: string, opts?: any) => Promise<{ status: number; body: any }>; guestToken(): Promise<string> };
/** A guest's pick-up order of one product 1 (branch 1, cash): its total as charged. */
async function orderTotal(api: Api) {
  const res = await api.post(SAVE, { token: await api.guestToken(), body: guestOrderBody(), headers: { 'idempotency-key': randomUUID() } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return Number(res.body.result.total);
}

describe.skipIf(!pgUrl)('two server processes on one PostgreSQL database see the same things', () => {
  it('a price changed through process A is charged by process B on the next order (B\'s menu cache was warm)', async () => {
    await useSecondProcess(pgUrl!, async ({ a, b }) => {
      const before = await orderTotal(b.api);
      expect(await orderTotal(b.api)).toBe(before); // B's catalog of branch 1 is cached now
      const [product] = await a.database.db.select().from(t.products).where(eq(t.products.id, 1));
      const price = Number(product.price) + 1;
      const manager = await a.api.login('brandmanager');
      const changed = await a.api.put(`${APP}/Products/UpdateProduct`, { token: manager, body: { id: 1, price } });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      expect(await orderTotal(b.api)).toBe(before + 1);
      expect(await orderTotal(a.api)).toBe(before + 1);
      // Each process follows the order events and the callers' changes on ONE listening connection (server/db/listen.ts).
      const listeners = await a.database.db.execute(sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and application_name = ${LISTEN_APPLICATION_NAME}`) as unknown as { rows: { n: number }[] };
      expect(listeners.rows[0].n, 'listening connections of the two processes').toBe(2);
    });
  }, 180_000);

  it('a login limit is counted across both: an account\'s 5 failures split between A and B lock it on both', async () => {
    await useSecondProcess(pgUrl!, async ({ a, b }) => {
      const login = (api: Api, password: string) => api.post(AUTH, { body: { userNameOrEmailAddress: 'companyadmin', password } });
      for (let i = 0; i < 3; i++) expect((await login(a.api, `guess-a${i}`)).status).toBe(400);
      for (let i = 0; i < 2; i++) expect((await login(b.api, `guess-b${i}`)).status).toBe(400);
      expect((await login(a.api, '123qwe')).status).toBe(429);
      expect((await login(b.api, '123qwe')).status).toBe(429);
    });
  }, 180_000);

  it('the statistics refresh run by both processes at once counts each order once', async () => {
    await useSecondProcess(pgUrl!, async ({ a, b }) => {
      const admin = { a: await a.api.login('admin'), b: await b.api.login('admin') };
      const ordersNow = async () => Number((await a.database.db.execute<{ n: number }>(sql`select count(*)::int as n from orders`) as unknown as { rows: { n: number }[] }).rows[0].n);
      const general = async (api: typeof a.api, token: string) => {
        const res = await api.get(`${STAT}/GetGeneralStatistic`, { token });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return res.body.result.orders as number;
      };
      expect(await general(a.api, admin.a)).toBe(await ordersNow()); // built
      for (let round = 0; round < 3; round++) {
        for (let i = 0; i < 10; i++) await insertOrder(a, { status: i % 2 ? 'pending' : 'accepted' });
        const expected = await ordersNow();
        // Both processes refresh at the same moment, twice each.
        const answers = await Promise.all([general(a.api, admin.a), general(b.api, admin.b), general(a.api, admin.a), general(b.api, admin.b)]);
        expect(answers, `round ${round}`).toEqual([expected, expected, expected, expected]);
        const [{ n }] = (await a.database.db.execute(sql`select coalesce(sum(orders), 0)::int as n from order_daily_stats`) as unknown as { rows: { n: number }[] }).rows;
        expect(n, 'the daily rows hold each order once').toBe(expected);
      }
    });
  }, 180_000);

  it('the acceptance deadline run by both processes\' job runners rejects each late order once (one lifecycle step, one notice)', async () => {
    const LATE = 120;
    await useSecondProcess(pgUrl!, async ({ a }) => {
      const db = a.database.db;
      // Late already: placed an hour ago, pending; both runners reach them in the same rounds.
      const placed = new Date(Date.now() - 3_600_000);
      const ids: number[] = [];
      for (let i = 0; i < LATE; i++) ids.push((await insertOrder(a, { status: 'pending', createdAt: placed })).id);
      const pendingLeft = async () => Number((await db.execute(sql`select count(*)::int as n from orders where status = 'pending'`) as unknown as { rows: { n: number }[] }).rows[0].n);
      for (const t0 = Date.now(); (await pendingLeft()) > 0 && Date.now() - t0 < 60_000;) await new Promise((r) => setTimeout(r, 200));
      expect(await pendingLeft()).toBe(0);
      await new Promise((r) => setTimeout(r, 1_500)); // a round still running elsewhere finishes
      const steps = (await db.execute(sql`select order_id, count(*)::int as n from order_events where type = 'order.changed' group by order_id having count(*) <> 1`) as unknown as { rows: unknown[] }).rows;
      expect(steps, 'orders rejected more than once').toEqual([]);
      const rows = await db.select({ version: t.orders.version, status: t.orders.status }).from(t.orders).where(sql`${t.orders.id} in ${ids}`);
      expect(rows.filter((r) => r.status !== 'rejected' || r.version !== 1)).toEqual([]);
      const notices = (await db.execute(sql`select count(*)::int as n from notifications where order_status = 'rejected'`) as unknown as { rows: { n: number }[] }).rows[0].n;
      expect(Number(notices)).toBe(LATE);
    }, { a: { timedWork: { deadlineMs: 1_000, everyMs: 1_000 } }, b: { acceptDeadlineSeconds: 1 } });
  }, 180_000);
});
