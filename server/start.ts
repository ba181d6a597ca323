import { smsProviderFromEnv } from './messages/smsProviders';
import { followOrderCounts } from './orders/listCounts';
import { startUpkeep, type UpkeepOptions } from './db/upkeep';
import { buildApp, type AppOptions } from './app';
import { isEmpty, openDatabase, type Database, type OpenOptions } from './db/client';
import { seed } from './db/seed';
import { seedDemoHistory } from './db/demoHistory';
import type { OrderEvents } from './events/orderEvents';
import { pgOrderEvents } from './events/pgOrderEvents';
import { createFirestoreMirror, firestoreConfigFromEnv, withFirestoreMirror, type FirestoreMirrorConfig } from './events/firestoreMirror';
import { createLiveOrderFeed, type LiveOrderFeedSource } from './events/orderFeed';
import type { FastifyInstance } from 'fastify';
import type { HttpSettings } from './http/security';
import { pushSenderFromEnv } from './notify';
import { startTimedWork, type TimedWorkOptions } from './orders/deadline';
import { startReconciliation, type ReconcileOptions } from './payments/reconcile';
import { paymentSettingsFromEnv, type PaymentSettings } from './config';
import { createMetrics } from './http/metrics';
import { startUploadSweep } from './services/files/sweep';
import { registerHealth } from './http/health';
import { listenCallerChanges } from './auth/callers';

/**
 * Mounts the GraphQL gateway at /graphql. server/ never imports mesh/: the composition root
 * (app/start.ts) passes mesh/inProcess.ts's mountGateway here.
 */
export type MountGateway = (app: FastifyInstance, opts: { liveFeed: LiveOrderFeedSource; direct?: boolean; graphiql?: boolean }) => Promise<{ destroy(): Promise<void> }>;

export interface StartOptions extends OpenOptions {
  port?: number;
  host?: string;
  jwtSecret: string;
  publicUrl?: string;
  /** CORS origins, proxy trust and CSP sources (server/http/security.ts). */
  http?: HttpSettings;
  /** Mount the built mesh at /graphql (default true, when `mountGateway` is given: app/start.ts gives it). */
  gateway?: boolean;
  /** How the gateway is mounted (app/start.ts: mesh/inProcess.ts); without it the server serves REST only. */
  mountGateway?: MountGateway;
  /** Serve GraphiQL on GET /graphql to a browser (default: GRAPHIQL=on, mesh/graphiql.ts). */
  graphiql?: boolean;
  /** On a new database, after the seed: six weeks of demo history (server/db/demoHistory.ts). The product's start (app/main.ts) sets it; tests do not. */
  demoHistory?: boolean;
  /** false: every gateway request goes through Yoga's HTTP adapter, none by mesh/direct.ts (tests compare the two). */
  gatewayDirect?: boolean;
  /** Serve the built SPA from this folder when it exists (default dist/). */
  spaDir?: string;
  logger?: boolean;
  sms?: AppOptions['sms'];
  /** Mirror new orders into Firestore; default from FIREBASE_PROJECT_ID / FIRESTORE_EMULATOR_HOST, null to turn off. */
  firestore?: FirestoreMirrorConfig | null;
  /** Where uploaded images are kept (main.ts: DATA_DIR/uploads); a fresh temp folder when not given. */
  storage?: AppOptions['storage'];
  /** Web push of customer notifications; default from VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY / VAPID_SUBJECT, null to turn off. */
  push?: AppOptions['push'];
  /** How long close() lets requests in flight finish before cutting their connections (default 10 s). */
  drainMs?: number;
  /**
   * How long close() keeps taking requests while /readyz already answers 503, so a load balancer
   * that polls it stops sending here before the port closes (DRAIN_NOTICE_MS; default 0).
   */
  drainNoticeMs?: number;
  /**
   * Run the timed work of orders in this process: the acceptance deadline and the end of busy modes (server/orders/deadline.ts).
   * On for `npm start` (app/main.ts); off by default, so a test's old pending orders stay pending.
   * Options instead of `true` turn it on with a shorter deadline or period (browser tests).
   */
  timedWork?: boolean | TimedWorkOptions;
  /** The payment gateways (MyFatoorah, Tap); default from MYFATOORAH_* / TAP_* (server/config.ts), none: the sandbox and cash only. */
  payments?: PaymentSettings;
  /** With the timed work: the payments' reconciliation job (server/payments/reconcile.ts); options shorten its waits (tests). */
  reconciliation?: ReconcileOptions;
  /** PGlite only: vacuum and analyze the orders as they change (server/db/upkeep.ts); default on. */
  upkeep?: false | UpkeepOptions;
  /** Serve Prometheus metrics on /metrics to the holder of this token (METRICS_TOKEN); unset: no /metrics (404). */
  metricsToken?: string;
}

export interface RunningServer {
  url: string;
  database: Database;
  app: Awaited<ReturnType<typeof buildApp>>['app'];
  /** New and changed orders (PostgreSQL LISTEN/NOTIFY, shared by every process on the database). */
  events: OrderEvents;
  /** PGlite's vacuum and analyze of the orders (null on PostgreSQL, whose autovacuum does it). */
  upkeep: { runNow(): Promise<void> } | null;
  /**
   * Makes /readyz answer 503 (then waits `drainNoticeMs`, still serving), stops taking requests,
   * ends the live-feed streams, lets requests in flight finish (at most `drainMs`, then their
   * connections are cut), and closes the database. Safe to call twice.
   */
  close(): Promise<void>;
}

