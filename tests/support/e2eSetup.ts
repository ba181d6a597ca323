import { createServer } from 'node:http';
import type { TestProject } from 'vitest/node';
import { chromium } from 'playwright-core';
import { CHROMIUM_LAUNCH } from './browser';
import { spawnServerProcess, type SpawnedServer } from './serverProcess';

/**
 * Global setup of the e2e project (a no-op for the others), for what every browser test file starts
 * the same way:
 * - one Chromium for all files (chromium.launchServer); each file connects to it
 *   (tests/support/harness.ts), and its connection closes with the file, with every context it opened;
 * - a server process with the default options started ahead (the spare): a file takes it and the
 *   next spare starts while that file's tests run, so a file waits for no server start of its own.
 *   Each spare is a fresh server on a fresh database, taken by one file only.
 */
export default async function setup(project: TestProject) {
  if (project.name !== 'e2e') return;
  // E2E_SPARE_SERVER=0: every file starts its own server (to compare, or on a machine with no core to spare).
  const spare = process.env.E2E_SPARE_SERVER !== '0';
  const [browserServer, pool] = await Promise.all([chromium.launchServer(CHROMIUM_LAUNCH), spare ? startServerPool() : null]);
  project.provide('chromiumEndpoint', browserServer.wsEndpoint());
  if (pool) project.provide('serverPool', pool.url);
  return async () => { await Promise.all([browserServer.close(), pool?.close()]); };
}

/**
 * The spare's counter, on a loopback port: POST /take answers the spare's addresses (waiting for it
 * while it starts) and starts the next; POST /close?pid= ends a taken one (answering at once). A spare that failed to
 * start answers 503, and the file starts a server of its own (whose error then says why).
 */
async function startServerPool() {
  const running = new Map<number, SpawnedServer>();
  const exiting = new Set<Promise<void>>();
  let spare: Promise<SpawnedServer | null> | null = null;
  let closing = false;
  const startSpare = () => {
    spare = spawnServerProcess().then((s) => { running.set(s.pid, s); return s; }, () => null);
  };
  startSpare();
  const http = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://pool');
    const answer = (status: number, body?: unknown) => { res.writeHead(status, { 'content-type': 'application/json' }); res.end(JSON.stringify(body ?? {})); };
    if (req.method === 'POST' && url.pathname === '/take') {
      const taken = spare;
      spare = null;
      void (async () => {
        const s = await taken;
        if (!closing) startSpare();
        if (!s) return answer(503);
        answer(200, { url: s.url, outboxUrl: s.outboxUrl, pid: s.pid });
      })();
      return;
    }
    if (req.method === 'POST' && url.pathname === '/close') {
      const pid = Number(url.searchParams.get('pid'));
      const s = running.get(pid);
      running.delete(pid);
      // Ended in the background (SIGTERM, SIGKILL 5 s later): the next file need not wait for its drain.
      const ending = s?.close();
      if (ending) { exiting.add(ending); void ending.then(() => exiting.delete(ending)); }
      return answer(200);
    }
    answer(404);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as { port: number }).port}`,
    async close() {
      closing = true;
      await spare;
      await Promise.all([...running.values()].map((s) => s.close()).concat([...exiting]));
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
