import { and, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { rowsOf } from '../../db/client';
import { customerGroups, notifications } from '../../db/schema';
import { badRequest } from '../../http/envelope';
import type { Caller } from '../../http/context';
import { placeInScope } from '../../resources/scope';

/** Who a notification is for: the customers of a brand, or of one customer group of it. */
export interface NotificationTarget { brandId: number; groupId: number | null }
export interface NotificationContent extends NotificationTarget { title: string; text: string }

/**
 * A target the caller may address: the brand in their scope, the group one of that brand's.
 * Unknown and out-of-scope answer alike (400 naming the field), so existence is not revealed.
 */
export async function checkTarget(db: Db | Tx, caller: Caller, target: NotificationTarget) {
  if (!(await placeInScope(db, caller, 'brand', target.brandId))) throw badRequest('brandId: there is no such brand.', [{ message: 'brandId: there is no such brand.', members: ['brandId'] }]);
  if (target.groupId == null) return;
  const [group] = await db.select({ id: customerGroups.id }).from(customerGroups)
    .where(and(eq(customerGroups.id, target.groupId), eq(customerGroups.brandId, target.brandId)));
  if (!group) throw badRequest('groupId: there is no such group in this brand.', [{ message: 'groupId: there is no such group in this brand.', members: ['groupId'] }]);
}

/**
 * The registered, active customers a target reaches, as a set (never a list in memory): a group's
 * members, or a brand's customers, those with a wallet (a subscription) or an order in it, as the
 * customer lists count them (server/services/customer/loyalty.ts `customerVisibleTo`).
 */
function recipientsOf(target: NotificationTarget) {
  const registered = sql`u.role = 'CUSTOMER' and not u.is_guest and u.is_active`;
  return target.groupId != null
    ? sql`select m.user_id from customer_group_members m join users u on u.id = m.user_id where m.group_id = ${target.groupId} and ${registered}`
    : sql`select u.id from users u where ${registered} and (
        exists (select 1 from customer_wallets w where w.user_id = u.id and w.brand_id = ${target.brandId})
        or exists (select 1 from orders o where o.user_id = u.id and o.brand_id = ${target.brandId}))`;
}

/**
 * How many customers a target reaches now (the same set a send writes to): the request form's
 * "Reaches N customers" and the approval's confirmation name it before anything is sent.
 */
export async function audienceOf(db: Db | Tx, target: NotificationTarget): Promise<number> {
  const [row] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from (${recipientsOf(target)}) r`));
  return Number(row.n);
}

/**
 * Sends a notification inside the caller's transaction: the notification row, then every
 * recipient's inbox row in one set-based INSERT … SELECT (10,000 customers are one statement, see
 * docs/decisions.md "Notifications"). With web push on, the rows of customers who have a
 * subscription are queued for the push loop, which runs after the answer. A request's
 * notification carries its `requestId`, unique, so a request can never be sent twice.
 */
export async function sendNotification(tx: Tx, content: NotificationContent, meta: { requestId: number | null; sentBy: number | null; push: boolean }) {
  const [row] = await tx.insert(notifications).values({
    brandId: content.brandId, groupId: content.groupId, title: content.title, text: content.text, requestId: meta.requestId, sentBy: meta.sentBy,
  }).returning({ id: notifications.id });
  const queuePush = meta.push ? sql`exists (select 1 from push_subscriptions s where s.user_id = r.user_id)` : sql`false`;
  const inserted = rowsOf<{ n: number }>(await tx.execute(sql`
    with r(user_id) as (${recipientsOf(content)}),
    ins as (insert into customer_notifications (notification_id, user_id, push_pending)
            select ${row.id}, r.user_id, ${queuePush} from r on conflict do nothing returning push_pending)
    select count(*)::int as n, count(*) filter (where push_pending)::int as pushes from ins`))[0] as { n: number; pushes: number };
  await tx.update(notifications).set({ recipients: Number(inserted.n) }).where(eq(notifications.id, row.id));
  return { id: row.id, recipients: Number(inserted.n), pushes: Number(inserted.pushes) };
}
