import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import type { Caller } from '../http/context';
import { requestLanguage } from '../http/language';

/**
 * Keeps the language a customer uses the shop in (users.language), so that their notices (order
 * statuses, refunds: customerLanguage) are written in it. The shop sends its chosen language with
 * every call (Accept-Language: the page's lang); it is kept when the customer places an order and
 * when the bell reads their inbox, i.e. whenever they have the shop open. A call without the header
 * (another client), or with none of our languages in it ('*'), changes nothing, nor does the shared guest account; nothing is written when the
 * language is already the one kept.
 */
export async function rememberCustomerLanguage(db: Db, caller: Caller, headers: Record<string, unknown>): Promise<void> {
  if (!caller || caller.isGuest || caller.role !== 'CUSTOMER') return;
  const header = headers['accept-language'];
  if (typeof header !== 'string') return;
  const language = requestLanguage(headers);
  // Only a language the header really names ('ar-KW', 'en'): not '*' (Node's fetch sends it), nor one we do not speak.
  if (!header.split(',').some((part) => part.trim().split(/[-;]/)[0].toLowerCase() === language)) return;
  await db.update(users).set({ language }).where(and(eq(users.id, caller.id), sql`${users.language} is distinct from ${language}`));
}
