import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { startTestServer, type TestServer } from '../support/server';

/**
 * The Firestore mirror of new orders (server/events/firestoreMirror.ts) against the real
 * Firestore emulator. Skipped, with a message, where the emulator is not installed.
 */
const EMULATOR = process.env.FIRESTORE_EMULATOR_BIN ?? '/usr/lib/google-cloud-sdk/platform/cloud-firestore-emulator/cloud_firestore_emulator';
const available = existsSync(EMULATOR);
if (!available) console.warn(`firestore.test.ts skipped: the Firestore emulator is not installed at ${EMULATOR} (set FIRESTORE_EMULATOR_BIN).`);

const PROJECT = 'demo-brewops';
let emulator: ChildProcess | null = null;
let host = '';
let server: TestServer;

const freePort = () => new Promise<number>((resolve, reject) => {
  const s = createServer();
  s.listen(0, '127.0.0.1', () => {
    const { port } = s.address() as { port: number };
    s.close(() => resolve(port));
  });
  s.on('error', reject);
});

async function startEmulator() {
  const port = await freePort();
  emulator = spawn(EMULATOR, ['start', `--host=127.0.0.1`, `--port=${port}`], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  emulator.stdout!.on('data', (d) => { log += d; });
  emulator.stderr!.on('data', (d) => { log += d; });
  host = `127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const res = await fetch(`http://${host}/`);
      if (res.ok) return;
    } catch { /* not up yet */ }
    if (Date.now() > deadline) throw new Error(`the Firestore emulator did not start in 60 s:\n${log}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Reads orders/{id} from the emulator over its REST API; null when absent. */
async function readDoc(id: number) {
  const res = await fetch(`http://${host}/v1/projects/${PROJECT}/databases/(default)/documents/orders/${id}`);
  if (res.status === 404) return null;
  return (await res.json()) as { fields: Record<string, Record<string, string>> };
}

async function waitForDoc(id: number, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const doc = await readDoc(id);
    if (doc) return doc;
    if (Date.now() > deadline) return null;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(!available)('Firestore mirror of new orders', () => {
  beforeAll(async () => {
    await startEmulator();
    server = await startTestServer({ firestore: { projectId: PROJECT, emulatorHost: host } });
  }, 90_000);
  afterAll(async () => {
    await server?.close();
    if (emulator?.pid) {
      try { process.kill(-emulator.pid, 'SIGTERM'); } catch { /* already gone */ }
    }
  });

  it('writes orders/{id} = { id, branchId, brandId, createdAt } for each new order', async () => {
    await server.events.publish({ type: 'order.created', orderId: 501, branchId: 1, brandId: 7 });
    const doc = await waitForDoc(501);
    expect(doc).not.toBeNull();
    expect(doc!.fields).toMatchObject({
      id: { integerValue: '501' },
      branchId: { integerValue: '1' },
      brandId: { integerValue: '7' },
      createdAt: { timestampValue: expect.any(String) },
    });
  });

  it('does not write for a change of an order', async () => {
    await server.events.publish({ type: 'order.changed', orderId: 502, branchId: 1, brandId: 7 });
    await server.events.publish({ type: 'order.created', orderId: 503, branchId: 1, brandId: 7 });
    expect(await waitForDoc(503)).not.toBeNull();
    expect(await readDoc(502)).toBeNull();
  });

  it('answers the console\'s live-feed query: newest order of a branch', async () => {
    await server.events.publish({ type: 'order.created', orderId: 601, branchId: 3, brandId: 8 });
    await new Promise((r) => setTimeout(r, 20));
    await server.events.publish({ type: 'order.created', orderId: 602, branchId: 3, brandId: 8 });
    await server.events.publish({ type: 'order.created', orderId: 603, branchId: 2, brandId: 8 });
    expect(await waitForDoc(603)).not.toBeNull();
    expect(await waitForDoc(602)).not.toBeNull();
    const { initializeApp, deleteApp } = await import('firebase/app');
    const { getFirestore, connectFirestoreEmulator, collection, query, where, orderBy, limit, getDocs, terminate } = await import('firebase/firestore');
    const app = initializeApp({ projectId: PROJECT, apiKey: 'test' }, 'firestore-test-reader');
    const db = getFirestore(app);
    const [h, p] = host.split(':');
    connectFirestoreEmulator(db, h, Number(p));
    try {
      const snap = await getDocs(query(collection(db, 'orders'), where('branchId', '==', 3), orderBy('createdAt', 'desc'), limit(1)));
      expect(snap.docs.map((d) => d.data().id)).toEqual([602]);
    } finally {
      await terminate(db);
      await deleteApp(app);
    }
  });

  it('never slows an order down when Firestore is unreachable', async () => {
    const dead = await freePort();
    const offline = await startTestServer({ firestore: { projectId: PROJECT, emulatorHost: `127.0.0.1:${dead}` } });
    try {
      const t0 = Date.now();
      await offline.events.publish({ type: 'order.created', orderId: 701, branchId: 1, brandId: 7 });
      expect(Date.now() - t0).toBeLessThan(1000);
    } finally {
      await offline.close();
    }
  });
});
