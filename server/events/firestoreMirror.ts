import type { OrderEvent, OrderEvents } from './orderEvents';

/** Where the mirror writes: a Firebase project, or the Firestore emulator when emulatorHost is set. */
export interface FirestoreMirrorConfig {
  projectId: string;
  /** "host:port" of the Firestore emulator (FIRESTORE_EMULATOR_HOST). */
  emulatorHost?: string;
  /** Web API key of the project (FIREBASE_API_KEY); not needed for the emulator. */
  apiKey?: string;
}

/** Reads the mirror's config from the environment; null when Firebase is not configured. */
export function firestoreConfigFromEnv(env: NodeJS.ProcessEnv = process.env): FirestoreMirrorConfig | null {
  const projectId = env.FIREBASE_PROJECT_ID?.trim();
  if (!projectId) return null;
  return { projectId, emulatorHost: env.FIRESTORE_EMULATOR_HOST?.trim() || undefined, apiKey: env.FIREBASE_API_KEY?.trim() || undefined };
}

export interface FirestoreMirror {
  /** Writes orders/{id} = { id, branchId, brandId, createdAt }. */
  write(event: Omit<OrderEvent, 'id'>): Promise<void>;
  /** Waits for writes in flight (at most `timeoutMs`), then disconnects. */
  close(timeoutMs?: number): Promise<void>;
}

/**
 * Mirrors each new order into the Firestore collection `orders`, which the console's live feed
 * listens to when Firebase is configured (SPEC.md 4, "Live order feed"). Uses the firebase web
 * SDK, which runs in Node too.
 */
export async function createFirestoreMirror(config: FirestoreMirrorConfig): Promise<FirestoreMirror> {
  const { initializeApp, deleteApp } = await import('firebase/app');
  const { getFirestore, connectFirestoreEmulator, doc, setDoc, Timestamp, terminate } = await import('firebase/firestore');
  const app = initializeApp(
    { projectId: config.projectId, apiKey: config.apiKey ?? 'emulator-api-key' },
    `orders-mirror-${config.projectId}-${Math.random().toString(36).slice(2)}`,
  );
  const firestore = getFirestore(app);
  if (config.emulatorHost) {
    const [host, port] = config.emulatorHost.replace(/^https?:\/\//, '').split(':');
    connectFirestoreEmulator(firestore, host, Number(port ?? 8080));
  }
  const inFlight = new Set<Promise<void>>();
  return {
    write(event) {
      const p = setDoc(doc(firestore, 'orders', String(event.orderId)), {
        id: event.orderId,
        branchId: event.branchId,
        brandId: event.brandId,
        createdAt: Timestamp.fromDate(new Date(event.at)),
      });
      inFlight.add(p);
      return p.finally(() => inFlight.delete(p));
    },
    async close(timeoutMs = 3000) {
      await Promise.race([Promise.allSettled([...inFlight]), new Promise((r) => setTimeout(r, timeoutMs).unref())]);
      await terminate(firestore).catch(() => {});
      await deleteApp(app).catch(() => {});
    },
  };
}

/**
 * The order events port, also mirroring `order.created` (and an order for later's `order.fired`) into Firestore. Only the process that
 * publishes writes (not every listener), and the write is not awaited: an unreachable Firestore
 * never slows down or fails saving an order.
 */
export function withFirestoreMirror(events: OrderEvents, mirror: FirestoreMirror, onError: (err: unknown) => void = () => {}): OrderEvents {
  return {
    async publish(event) {
      await events.publish(event);
      // An order for later reaches the kitchen when it fires: the console hears of it then, as of a new order.
      if (event.type === 'order.created' || event.type === 'order.fired') {
        mirror.write({ ...event, at: new Date().toISOString() }).catch(onError);
      }
    },
    subscribe: (listener, resume) => events.subscribe(listener, resume),
    async close() {
      await mirror.close();
      await events.close();
    },
  };
}
