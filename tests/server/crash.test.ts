import { afterEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { rowsOf } from '../../server/db/client';
import { guestOrderBody } from '../support/guestOrders';
import { exitOf, killLeftovers, seededDataDir, startMain, tempDataDir } from '../support/mainProcess';
import { freshPostgresDatabase } from '../support/server';

/**
 * The kill -9 guarantee: an order answered 200 survives the server process being killed, and no
 * order id is ever handed out twice. A stream of guest orders runs against a real server process;
 * it is killed with SIGKILL mid-stream, restarted on the same data, a few times over; then every
 * acknowledged order is looked up in the database. PGlite on a DATA_DIR, or PostgreSQL when
 * TEST_DATABASE_URL is set.
 */
const CYCLES = 3;
/** Orders acknowledged in a cycle before the kill (the kill lands while others are in flight). */
const ACKS_BEFORE_KILL = 12;
const WORKERS = 4;

afterEach(killLeftovers);
interface Ack { id: number; total: number; cycle: number }

describe('kill -9 while orders stream in', () => {
  it(`keeps every acknowledged order and never reuses an id (${CYCLES} cycles)`, async () => {
    const t0 = Date.now();
    const pgUrl = process.env.TEST_DATABASE_URL;
    const env = pgUrl
      ? { DATA_DIR: tempDataDir(), DATABASE_URL: await freshPostgresDatabase(pgUrl), GATEWAY: 'off' as const }
      : { DATA_DIR: await seededDataDir(), GATEWAY: 'off' as const };
    const acks: Ack[] = [];
    let refusals = 0;
    let guestToken: string | null = null;

    for (let cycle = 1; cycle <= CYCLES; cycle++) {
      const server = await startMain(env);
      guestToken ??= await guestTokenOf(server.url);
      const before = acks.length;
      const maxBefore = Math.max(0, ...acks.map((a) => a.id));
      let stop = false;
      const worker = async () => {
        while (!stop) {
          try {
            const res = await fetch(`${server.url}/api/services/app/Store/SaveNewOrderVS1`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', authorization: `Bearer ${guestToken}`, 'idempotency-key': randomUUID() },
              body: JSON.stringify(guestOrderBody({ name: `Crash ${cycle}` })),
            });
            const body = await res.json() as { result?: { orderId: number; total: number; isSuccessed: boolean } };
            if (res.status === 200 && body.result?.isSuccessed) acks.push({ id: body.result.orderId, total: body.result.total, cycle });
            else refusals++;
          } catch {
            return; // the connection died with the process: not acknowledged
          }
        }
      };
      const workers = Array.from({ length: WORKERS }, worker);
      await until(() => acks.length - before >= ACKS_BEFORE_KILL || server.child.exitCode !== null, 120_000);
      server.child.kill('SIGKILL');
      stop = true;
      await Promise.all(workers);
      expect((await exitOf(server, 10_000)).signal).toBe('SIGKILL');
      const mine = acks.filter((a) => a.cycle === cycle);
      console.log(`cycle ${cycle}: ${mine.length} orders acknowledged, ids ${Math.min(...mine.map((a) => a.id))}..${Math.max(...mine.map((a) => a.id))}, killed with SIGKILL`);
      expect(mine.length).toBeGreaterThanOrEqual(ACKS_BEFORE_KILL);
      // After a crash, new ids start above every id acknowledged before it.
      expect(mine.every((a) => a.id > maxBefore)).toBe(true);
    }

    // Read the data as the last crash left it (PGlite recovers it on opening).
    const stored = await storedOrders(env, acks.map((a) => a.id));

    const ids = acks.map((a) => a.id);
    expect(new Set(ids).size).toBe(ids.length);
    const missing = acks.filter((a) => !stored.has(a.id));
    const wrongTotal = acks.filter((a) => stored.has(a.id) && Number(stored.get(a.id)) !== a.total);
    console.log(`${CYCLES} cycles on ${pgUrl ? 'PostgreSQL' : 'PGlite'}: ${acks.length} orders acknowledged (${refusals} refused), ${missing.length} missing, ${wrongTotal.length} with another total, in ${Date.now() - t0} ms`);
    expect(refusals).toBe(0);
    expect(missing).toEqual([]);
    expect(wrongTotal).toEqual([]);
  }, 600_000);
});

async function guestTokenOf(url: string) {
  const res = await fetch(`${url}/api/TokenAuth/Authenticate`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ asGuest: true }),
  });
  return ((await res.json()) as { result: { accessToken: string } }).result.accessToken;
}

async function until(done: () => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
}

/** id → total of the given orders, read straight from the database the server used. */
async function storedOrders(env: { DATA_DIR: string; DATABASE_URL?: string }, ids: number[]): Promise<Map<number, string>> {
  const query = 'select id, total::text as total from orders where id = any($1::int[])';
  if (env.DATABASE_URL) {
    const pg = (await import('pg')).default;
    const client = new pg.Client({ connectionString: env.DATABASE_URL });
    await client.connect();
    try {
      return new Map((await client.query(query, [ids])).rows.map((r) => [r.id, r.total]));
    } finally {
      await client.end();
    }
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create(path.join(env.DATA_DIR, 'pglite'));
  try {
    return new Map(rowsOf<{ id: number; total: string }>(await db.query(query, [ids])).map((r) => [r.id, r.total]));
  } finally {
    await db.close();
  }
}
