import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { DataDirBusyError, LOCK_FILE, lockDataDir } from '../../server/dataDir';
import { rowsOf } from '../../server/db/client';
import { DEMO_ACCOUNTS } from '../../server/db/seed';
import { DEMO_SCAN_CUSTOMERS } from '../../server/db/demoScans';
import { startServer, type RunningServer } from '../../server/start';
import { exitOf, killLeftovers, openToOthers, seededDataDir, spawnMain, reachable, startMain, startSlowLogin, tempDataDir, until } from '../support/mainProcess';
import { freshPostgresDatabase, startTestServer } from '../support/server';

/**
 * The server as a process (app/main.ts): one process per embedded DATA_DIR, owner-only data
 * files, a clean stop on SIGTERM/SIGINT; and replicas starting together on one empty PostgreSQL.
 */
afterEach(killLeftovers);
const pgUrl = process.env.TEST_DATABASE_URL;
const hasMesh = existsSync('.mesh/index.ts');

describe.skipIf(!!pgUrl)('one server per embedded DATA_DIR (PGlite; on PostgreSQL replicas share the database)', () => {
  it('refuses a second server at once and touches nothing; a killed holder does not block the next start; SIGINT stops cleanly; old files become owner-only', async () => {
    const dataDir = await seededDataDir();
    // Written by PGlite as an older server would have left it: files open to everyone.
    expect(openToOthers(dataDir).length).toBeGreaterThan(100);

    const first = await startMain({ DATA_DIR: dataDir, GATEWAY: 'off' });
    const before = snapshot(dataDir);
    const second = spawnMain({ DATA_DIR: dataDir, GATEWAY: 'off' });
    const refused = await exitOf(second, 60_000);
    console.log(`second server refused in ${refused.ms} ms`);
    expect(refused).toMatchObject({ exited: true, code: 1 });
    expect(second.output()).toContain(`DATA_DIR ${dataDir} is in use by another Brew Ops server (pid ${first.pid}`);
    expect(second.output()).not.toContain('is ready');
    expect(snapshot(dataDir)).toEqual(before);
    expect((await fetch(`${first.url}/api/openapi.json`)).status).toBe(200);

    first.child.kill('SIGKILL');
    expect((await exitOf(first, 10_000)).signal).toBe('SIGKILL');
    expect(existsSync(path.join(dataDir, LOCK_FILE))).toBe(true);
    const third = await startMain({ DATA_DIR: dataDir, GATEWAY: 'off' });
    expect((await fetch(`${third.url}/api/openapi.json`)).status).toBe(200);
    // Ctrl-C: SIGINT stops it like SIGTERM (the SIGTERM test below has the live feed and a request in flight).
    third.child.kill('SIGINT');
    expect(await exitOf(third, 30_000)).toMatchObject({ exited: true, code: 0 });
    expect(third.output()).toMatch(/SIGINT: stopping Brew Ops[\s\S]*Brew Ops stopped in \d+ ms/);
    expect(pgliteState(dataDir)).toBe('shut down');
    expect(existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);
    expect(openToOthers(dataDir)).toEqual([]);
  }, 400_000);
});

