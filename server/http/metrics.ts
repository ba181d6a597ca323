import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from '../db/client';
import { unauthorized } from './envelope';
import type { OrderEvents, ResumeFrom } from '../events/orderEvents';
import type { LiveOrderFeedSource } from '../events/orderFeed';

/**
 * Prometheus metrics on GET /metrics (docs/decisions.md "Gateway, start-up, bench and metrics").
 * Off unless METRICS_TOKEN is set; then a scrape must send `Authorization: Bearer <METRICS_TOKEN>`.
 * The token opens /metrics only: it is not a user token and no other route accepts it.
 * Each server has its own registry, so several servers in one process (tests) never share counts.
 */
export function createMetrics() {
  const registry = new Registry();
  const requests = new Counter({
    name: 'brewops_http_requests_total', help: 'HTTP requests answered, by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status'] as const, registers: [registry],
  });
  const latency = new Histogram({
    name: 'brewops_http_request_duration_seconds', help: 'Time to answer an HTTP request, by method and route pattern.',
    labelNames: ['method', 'route'] as const, registers: [registry],
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  });
  const ordersCreated = new Counter({
    name: 'brewops_orders_created_total', help: 'Orders taken by this server process (order.created events it published).', registers: [registry],
  });
  let subscribers = 0;
  new Gauge({
    name: 'brewops_live_feed_subscribers', help: 'Open live-feed subscriptions (consoles and order trackers) on this server process.',
    registers: [registry], collect() { this.set(subscribers); },
  });
  return {
    registry,
    /** Times every answer by its route's pattern (never the raw URL: ids and query strings would make a series each). */
    instrument(app: FastifyInstance) {
      app.addHook('onResponse', async (req, reply) => {
        const route = req.routeOptions.url ?? 'unmatched';
        requests.inc({ method: req.method, route, status: String(reply.statusCode) });
        latency.observe({ method: req.method, route }, reply.elapsedTime / 1000);
      });
    },
    /** The order events as the services see them, counting each order this process creates. */
    countOrders(events: OrderEvents): OrderEvents {
      return {
        ...events,
        publish: async (event) => {
          await events.publish(event);
          if (event.type === 'order.created' || event.type === 'order.scheduled') ordersCreated.inc();
        },
        subscribe: (listener, resume) => events.subscribe(listener, resume),
        close: () => events.close(),
      };
    },
    /** The live feed as the gateway sees it, counting the subscriptions open at each moment. */
    countSubscribers<T extends LiveOrderFeedSource>(feed: T): T {
      return Object.assign(Object.create(feed) as T, {
        subscribe: (listener: Parameters<T['subscribe']>[0], end?: () => void, resume?: ResumeFrom) => {
          subscribers++;
          let open = true;
          const stop = feed.subscribe(listener, end && (() => { if (open) { open = false; subscribers--; } end(); }), resume);
          return () => { if (open) { open = false; subscribers--; } stop(); };
        },
      });
    },
    /** The database's connections: PostgreSQL's pool, or PGlite's one connection and the queries queued on it. */
    watchDatabase(database: Database) {
      if (database.kind === 'postgres') {
        const pool = database.client as import('pg').Pool;
        new Gauge({
          name: 'brewops_db_pool_connections', help: 'PostgreSQL pool connections by state (total, idle, waiting clients).',
          labelNames: ['state'] as const, registers: [registry],
          collect() {
            this.set({ state: 'total' }, pool.totalCount);
            this.set({ state: 'idle' }, pool.idleCount);
            this.set({ state: 'waiting' }, pool.waitingCount);
          },
        });
        return;
      }
      // PGlite runs one statement at a time: whatever is in flight beyond one is waiting its turn.
      const client = database.client as Record<'query' | 'exec' | 'transaction', (...args: unknown[]) => Promise<unknown>>;
      let inFlight = 0;
      for (const method of ['query', 'exec', 'transaction'] as const) {
        const original = client[method].bind(client);
        client[method] = async (...args: unknown[]) => {
          inFlight++;
          try { return await original(...args); } finally { inFlight--; }
        };
      }
      new Gauge({
        name: 'brewops_db_pool_connections', help: 'PGlite: its single connection (total 1) and the calls waiting for it.',
        labelNames: ['state'] as const, registers: [registry],
        collect() {
          this.set({ state: 'total' }, 1);
          this.set({ state: 'idle' }, inFlight === 0 ? 1 : 0);
          this.set({ state: 'waiting' }, Math.max(0, inFlight - 1));
        },
      });
    },
    /** GET /metrics, for the holder of the metrics token only. */
    route(app: FastifyInstance, token: string) {
      const expected = Buffer.from(`Bearer ${token}`);
      app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
        const given = Buffer.from(req.headers.authorization ?? '');
        if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
          reply.header('www-authenticate', 'Bearer');
          throw unauthorized('The metrics token is missing or wrong.');
        }
        return reply.type(registry.contentType).send(await registry.metrics());
      });
    },
  };
}
