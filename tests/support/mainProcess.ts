import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, lstatSync } from 'node:fs';
import { request } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SEED_DUMP } from './globalSetup';
import { S3_ENV } from '../../server/config';
import { freshPostgresDatabase, startTestServer, type TestServer } from './server';
import { startServerProcess, type ServerProcess, type ServerProcessOptions } from './serverProcess';
import type { StartOptions } from '../../app/start';

/**
 * `npm start` as a real process (node --import tsx app/main.ts), for the tests of what only a
 * whole process shows: the DATA_DIR lock, signals, file modes, kill -9.
 */
export interface MainProcess {
  child: ChildProcess;
  pid: number;
  /** Set once it printed that it is ready. */
  url: string;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  /** Resolves when it exits. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface MainEnv {
  DATA_DIR: string;
  DATABASE_URL?: string;
  GATEWAY?: 'off';
  JWT_SECRET?: string;
  /** Any other setting (S3_*, DRAIN_NOTICE_MS…). */
  [name: string]: string | undefined;
}

const running = new Set<ChildProcess>();

/**
 * Kills (SIGKILL) every server a test spawned and left running, e.g. after a failed assertion,
 * with its whole process group (npm's children too).
 */
export function killLeftovers() {
  for (const child of running) {
    try { process.kill(-child.pid!, 'SIGKILL'); } catch { child.kill('SIGKILL'); }
  }
  running.clear();
}

/** Spawns the server (through `npm run serve` with `viaNpm`, as a supervisor running npm would); does not wait for it. */
export function spawnMain(env: MainEnv, opts: { viaNpm?: boolean } = {}): Omit<MainProcess, 'url'> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_REQUESTS: '0' };
  for (const name of ['DATABASE_URL', 'JWT_SECRET', 'GATEWAY', 'PUBLIC_URL', 'FIREBASE_PROJECT_ID', 'FIRESTORE_EMULATOR_HOST', 'DRAIN_NOTICE_MS', ...S3_ENV]) delete childEnv[name];
  Object.assign(childEnv, env);
  const child = opts.viaNpm
    ? spawn('npm', ['run', '--silent', 'serve'], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    : spawn(process.execPath, ['--import', 'tsx', path.resolve('app/main.ts')], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout!.on('data', (chunk) => { output += chunk; });
  child.stderr!.on('data', (chunk) => { output += chunk; });
  running.add(child);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => { if (!opts.viaNpm) running.delete(child); resolve({ code, signal }); });
  });
  return { child, pid: child.pid!, output: () => output, exited };
}

/** Spawns the server and waits for its "ready" banner (a first start on an empty PGlite runs initdb: allow for it). */
export async function startMain(env: MainEnv, timeoutMs = 120_000, opts: { viaNpm?: boolean } = {}): Promise<MainProcess> {
  const started = Date.now();
  const proc = spawnMain(env, opts);
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => { proc.child.kill('SIGKILL'); reject(new Error(`server not ready in ${timeoutMs} ms:\n${proc.output()}`)); }, timeoutMs);
    const check = () => {
      const match = /shop and console\s+(http\S+?)\/\s*$/m.exec(proc.output());
      if (match) { clearTimeout(timer); resolve(match[1]); }
    };
    proc.child.stdout!.on('data', check);
    void proc.exited.then(({ code, signal }) => { clearTimeout(timer); reject(new Error(`server exited (${code ?? signal}) before it was ready:\n${proc.output()}`)); });
  });
  console.log(`server pid ${proc.pid} ready in ${Date.now() - started} ms at ${url}`);
  return { ...proc, url };
}

/** Waits for the process to exit, at most `timeoutMs`; answers how and how long it took. */
export async function exitOf(proc: Pick<MainProcess, 'exited'>, timeoutMs: number) {
  const t0 = Date.now();
  const result = await Promise.race([proc.exited, new Promise<null>((r) => setTimeout(() => r(null), timeoutMs))]);
  return { ...(result ?? { code: undefined, signal: undefined }), ms: Date.now() - t0, exited: result !== null };
}

export const tempDataDir = (prefix = 'brewops-data-') => mkdtempSync(path.join(tmpdir(), prefix));

/**
 * A DATA_DIR holding the migrated and seeded database of the test setup's dump, so a server
 * process skips initdb. Written by PGlite in this process, with PGlite's own file modes.
 */
export async function seededDataDir(): Promise<string> {
  const dir = tempDataDir();
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create(path.join(dir, 'pglite'), { loadDataDir: new Blob([readFileSync(SEED_DUMP)]) });
  await db.close();
  return dir;
}

/** Every file and directory under `dir` (itself included) whose mode lets group or others in. */
export function openToOthers(dir: string): string[] {
  const found: string[] = [];
  const walk = (p: string) => {
    const stat = lstatSync(p);
    if (stat.mode & 0o077) found.push(`${(stat.mode & 0o777).toString(8)} ${path.relative(dir, p) || '.'}`);
    if (stat.isDirectory()) for (const name of readdirSync(p)) walk(path.join(p, name));
  };
  walk(dir);
  return found;
}

/** A port free right now on 127.0.0.1, for a process that must know its own address before it starts. */
export async function freePort() {
  const probe = createTcpServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/**
 * A login whose body is only half sent: the request is in flight until finish() sends the rest.
 * `closed` resolves true if the server cuts the connection first.
 */
export async function startSlowLogin(url: string) {
  const body = JSON.stringify({ userNameOrEmailAddress: 'admin', password: '123qwe' });
  const { hostname, port } = new URL(url);
  const req = request({ host: hostname, port, method: 'POST', path: '/api/TokenAuth/Authenticate', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } });
  const response = new Promise<{ status: number; body: any }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c) => { text += c; });
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    });
    req.on('error', reject);
  });
  const closed = response.then(() => false, () => true);
  req.write(body.slice(0, 10));
  await new Promise((r) => setTimeout(r, 300));
  return {
    closed,
    finish: () => { req.end(body.slice(10)); return response; },
  };
}

/** Whether the server still accepts a connection (a fresh one each time). */
export async function reachable(url: string) {
  try {
    await fetch(`${url}/api/openapi.json`, { headers: { connection: 'close' } });
    return true;
  } catch {
    return false;
  }
}

/** Polls `check` every 100 ms until it is true (true) or `timeoutMs` passed (false). */
export async function until(check: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

/**
 * Two server processes on one fresh PostgreSQL database (issue 26): `a` runs in this test process
 * (its database at hand, for SQL and statement counts), `b` is a child process (tests/support/
 * serverMain.ts) on the same database, as replicas behind a load balancer share one. `run` gets
 * both; both are closed after it, whatever it did.
 */
export async function useSecondProcess<T>(
  pgUrl: string,
  run: (servers: { a: TestServer; b: ServerProcess; databaseUrl: string }) => Promise<T>,
  opts: { a?: Partial<StartOptions>; b?: Omit<ServerProcessOptions, 'databaseUrl'> } = {},
): Promise<T> {
  const databaseUrl = await freshPostgresDatabase(pgUrl);
  const a = await startTestServer({ ...opts.a, databaseUrl });
  let b: ServerProcess | null = null;
  try {
    b = await startServerProcess({ ...opts.b, databaseUrl });
    return await run({ a, b, databaseUrl });
  } finally {
    await b?.close();
    await a.close();
  }
}
