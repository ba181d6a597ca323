import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';

/** Google's Firestore emulator as installed on these machines (Java 17). */
export const FIRESTORE_EMULATOR = process.env.FIRESTORE_EMULATOR_BIN ?? '/usr/lib/google-cloud-sdk/platform/cloud-firestore-emulator/cloud_firestore_emulator';
export const firestoreEmulatorAvailable = existsSync(FIRESTORE_EMULATOR);

export const freePort = () => new Promise<number>((resolve, reject) => {
  const s = createServer();
  s.listen(0, '127.0.0.1', () => {
    const { port } = s.address() as { port: number };
    s.close(() => resolve(port));
  });
  s.on('error', reject);
});

export interface FirestoreEmulator { host: string; stop(): void }

/**
 * Starts an emulator on a free port and waits until it answers its own health text ('Ok'), so a
 * port taken meanwhile by another test's server is never mistaken for it. Tries three ports.
 */
export async function startFirestoreEmulator(): Promise<FirestoreEmulator> {
  let lastLog = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const child: ChildProcess = spawn(FIRESTORE_EMULATOR, ['start', '--host=127.0.0.1', `--port=${port}`], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    child.stdout!.on('data', (d) => { log += d; });
    child.stderr!.on('data', (d) => { log += d; });
    const stop = () => { try { process.kill(-child.pid!, 'SIGTERM'); } catch { /* already gone */ } };
    const host = `127.0.0.1:${port}`;
    const deadline = Date.now() + 60_000;
    while (child.exitCode === null && Date.now() < deadline) {
      try {
        const res = await fetch(`http://${host}/`);
        if (res.ok && (await res.text()).trim() === 'Ok') return { host, stop };
      } catch { /* not up yet */ }
      await new Promise((r) => setTimeout(r, 250));
    }
    stop();
    lastLog = log;
  }
  throw new Error(`the Firestore emulator did not start:\n${lastLog}`);
}
