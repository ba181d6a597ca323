import { expect } from 'vitest';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../server/db/client';
import type { Envelope, TestServer } from './server';

/**
 * The callers of an admin scope matrix (seed): company 1 owns brand 7 and its branch 1, company 2
 * owns brand 8 and branches 2 and 3; brandmanager manages brand 7, branchuser works at branch 1.
 */
export const CALLERS = ['admin', 'companyadmin', 'brandmanager', 'branchuser', 'customer', 'anonymous'] as const;
export type Who = (typeof CALLERS)[number];

export async function callerTokens(server: TestServer): Promise<Record<Who, string | undefined>> {
  const tokens = { anonymous: undefined } as Record<Who, string | undefined>;
  for (const who of CALLERS) if (who !== 'anonymous') tokens[who] = await server.api.login(who);
  return tokens;
}

/** Every row of the tables (and the audit log), to prove that a refused call changed nothing at all. */
export async function snapshot(server: TestServer, tables: readonly string[]) {
  const out: Record<string, unknown[]> = {};
  for (const table of [...tables, 'audit_log']) {
    out[table] = rowsOf(await server.database.db.execute(sql.raw(`select * from ${table} order by id`)));
  }
  return out;
}

/**
 * Runs a call and checks its status; when the call is refused (not 200), checks that the tables
 * and the audit log are exactly as before.
 */
export async function expectCall(
  server: TestServer, tables: readonly string[], what: string, status: number,
  call: () => Promise<{ status: number; body: Envelope }>,
) {
  const before = status === 200 ? null : await snapshot(server, tables);
  const res = await call();
  expect(res.status, `${what}: ${JSON.stringify(res.body.error)}`).toBe(status);
  if (before) {
    expect(res.body.success, what).toBe(false);
    expect(res.body.error?.message, what).toBeTruthy();
    expect(await snapshot(server, tables), `${what} wrote nothing`).toEqual(before);
  }
  return res;
}
