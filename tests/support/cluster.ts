import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { exitOf, freePort, startMain, tempDataDir, until, type MainProcess } from './mainProcess';

/** Debian's nginx (.ci/run installs it). */
export const NGINX = '/usr/sbin/nginx';
export const hasNginx = existsSync(NGINX);

/**
 * deploy/nginx.conf as the test runs it: the file docs/deploy.md documents, with only the lines
 * marked `# test:` changed (the upstream's servers, the listen port, the pid/log/temp paths into `dir`).
 */
export function nginxConfig(dir: string, listenPort: number, upstreamPorts: number[]) {
  const source = readFileSync(path.resolve('deploy/nginx.conf'), 'utf8');
  const out: string[] = [];
  let serversDone = false;
  for (const line of source.split('\n')) {
    if (line.includes('# test: servers')) {
      if (!serversDone) for (const port of upstreamPorts) out.push(line.replace(/127\.0\.0\.1:\d+/, `127.0.0.1:${port}`));
      serversDone = true;
    } else if (line.includes('# test: listen')) out.push(line.replace(/listen \d+;/, `listen 127.0.0.1:${listenPort};`));
    else if (line.includes('# test: path')) out.push(line.replace(/ \/\S+?;/, (m) => ` ${path.join(dir, path.basename(m.trim().slice(0, -1)))};`));
    else out.push(line);
  }
  const text = out.join('\n');
  if (!serversDone || !text.includes(`listen 127.0.0.1:${listenPort};`)) throw new Error('deploy/nginx.conf lost its "# test:" markers');
  return text;
}

export interface Cluster {
  /** nginx's address: what clients use. */
  url: string;
  /** Each process's own address (index i), for the checks that must reach one process. */
  urls: string[];
  procs: (MainProcess | null)[];
  /** kill -9 of process i (no draining). */
  kill(i: number): Promise<void>;
  /** Starts process i again on its port. */
  restart(i: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * N server processes (app/main.ts, the product's start) on one PostgreSQL database, all spawned at the
 * same moment, behind nginx with deploy/nginx.conf. Each has its own DATA_DIR and port; they share
 * JWT_SECRET, TRUST_PROXY=1 and `env` (S3_*…).
 */
export async function startCluster(opts: { processes: number; databaseUrl: string; env?: Record<string, string> }): Promise<Cluster> {
  const ports = await Promise.all(Array.from({ length: opts.processes }, () => freePort()));
  const envOf = (i: number) => ({
    DATABASE_URL: opts.databaseUrl, JWT_SECRET: 'cluster-secret-0123456789abcdef', TRUST_PROXY: '1',
    DATA_DIR: tempDataDir(), PORT: String(ports[i]), ...opts.env,
  });
  const envs = ports.map((_, i) => envOf(i));
  const procs: (MainProcess | null)[] = await Promise.all(envs.map((env) => startMain(env, 180_000)));

  const dir = mkdtempSync(path.join(tmpdir(), 'brewops-nginx-'));
  chmodSync(dir, 0o755); // nginx's workers (nobody, when the test runs as root) write its temp files here
  const listen = await freePort();
  const conf = path.join(dir, 'nginx.conf');
  writeFileSync(conf, nginxConfig(dir, listen, ports));
  const nginx: ChildProcess = spawn(NGINX, ['-p', dir, '-e', path.join(dir, 'error.log'), '-c', conf, '-g', 'daemon off;'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let nginxOutput = '';
  nginx.stdout!.on('data', (c) => { nginxOutput += c; });
  nginx.stderr!.on('data', (c) => { nginxOutput += c; });
  const url = `http://127.0.0.1:${listen}`;
  const up = await until(async () => {
    if (nginx.exitCode !== null) return true;
    try { return (await fetch(`${url}/healthz`)).ok; } catch { return false; }
  }, 15_000);
  if (!up || nginx.exitCode !== null) throw new Error(`nginx did not start: ${nginxOutput}${existsSync(path.join(dir, 'error.log')) ? readFileSync(path.join(dir, 'error.log'), 'utf8') : ''}`);

  return {
    url,
    urls: ports.map((p) => `http://127.0.0.1:${p}`),
    procs,
    async kill(i) {
      const proc = procs[i]!;
      procs[i] = null;
      process.kill(proc.pid, 'SIGKILL');
      await exitOf(proc, 10_000);
    },
    async restart(i) {
      procs[i] = await startMain({ ...envs[i] }, 180_000);
    },
    async stop() {
      nginx.kill('SIGQUIT');
      await Promise.all(procs.map(async (proc) => {
        if (!proc) return;
        proc.child.kill('SIGTERM');
        if (!(await exitOf(proc, 25_000)).exited) proc.child.kill('SIGKILL');
      }));
      await new Promise((r) => (nginx.exitCode !== null ? r(null) : nginx.once('exit', r)));
      for (const env of envs) rmSync(env.DATA_DIR, { recursive: true, force: true });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
