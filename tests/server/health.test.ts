import { afterEach, describe, expect, it } from 'vitest';
import { useServer } from '../support/harness';
import { startTestServer } from '../support/server';
import { freshPostgresDatabase } from '../support/pgDatabase';
import { exitOf, killLeftovers, reachable, seededDataDir, startMain, startSlowLogin, tempDataDir, until } from '../support/mainProcess';

/**
 * /healthz and /readyz for load balancers and supervisors (issue 26 "Health"), and SIGTERM's
 * drain as a load balancer sees it. (tests/server/process.test.ts has the rest of the stop: the
 * live feed ends, the database is closed, the data files.)
 */
const pgUrl = process.env.TEST_DATABASE_URL;
afterEach(killLeftovers);

describe('/healthz and /readyz', () => {
  const server = useServer();

  it('answer 200 without a token, outside the ABP envelope and the OpenAPI document, never cached', async () => {
    for (const url of ['/healthz', '/readyz']) {
      const res = await server.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.json()).toEqual({ status: 'ok' });
      expect(res.headers['cache-control']).toBe('no-store');
    }
    const doc = (await server.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).filter((p) => /healthz|readyz/.test(p))).toEqual([]);
  });

  it('/readyz is 503 when the database does not answer; /healthz stays 200', async () => {
    const lost = await startTestServer();
    try {
      expect((await lost.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      // The database goes away under the running server (as a PostgreSQL that is restarted or unreachable).
      await lost.database.close();
      const ready = await lost.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'database unreachable' });
      expect((await lost.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await lost.close().catch(() => {});
    }
  }, 120_000);
});

describe('SIGTERM drains', () => {
  it('/readyz says 503 at once while requests are still taken (DRAIN_NOTICE_MS), then the port closes, the request in flight finishes, exit 0', async () => {
    const env = pgUrl
      ? { DATA_DIR: tempDataDir(), DATABASE_URL: await freshPostgresDatabase(pgUrl) }
      : { DATA_DIR: await seededDataDir() };
    const server = await startMain({ ...env, GATEWAY: 'off', DRAIN_NOTICE_MS: '3000' });
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    const inFlight = await startSlowLogin(server.url);

    const t0 = Date.now();
    server.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    // Draining: not ready, but alive and still answering new requests while the balancer notices.
    const ready = await fetch(`${server.url}/readyz`, { headers: { connection: 'close' } });
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'draining' });
    expect((await fetch(`${server.url}/healthz`, { headers: { connection: 'close' } })).status).toBe(200);
    const lateLogin = await fetch(`${server.url}/api/TokenAuth/Authenticate`, {
      method: 'POST', headers: { 'content-type': 'application/json', connection: 'close' }, body: JSON.stringify({ userNameOrEmailAddress: 'admin', password: '123qwe' }),
    });
    expect(lateLogin.status).toBe(200);
    expect(Date.now() - t0, 'all of that within the notice').toBeLessThan(3000);

    // After the notice the port closes; the request that was in flight still gets its answer.
    expect(await until(async () => !(await reachable(server.url)), 15_000)).toBe(true);
    console.log(`port closed ${Date.now() - t0} ms after SIGTERM (notice 3000 ms)`);
    const answer = await inFlight.finish();
    expect(answer.status).toBe(200);
    expect(answer.body.result.accessToken).toEqual(expect.any(String));

    expect(await exitOf(server, 20_000)).toMatchObject({ exited: true, code: 0 });
    expect(server.output()).toMatch(/SIGTERM: stopping Brew Ops \(\/readyz says draining for 3000 ms, then requests in flight get up to 10 s\)[\s\S]*Brew Ops stopped in \d+ ms/);
  }, 300_000);
});
