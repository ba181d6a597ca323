import { and, eq, exists, inArray, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { customerGroupMembers, customerGroups, customerWallets, preInvitations, users } from '../../db/schema';

/**
 * Invited phones that belong to registered customers join their lists' groups, once: each entry
 * that has not been used yet adds its customer to its group and records who joined
 * (`joined_user_id`), so a customer later removed from the group is not added again. Runs in the
 * caller's transaction. Answers how many entries were used.
 * - `registration`: the customer registers with an invited phone, their own action (issue 20): they
 *   join, and become a customer of each group's brand (a wallet row, the brand's subscription).
 * - `staff`: staff list a phone already registered: it joins only a group of a brand the customer is
 *   already a customer of, so an invitation never makes a foreign customer visible to staff.
 */
export async function joinInvitedGroups(tx: Db | Tx, phones: readonly string[], by: 'registration' | 'staff'): Promise<number> {
  if (!phones.length) return 0;
  const alreadyTheBrands = exists(tx.select({ one: sql`1` }).from(customerWallets)
    .where(and(eq(customerWallets.userId, users.id), eq(customerWallets.brandId, customerGroups.brandId))));
  const matched = await tx.select({ id: preInvitations.id, groupId: preInvitations.groupId, userId: users.id, brandId: customerGroups.brandId })
    .from(preInvitations)
    .innerJoin(users, and(eq(users.phoneNumber, preInvitations.phoneNumber), eq(users.role, 'CUSTOMER'), eq(users.isGuest, false), eq(users.isActive, true)))
    .innerJoin(customerGroups, eq(customerGroups.id, preInvitations.groupId))
    .where(and(inArray(preInvitations.phoneNumber, [...phones]), isNull(preInvitations.joinedUserId), by === 'staff' ? alreadyTheBrands : undefined))
    .for('update', { of: preInvitations });
  if (!matched.length) return 0;
  if (by === 'registration') {
    await tx.insert(customerWallets).values(matched.map((m) => ({ userId: m.userId, brandId: m.brandId }))).onConflictDoNothing();
  }
  await tx.insert(customerGroupMembers).values(matched.map((m) => ({ groupId: m.groupId, userId: m.userId }))).onConflictDoNothing();
  // users.phone_number is unique, so the entry's phone names one customer.
  await tx.update(preInvitations)
    .set({ joinedUserId: sql`(select ${users.id} from ${users} where ${users.phoneNumber} = ${preInvitations.phoneNumber})`, joinedAt: sql`now()` })
    .where(inArray(preInvitations.id, matched.map((m) => m.id)));
  return matched.length;
}
