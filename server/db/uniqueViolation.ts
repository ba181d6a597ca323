/**
 * The name of the unique index a failed insert or update collided with, or null when the error is
 * not a unique violation (Postgres 23505). Works for node-postgres and PGlite errors, bare or
 * wrapped by Drizzle (DrizzleQueryError.cause).
 */
export function uniqueViolation(err: unknown): string | null {
  for (let e = err as { code?: string; constraint?: string; message?: string; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (e.code === '23505') return e.constraint ?? /unique constraint "([^"]+)"/.exec(e.message ?? '')?.[1] ?? '';
  }
  return null;
}

/**
 * The foreign key a failed delete or update collided with (Postgres 23503: other rows still refer
 * to this one), or null when the error is something else. Same drivers and wrapping as above.
 */
export function foreignKeyViolation(err: unknown): string | null {
  for (let e = err as { code?: string; constraint?: string; message?: string; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (e.code === '23503') return e.constraint ?? /foreign key constraint "([^"]+)"/.exec(e.message ?? '')?.[1] ?? '';
  }
  return null;
}