/** Opens (and on first run seeds) the database, then serves REST, the gateway (when given one) and the SPA on one port. */
export async function startServer(opts: StartOptions): Promise<RunningServer> {
  const database = await openDatabase(opts);
  // seed() checks again under the migrations' lock: replicas may get here at the same moment.
  if ((await isEmpty(database.db)) && (await seed(database.db)) && opts.demoHistory) await seedDemoHistory(database.db);
  const firestore = opts.firestore === undefined ? firestoreConfigFromEnv() : opts.firestore;
  const notify = await pgOrderEvents(database);
  const callerChanges = await listenCallerChanges(database);
  const metrics = opts.metricsToken ? createMetrics() : null;
  const mirrored = firestore
    ? withFirestoreMirror(notify, await createFirestoreMirror(firestore), (err) => app.log.warn({ err }, 'Firestore order mirror failed'))
    : notify;
  // The staff lists' totals are kept between order events (server/orders/listCounts.ts).
  const counted = followOrderCounts(database.db, metrics ? metrics.countOrders(mirrored) : mirrored);
  const events = counted.events;
  const { app, ctx } = await buildApp({
    db: database.db, jwtSecret: opts.jwtSecret, logger: opts.logger, sms: opts.sms ?? smsProviderFromEnv(process.env, opts.publicUrl), events,
    config: {
      ...(opts.publicUrl && { publicUrl: opts.publicUrl }), ...(opts.http && { http: opts.http }),
      payments: opts.payments === undefined ? paymentSettingsFromEnv() : opts.payments,
    },
    spaDir: opts.spaDir ?? 'dist',
    storage: opts.storage,
    push: opts.push === undefined ? pushSenderFromEnv() : opts.push,
    callerChanges,
  });

  if (metrics) {
    metrics.instrument(app);
    metrics.watchDatabase(database);
    metrics.route(app, opts.metricsToken!);
  }
  // /healthz and /readyz (server/http/health.ts); readiness ends as close() starts.
  let draining = false;
  registerHealth(app, { db: database.db, draining: () => draining });
  const liveFeed = createLiveOrderFeed(ctx);
  const gateway = opts.gateway !== false && opts.mountGateway ? await opts.mountGateway(app, { liveFeed: metrics ? metrics.countSubscribers(liveFeed) : liveFeed, direct: opts.gatewayDirect, graphiql: opts.graphiql }) : null;
  // A live-feed stream never ends by itself, and app.close() waits for every open request: end
  // the streams as closing starts (new requests already get 503), so consoles reconnect elsewhere.
  app.addHook('preClose', async () => { liveFeed.close(); });
  await app.listen({ port: opts.port ?? 0, host: opts.host ?? '127.0.0.1' });
  const address = app.server.address() as { port: number };
  const host = opts.host ?? '127.0.0.1';
  const url = `http://${host === '0.0.0.0' ? 'localhost' : host}:${address.port}`;
  if (!opts.publicUrl) Object.assign(ctx.config, { publicUrl: url, publicUrlIsListenAddress: true });
  const upkeep = database.kind === 'pglite' && opts.upkeep !== false
    ? startUpkeep(database, events, { ...opts.upkeep, onError: (err) => app.log.error({ err }, 'database upkeep failed') })
    : null;
  const timedWork = opts.timedWork ? startTimedWork(ctx, { ...(opts.timedWork === true ? {} : opts.timedWork), onError: (err, job) => app.log.error({ err, job }, 'timed work job failed') }) : null;
  const uploadSweep = opts.timedWork ? startUploadSweep(ctx, { onError: (err) => app.log.error({ err }, 'upload sweep round failed') }) : null;
  const reconciliation = opts.timedWork ? startReconciliation(ctx, { ...opts.reconciliation, onError: (err) => app.log.error({ err }, 'payment reconciliation round failed') }) : null;

  let closing: Promise<void> | undefined;
  const close = async () => {
    draining = true;
    if (opts.drainNoticeMs) await new Promise((resolve) => setTimeout(resolve, opts.drainNoticeMs));
    // A kept-alive socket whose last request ends during the drain would hold the server open
    // until its keep-alive timeout: reap idle sockets as they appear; cut the rest at the deadline.
    const reap = setInterval(() => app.server.closeIdleConnections(), 200);
    const deadline = setTimeout(() => app.server.closeAllConnections(), opts.drainMs ?? 10_000);
    try {
      await app.close();
    } finally {
      clearInterval(reap);
      clearTimeout(deadline);
    }
    await timedWork?.stop();
    await uploadSweep?.stop();
    await reconciliation?.stop();
    await upkeep?.stop();
    await gateway?.destroy().catch(() => {});
    counted.stop();
    await events.close().catch(() => {});
    await callerChanges.close().catch(() => {});
    await database.close();
  };
  return {
    url,
    database,
    app,
    events,
    upkeep,
    close: () => (closing ??= close()),
  };
}
