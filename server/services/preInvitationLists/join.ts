import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { customerGroupMembers, preInvitations, users } from '../../db/schema';

/**
 * Invited phones that belong to registered customers join their lists' groups, once: each entry
 * that has not been used yet adds its customer to its group and records who joined
 * (`joined_user_id`), so a customer later removed from the group is not added again. Runs in the
 * caller's transaction: the registration that creates the account, or the write that lists a
 * phone already registered. Answers how many entries were used.
 */
export async function joinInvitedGroups(tx: Db | Tx, phones: readonly string[]): Promise<number> {
  if (!phones.length) return 0;
  const matched = await tx.select({ id: preInvitations.id, groupId: preInvitations.groupId, userId: users.id })
    .from(preInvitations)
    .innerJoin(users, and(eq(users.phoneNumber, preInvitations.phoneNumber), eq(users.role, 'CUSTOMER'), eq(users.isGuest, false), eq(users.isActive, true)))
    .where(and(inArray(preInvitations.phoneNumber, [...phones]), isNull(preInvitations.joinedUserId)))
    .for('update', { of: preInvitations });
  if (!matched.length) return 0;
  await tx.insert(customerGroupMembers).values(matched.map((m) => ({ groupId: m.groupId, userId: m.userId }))).onConflictDoNothing();
  // users.phone_number is unique, so the entry's phone names one customer.
  await tx.update(preInvitations)
    .set({ joinedUserId: sql`(select ${users.id} from ${users} where ${users.phoneNumber} = ${preInvitations.phoneNumber})`, joinedAt: sql`now()` })
    .where(inArray(preInvitations.id, matched.map((m) => m.id)));
  return matched.length;
}
