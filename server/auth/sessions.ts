import { eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { users } from '../db/schema';
import { forgetCallerHere } from './callers';

/**
 * Ends every session of a user at once, on every server process (docs/decisions.md "Sessions that
 * end"; OWASP ASVS 5.0 7.4.1–7.4.3): the user's session generation moves on, and context.ts refuses
 * (401) any token issued at an older one. The truth is the database row: every process forgets what
 * it kept of the user (server/auth/callers.ts) and reads the row again. Called on a password change
 * or reset, on archiving, and by "sign out everywhere"; in the caller's transaction when it has one.
 */
export async function endAllSessions(db: Db | Tx, userId: number) {
  await db.update(users).set({ sessionGeneration: sql`${users.sessionGeneration} + 1` }).where(eq(users.id, userId));
  forgetCallerHere(userId); // every other process hears it from the database at commit
}

/** True when a token issued at `tokenGeneration` still belongs to a live session of a user now at `userGeneration`. */
export const sessionIsCurrent = (tokenGeneration: number, userGeneration: number) => tokenGeneration === userGeneration;
