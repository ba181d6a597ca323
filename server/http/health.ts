import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';

/** How long /readyz waits for the database before it says "not ready" (a hung connection must not hang the probe). */
export const READY_QUERY_TIMEOUT_MS = 2000;

/**
 * GET /healthz: the process is up (200, touches nothing). GET /readyz: it can take traffic: a
 * trivial query answers and it is not draining (200), else 503. For load balancers and
 * supervisors: no auth, no ABP envelope, not in the OpenAPI document (as the payment webhooks),
 * never cached.
 */
export function registerHealth(app: FastifyInstance, opts: { db: Db; draining(): boolean }) {
  const hide = { schema: { hide: true } };
  const answer = (status: 'ok' | 'draining' | 'database unreachable') => ({ status });
  app.get('/healthz', hide, async (_req, reply) => reply.header('cache-control', 'no-store').send(answer('ok')));
  app.get('/readyz', hide, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    if (opts.draining()) return reply.status(503).send(answer('draining'));
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        opts.db.execute(sql`select 1`),
        new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`no answer in ${READY_QUERY_TIMEOUT_MS} ms`)), READY_QUERY_TIMEOUT_MS); }),
      ]);
    } catch (err) {
      req.log.warn({ err }, 'readiness: the database does not answer');
      return reply.status(503).send(answer('database unreachable'));
    } finally {
      clearTimeout(timer);
    }
    // A SIGTERM may have come while the query ran.
    return opts.draining() ? reply.status(503).send(answer('draining')) : reply.send(answer('ok'));
  });
}
