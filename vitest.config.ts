import path from 'node:path';
import { defineConfig } from 'vitest/config';

// Browser test files run two at a time: much of a story is waiting (for a server, a timer, a page),
// so two overlap well on 2 cores (sequential 1,553 s, two at a time 1,183 s for the same 56 files).
// The server and jsdom files are CPU-bound and gain nothing from a second worker (794 s vs 781 s).
// E2E_WORKERS=1 runs them one by one.
const E2E_WORKERS = Math.max(1, Number(process.env.E2E_WORKERS ?? 2));
// On PostgreSQL (TEST_DATABASE_URL, .ci/run's second run) the server files run two at a time too: the
// database works in its own processes, each file on a database of its own (tests/support/pgDatabase.ts),
// and a file waits on it: 86 files took 415 s one at a time, 307 s two at a time (eleventh session).
// On PGlite the database runs inside the test's own process, CPU-bound, so one at a time.
const SERVER_WORKERS = process.env.TEST_DATABASE_URL ? 2 : undefined;

// Server files that need a module graph of their own (lazy-schemas counts the routes compiled since start).
const FRESH_GRAPH = ['tests/server/lazy-schemas.test.ts'];

export default defineConfig({
  // One graphql instance: Node loads graphql's CJS build for the gateway's dependencies, so our code must too.
  resolve: { alias: [{ find: /^graphql$/, replacement: path.resolve('node_modules/graphql/index.js') }] },
  test: {
    // The seeded database's dump for every project; the e2e project's shared Chromium and spare server process.
    globalSetup: ['tests/support/globalSetup.ts', 'tests/support/e2eSetup.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'server', include: ['tests/server/**/*.test.ts'], exclude: FRESH_GRAPH, environment: 'node', testTimeout: 30_000, hookTimeout: 120_000, ...(SERVER_WORKERS ? { maxWorkers: SERVER_WORKERS } : {}),
          // A worker keeps the server's modules loaded from one file to the next (each file still starts its own server on its own database).
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: 'server-fresh', include: FRESH_GRAPH, environment: 'node', testTimeout: 30_000, hookTimeout: 120_000, ...(SERVER_WORKERS ? { maxWorkers: SERVER_WORKERS } : {}) },
      },
      {
        // Issue 26's scale test (tests/scale): 3 processes behind nginx on PostgreSQL. Only .ci/run runs it
        // (`--project scale`, after the server suite); it skips without TEST_DATABASE_URL or nginx.
        extends: true,
        test: { name: 'scale', include: ['tests/scale/**/*.test.ts'], environment: 'node', testTimeout: 420_000, hookTimeout: 300_000, fileParallelism: false },
      },
      {
        extends: true,
        test: { name: 'machines', include: ['tests/machines/**/*.test.{ts,tsx}', 'src/**/*.test.{ts,tsx}'], environment: 'jsdom', setupFiles: ['tests/support/jsdomSetup.ts'], testTimeout: 120_000, hookTimeout: 120_000 },
      },
      {
        extends: true,
        test: {
          name: 'e2e', include: ['tests/e2e/**/*.test.ts'], environment: 'node', testTimeout: 120_000, hookTimeout: 120_000, fileParallelism: E2E_WORKERS > 1, maxWorkers: E2E_WORKERS,
          // A browser waits on chunks and the server: expect.poll's 1 s default fails on a busy 2-core machine, not on a slow product.
          expect: { poll: { timeout: 15_000 } },
        },
      },
    ],
  },
});