describe.skipIf(!existsSync('/proc/self/stat'))('the DATA_DIR lock file (Linux /proc)', () => {
  const lockFile = (dir: string) => path.join(dir, LOCK_FILE);
  const bootId = () => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  const startTime = (pid: number) => { const s = readFileSync(`/proc/${pid}/stat`, 'utf8'); return s.slice(s.lastIndexOf(')') + 2).split(' ')[19]; };
  // A live process that is not this one: the test runner's parent.
  const live = process.ppid;
  const lockOf = (fields: Record<string, unknown>) => JSON.stringify({ pid: live, startTime: startTime(live), bootId: bootId(), host: 'here', token: 'theirs', since: 'earlier', ...fields });

  it('refuses while its holder runs, and leaves the lock alone', () => {
    const dir = tempDataDir();
    writeFileSync(lockFile(dir), lockOf({}));
    expect(() => lockDataDir(dir)).toThrow(DataDirBusyError);
    expect(readFileSync(lockFile(dir), 'utf8')).toBe(lockOf({}));
    expect(readdirSync(dir)).toEqual([LOCK_FILE]);
  });

  it.each([
    ['its pid now names another process (another start time)', { startTime: '1' }],
    ['it was written before the machine rebooted', { bootId: '00000000-0000-0000-0000-000000000000' }],
    ['its pid is gone', { pid: 2 ** 22 + 1 }],
    ['it is not a lock file we can read', null],
  ])('takes over a lock when %s', (_, fields) => {
    const dir = tempDataDir();
    writeFileSync(lockFile(dir), fields ? lockOf(fields) : 'garbage');
    const lock = lockDataDir(dir);
    expect(JSON.parse(readFileSync(lockFile(dir), 'utf8'))).toMatchObject({ pid: process.pid, token: lock.holder.token });
    lock.release();
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('SIGTERM', () => {
  const env = { DATA_DIR: tempDataDir(), ...(hasMesh ? {} : { GATEWAY: 'off' as const }) } as { DATA_DIR: string; DATABASE_URL?: string; GATEWAY?: 'off' };

  it('SIGTERM: no new requests, the request in flight finishes, the live feed ends, the database is closed, exit 0; data files are owner-only', async () => {
    if (pgUrl) env.DATABASE_URL = await freshPostgresDatabase(pgUrl);
    // An empty DATA_DIR: this start runs initdb and seeds, so every file is the server's own.
    const server = await startMain(env);
    const token = await login(server.url);
    const feed = hasMesh ? await openFeed(server.url, token) : null;
    if (!hasMesh) console.log('no built mesh (.mesh/): the live-feed part is left out; run the build first');
    const inFlight = await startSlowLogin(server.url);

    const t0 = Date.now();
    server.child.kill('SIGTERM');
    // Stops taking requests: new connections are refused while the request in flight still runs.
    expect(await until(async () => !(await reachable(server.url)), 10_000)).toBe(true);
    if (feed) expect(await within(feed.ended, 15_000)).toMatchObject({ complete: true });
    console.log(`port closed${feed ? ' and live feed ended' : ''} ${Date.now() - t0} ms after SIGTERM`);
    const answer = await within(inFlight.finish(), 15_000);
    expect(answer).toMatchObject({ status: 200 });
    expect((answer as { body: any }).body.result.accessToken).toEqual(expect.any(String));

    const exit = await exitOf(server, 15_000);
    console.log(`exited with ${exit.code} ${Date.now() - t0} ms after SIGTERM`);
    expect(exit).toMatchObject({ exited: true, code: 0 });
    expect(server.output()).toMatch(/Brew Ops stopped in \d+ ms/);
    if (!pgUrl) {
      expect(pgliteState(env.DATA_DIR)).toBe('shut down');
      expect(existsSync(path.join(env.DATA_DIR, LOCK_FILE))).toBe(false);
    }
    expect(openToOthers(env.DATA_DIR)).toEqual([]);
  }, 300_000);
});

describe('SIGTERM to npm', () => {
  it('reaches the server through `npm run serve` (a supervisor stopping npm), which stops cleanly', async () => {
    const env = { DATA_DIR: pgUrl ? tempDataDir() : await seededDataDir(), GATEWAY: 'off' as const, ...(pgUrl ? { DATABASE_URL: await freshPostgresDatabase(pgUrl) } : {}) };
    const npm = await startMain(env, 120_000, { viaNpm: true });
    npm.child.kill('SIGTERM');
    const exit = await exitOf(npm, 15_000);
    expect(npm.output()).toMatch(/Brew Ops stopped in \d+ ms/);
    expect(exit).toMatchObject({ exited: true, code: 0 });
    expect(await reachable(npm.url)).toBe(false);
    if (!pgUrl) expect(pgliteState(env.DATA_DIR)).toBe('shut down');
  }, 300_000);
});

describe('close() with a request that never finishes', () => {
  it('cuts its connection after the drain time and still closes the database', async () => {
    const server = await startTestServer({ port: 0, drainMs: 1000 });
    const stuck = await startSlowLogin(server.url);
    const t0 = Date.now();
    await server.close();
    const ms = Date.now() - t0;
    console.log(`close() returned after ${ms} ms`);
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(await stuck.closed).toBe(true);
    const client = server.database.client as { closed?: boolean; ended?: boolean };
    expect(server.database.kind === 'pglite' ? client.closed : client.ended).toBe(true);
  }, 60_000);
});

describe.skipIf(!pgUrl)('replicas starting together on an empty PostgreSQL', () => {
  const servers: RunningServer[] = [];
  afterAll(async () => { await Promise.all(servers.map((s) => s.close())); });

  it('4 at once: every one starts, and the demo data is written once', async () => {
    const databaseUrl = await freshPostgresDatabase(pgUrl!);
    const t0 = Date.now();
    const results = await Promise.allSettled(Array.from({ length: 4 }, () =>
      startServer({ databaseUrl, jwtSecret: 'test-secret-0123456789abcdef', gateway: false, spaDir: '/nonexistent', firestore: null })));
    for (const r of results) if (r.status === 'fulfilled') servers.push(r.value);
    console.log(`4 replicas started in ${Date.now() - t0} ms`);
    expect(results.map((r) => r.status === 'rejected' ? String(r.reason) : 'running')).toEqual(['running', 'running', 'running', 'running']);
    const count = async (table: string) => rowsOf<{ n: number }>(await servers[0].database.db.execute(sql.raw(`select count(*)::int as n from ${table}`)))[0].n;
    // the demo accounts, the guest and the demo reward card customers
    expect(await count('users')).toBe(DEMO_ACCOUNTS.length + 1 + DEMO_SCAN_CUSTOMERS.length);
    expect(await count('reward_card_scans')).toBeGreaterThan(200);
    expect(await count('companies')).toBe(2);
    for (const s of servers) expect((await s.app.inject({ method: 'GET', url: '/api/openapi.json' })).statusCode).toBe(200);
  }, 120_000);
});

/** Every file under `dir` with its size, time and mode: to prove a refused server changed nothing. */
function snapshot(dir: string) {
  const out: Record<string, string> = {};
  const walk = (p: string) => {
    const s = statSync(p);
    out[path.relative(dir, p) || '.'] = `${s.size} ${s.mtimeMs} ${(s.mode & 0o777).toString(8)}`;
    if (s.isDirectory()) for (const name of readdirSync(p)) walk(path.join(p, name));
  };
  walk(dir);
  return out;
}

/** PGlite's pg_control state: 'shut down' only after a clean close (a killed one stays 'in production'). */
function pgliteState(dataDir: string) {
  const state = readFileSync(path.join(dataDir, 'pglite/global/pg_control')).readUInt32LE(16);
  return ({ 1: 'shut down', 6: 'in production' } as Record<number, string>)[state] ?? `state ${state}`;
}

async function login(url: string) {
  const res = await fetch(`${url}/api/TokenAuth/Authenticate`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ userNameOrEmailAddress: 'admin', password: '123qwe' }),
  });
  return ((await res.json()) as { result: { accessToken: string } }).result.accessToken;
}

/** The promise's value, or 'timed out' after `ms`, so a test fails instead of hanging. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | 'timed out'> {
  return Promise.race([promise, new Promise<'timed out'>((r) => setTimeout(() => r('timed out'), ms))]);
}

/** The console's live feed: the gateway's orderEvents subscription over SSE. Resolves `ended` when the stream ends. */
async function openFeed(url: string, token: string) {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: 'subscription { orderEvents { orderId } }' }),
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const reader = res.body!.getReader();
  const ended = (async () => {
    let text = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
    } catch (err) {
      return { complete: false, error: String(err) };
    }
    return { complete: /^event: complete$/m.test(text) };
  })();
  return { ended };
}
