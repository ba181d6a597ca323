import { chmodSync, linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import path from 'node:path';

/**
 * DATA_DIR belongs to one server process at a time: two PGlite instances on one directory
 * corrupt it. The lock is a file holding who owns the directory (pid, the process's start time
 * and the kernel's boot id), created atomically with link(2), which fails when the file exists.
 * A lock whose holder is gone (killed with -9, or the machine rebooted) is taken over at once:
 * the pid is dead, or it now names another process (another start time), or the boot id changed.
 * Chosen over a lock that must be refreshed (mkdir + mtime, like proper-lockfile) because the
 * next start after a kill -9 must not wait for staleness, and a busy event loop (initdb runs on
 * it) must not make a live holder look stale.
 */
export const LOCK_FILE = 'server.lock';

export interface DataDirHolder {
  pid: number;
  /** Field 22 of /proc/<pid>/stat (clock ticks after boot): tells a reused pid apart. Null off Linux. */
  startTime: string | null;
  /** /proc/sys/kernel/random/boot_id: a lock from before a reboot is stale. Null off Linux. */
  bootId: string | null;
  host: string;
  /** Unique per lock, so a process never mistakes another's lock for its own. */
  token: string;
  since: string;
}

export class DataDirBusyError extends Error {
  constructor(readonly dataDir: string, readonly holder: DataDirHolder | null) {
    super(holder
      ? `DATA_DIR ${dataDir} is in use by another Brew Ops server (pid ${holder.pid} on ${holder.host}, running since ${holder.since}). ` +
        'One process owns an embedded database: stop that server first, give this one its own DATA_DIR, or run replicas on PostgreSQL (DATABASE_URL).'
      : `DATA_DIR ${dataDir} is being locked by another Brew Ops server starting at the same moment; try again.`);
    this.name = 'DataDirBusyError';
  }
}

export interface DataDirLock {
  holder: DataDirHolder;
  /** Removes the lock file if it is still this process's. Safe to call twice. */
  release(): void;
}

/**
 * Takes DATA_DIR for this process, or throws DataDirBusyError without writing anything when a
 * live process holds it. The lock is released on release() or, as a fallback, when the process exits.
 */
export function lockDataDir(dataDir: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, LOCK_FILE);
  const me = selfHolder();
  for (let attempt = 0; attempt < 5; attempt++) {
    const current = readHolder(file);
    if (current === 'missing') {
      if (create(file, me)) return held(file, me);
      continue;
    }
    if (current && isAlive(current)) throw new DataDirBusyError(dataDir, current);
    removeStale(file, current);
  }
  throw new DataDirBusyError(dataDir, null);
}

function held(file: string, me: DataDirHolder): DataDirLock {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off('exit', release);
    const current = readHolder(file);
    if (current !== 'missing' && current?.token === me.token) unlinkSync(file);
  };
  process.on('exit', release);
  return { holder: me, release };
}

/** Writes the lock aside and links it into place: the lock file is never seen half written. */
function create(file: string, me: DataDirHolder): boolean {
  const draft = `${file}.${me.token}`;
  writeFileSync(draft, `${JSON.stringify(me)}\n`, { mode: 0o600 });
  try {
    linkSync(draft, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    unlinkSync(draft);
  }
}

/**
 * Moves a stale lock out of the way. When two starters find the same stale lock, the second may
 * move the first one's fresh lock instead: it sees another token in what it moved and puts it back.
 */
function removeStale(file: string, stale: DataDirHolder | null) {
  const aside = `${file}.stale.${randomBytes(6).toString('hex')}`;
  try {
    renameSync(file, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  const moved = readHolder(aside);
  const sameLock = moved !== 'missing' && (moved === null ? stale === null : moved.token === stale?.token);
  if (!sameLock) {
    try { linkSync(aside, file); } catch { /* a third starter took it meanwhile; its lock stands */ }
  }
  unlinkSync(aside);
}

/** The holder written in a lock file; null when the file is not a lock we can read (treated as stale). */
function readHolder(file: string): DataDirHolder | null | 'missing' {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw err;
  }
  try {
    const holder = JSON.parse(text) as DataDirHolder;
    return Number.isInteger(holder.pid) && typeof holder.token === 'string' ? holder : null;
  } catch {
    return null;
  }
}

function isAlive(holder: DataDirHolder): boolean {
  const bootId = currentBootId();
  if (holder.bootId && bootId && holder.bootId !== bootId) return false;
  // Our own pid in someone else's lock: a previous process that had our pid (a restarted container).
  if (holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false;
    // EPERM: the process exists but belongs to another user.
  }
  const startTime = startTimeOf(holder.pid);
  return !(holder.startTime && startTime && holder.startTime !== startTime);
}

function selfHolder(): DataDirHolder {
  return {
    pid: process.pid,
    startTime: startTimeOf(process.pid),
    bootId: currentBootId(),
    host: hostname(),
    token: randomBytes(12).toString('hex'),
    since: new Date().toISOString(),
  };
}

function startTimeOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count from after it.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function currentBootId(): string | null {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return null;
  }
}

/**
 * Makes DATA_DIR and everything in it readable and writable by its owner only. process.umask
 * covers what Node creates, but PGlite's file system layer chmods each file it creates to 0666,
 * so this runs on start (which also fixes data directories made by older versions) and after the
 * database is closed. In between, the 0700 directory keeps other users out.
 */
export function secureDataDir(dataDir: string) {
  const walk = (dir: string) => {
    restrict(dir);
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) restrict(full);
    }
  };
  walk(dataDir);
}

function restrict(file: string) {
  let mode: number;
  try {
    mode = lstatSync(file).mode & 0o7777;
  } catch {
    return; // removed meanwhile
  }
  if (mode & 0o077) chmodSync(file, mode & 0o700);
}
