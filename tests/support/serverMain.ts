import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import { desc, eq } from 'drizzle-orm';
import { startServer } from '../../app/start';
import { smsOutbox } from '../../server/db/schema';
import { SEED_DUMP } from './globalSetup';

/**
 * A real server in its own process, on a fresh database from the seeded dump, for the jsdom and
 * browser tests (the server must not run inside jsdom). Prints its URL as JSON on stdout.
 */
/** A free port, taken first so the server knows its own public URL (the sandbox payment page redirects back to it). */
async function freePort(): Promise<number> {
  const probe = createTcpServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
const port = process.env.PUBLIC_URL ? 0 : await freePort();

const server = await startServer({
  ...(process.env.TEST_DATABASE_URL
    ? { databaseUrl: process.env.TEST_DATABASE_URL }
    : { dataDir: 'memory://', loadDataDir: new Blob([readFileSync(SEED_DUMP)]) }),
  jwtSecret: 'test-secret-0123456789abcdef',
  gateway: true,
  spaDir: 'dist',
  port,
  // Unset unless the caller sets it, as with `npm start`: links then follow the origin the browser opened.
  ...(process.env.PUBLIC_URL ? { publicUrl: process.env.PUBLIC_URL } : {}),
  // Off unless the test asks: then late orders are rejected after this many seconds, looked for every second.
  ...(process.env.ORDER_ACCEPT_DEADLINE_SECONDS ? { timedWork: { deadlineMs: Number(process.env.ORDER_ACCEPT_DEADLINE_SECONDS) * 1000, everyMs: 1000 } } : {}),
});

/**
 * Test-only: the SMS outbox of this server's database, newest first, for one phone
 * (GET /outbox?phone=+965…). It listens on its own port, so the product's server has no such path.
 */
const outbox = createServer(async (req, res) => {
  const phone = new URL(req.url ?? '/', 'http://x').searchParams.get('phone') ?? '';
  const rows = await server.database.db.select({ code: smsOutbox.code, purpose: smsOutbox.purpose, createdAt: smsOutbox.createdAt })
    .from(smsOutbox).where(eq(smsOutbox.phoneNumber, phone)).orderBy(desc(smsOutbox.id));
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(rows));
});
await new Promise<void>((resolve) => outbox.listen(0, '127.0.0.1', resolve));
const outboxUrl = `http://127.0.0.1:${(outbox.address() as { port: number }).port}/outbox`;

process.stdout.write(`${JSON.stringify({ url: server.url, outboxUrl })}\n`);
process.on('SIGTERM', () => { outbox.close(); server.close().finally(() => process.exit(0)); });
