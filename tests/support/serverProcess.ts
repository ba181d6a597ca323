import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { createFetchApi } from './fetchApi';
import { freshPostgresDatabase } from './pgDatabase';

export interface ServerProcess {
  url: string;
  api: ReturnType<typeof createFetchApi>;
  /** Test-only: the SMS codes sent to a phone, newest first (the embedded SMS outbox). */
  smsCodes(phone: string, purpose?: 'register' | 'reset' | 'signIn'): Promise<string[]>;
  close(): Promise<void>;
}

export interface ServerProcessOptions { acceptDeadlineSeconds?: number; databaseUrl?: string }

/** A spawned server process's addresses, before the helpers are put around them; `pid` names it to whoever closes it. */
export interface SpawnedServer { url: string; outboxUrl: string; pid: number; close(): Promise<void> }

/**
 * Starts tests/support/serverMain.ts in a child process and waits for its URL.
 * `acceptDeadlineSeconds` turns on the acceptance deadline (server/orders/deadline.ts) with that deadline.
 * `databaseUrl` (PostgreSQL) runs it on that database, e.g. one another test server already uses, as replicas share one.
 */
export async function startServerProcess(opts: ServerProcessOptions = {}): Promise<ServerProcess> {
  return serverProcessAt(await spawnServerProcess(opts));
}

/** A start measured at 20–28 s with the load average at 25 (eight engineers' builds on 2 cores): 150 s is room, not a wait. */
const START_LIMIT_MS = 150_000;

/** Spawns the server and waits for its ready line (the URL and the SMS outbox's URL as JSON). */
export async function spawnServerProcess(opts: ServerProcessOptions = {}): Promise<SpawnedServer> {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'test' };
  if (opts.acceptDeadlineSeconds) env.ORDER_ACCEPT_DEADLINE_SECONDS = String(opts.acceptDeadlineSeconds);
  if (opts.databaseUrl) env.TEST_DATABASE_URL = opts.databaseUrl;
  else if (process.env.TEST_DATABASE_URL) env.TEST_DATABASE_URL = await freshPostgresDatabase(process.env.TEST_DATABASE_URL);
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.resolve('tests/support/serverMain.ts')], {
    env, stdio: ['ignore', 'pipe', 'inherit'],
  });
  const close = () => new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 5000).unref();
  });
  const { url, outboxUrl } = await new Promise<{ url: string; outboxUrl: string }>((resolve, reject) => {
    const timer = setTimeout(() => { void close(); reject(new Error(`test server did not start in ${START_LIMIT_MS / 1000} s`)); }, START_LIMIT_MS);
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`test server exited with ${code}`)); });
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!line.startsWith('{')) return;
      clearTimeout(timer);
      resolve(JSON.parse(line));
    });
  });
  return { url, outboxUrl, pid: child.pid!, close };
}

/** The test's view of a running server process: its URL, the REST helpers, the SMS outbox. */
export function serverProcessAt({ url, outboxUrl, close }: Pick<SpawnedServer, 'url' | 'outboxUrl' | 'close'>): ServerProcess {
  return {
    url,
    api: createFetchApi(url),
    async smsCodes(phone, purpose) {
      const rows = (await (await fetch(`${outboxUrl}?phone=${encodeURIComponent(phone)}`)).json()) as { code: string; purpose: string }[];
      return rows.filter((r) => !purpose || r.purpose === purpose).map((r) => r.code);
    },
    close,
  };
}
