import { getApps, initializeApp } from 'firebase/app';
import { collection, connectFirestoreEmulator, getFirestore, limit, onSnapshot, orderBy, query, where, type Firestore } from 'firebase/firestore';
import type { LiveOrderFeedEvent } from '../../../../machines/liveOrderFeed';

/** The web app's Firebase settings (VITE_FIREBASE_*). */
export interface FirestoreFeedConfig {
  projectId: string;
  apiKey?: string;
  appId?: string;
  /** "host:port" of the Firestore emulator (tests, local runs). */
  emulatorHost?: string;
}

const APP_NAME = 'console-order-feed';
let firestore: Firestore | null = null;

function firestoreOf(config: FirestoreFeedConfig): Firestore {
  if (firestore) return firestore;
  const app = getApps().find((a) => a.name === APP_NAME)
    ?? initializeApp({ projectId: config.projectId, apiKey: config.apiKey ?? 'emulator-api-key', ...(config.appId && { appId: config.appId }) }, APP_NAME);
  firestore = getFirestore(app);
  if (config.emulatorHost) {
    const [host, port] = config.emulatorHost.replace(/^https?:\/\//, '').split(':');
    connectFirestoreEmulator(firestore, host, Number(port ?? 8080));
  }
  return firestore;
}

/**
 * The Firestore transport of the live order feed (SPEC.md 4): the collection `orders` (written by
 * the server's mirror, server/events/firestoreMirror.ts), newest order only, of one branch. Loaded
 * with import() so Firestore is its own lazy chunk, fetched only when Firebase is configured.
 *
 * The first snapshot from the server is where the feed starts (`feed.connected`, its order is not
 * new). After that, a newer order is a `feed.poke`, not a `feed.order`: newest-only snapshots can
 * skip an order of a burst, so the feed fetches everything after the last order it saw (by id,
 * scoped by the server) and announces each once. A snapshot served from the cache means the
 * connection is gone (`feed.dropped`); the machine resubscribes and catches up. Needs the
 * composite index orders(branchId asc, createdAt desc) on a real project.
 */
export function listenToBranchOrders(config: FirestoreFeedConfig, branchId: number, sendBack: (event: LiveOrderFeedEvent) => void): () => void {
  const newest = query(collection(firestoreOf(config), 'orders'), where('branchId', '==', branchId), orderBy('createdAt', 'desc'), limit(1));
  let connected = false;
  return onSnapshot(
    newest,
    { includeMetadataChanges: true },
    (snapshot) => {
      if (snapshot.metadata.fromCache) {
        if (connected) {
          connected = false;
          sendBack({ type: 'feed.dropped', reason: 'Firestore is offline.' });
        }
        return;
      }
      if (!connected) {
        connected = true;
        sendBack({ type: 'feed.connected' });
        return;
      }
      if (snapshot.docChanges().some((change) => change.type === 'added')) sendBack({ type: 'feed.poke' });
    },
    (error) => sendBack(error.code === 'permission-denied' || error.code === 'unauthenticated'
      ? { type: 'feed.refused', reason: error.message }
      : { type: 'feed.dropped', reason: error.message }),
  );
}
