import { eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { rowsOf } from '../db/client';
import { brands, orders, users } from '../db/schema';
import type { OrderEvents } from '../events/orderEvents';
import type { LanguageCode } from '../../domain/languages';
import { orderDayTimeText } from '../../domain/time';
import type { PushDelivery } from './pushLoop';

/** The statuses a customer is told of (issue 24 "The customer is told"); a refund's notices are the refunds' own (server/payments/refunds.ts), written the same way. */
export const ORDER_PUSH_STATUSES = ['accepted', 'ready', 'rejected'] as const;
type PushedStatus = (typeof ORDER_PUSH_STATUSES)[number];

/** A reason as the end of a sentence: its own full stop kept, one added otherwise. */
const sentence = (reason: string) => (/[.!?؟。]$/.test(reason) ? reason : `${reason}.`);

/**
 * The notice, in the customer's language (customerLanguage). A rejection says why, as the branch gave it.
 * An order for later names its chosen time (issue 25: the customer sees it in the inbox too), as the
 * tracker writes it (domain/time.ts orderDayTimeText, Kuwait's clock): 'Your order for Sun, Nov 29, 07:00 was accepted…'.
 */
const ORDER_NOTICE: Record<LanguageCode, Record<PushedStatus, (orderNumber: string, reason: string | null, time: string | null) => { title: string; text: string }>> = {
  en: {
    accepted: (n, _r, time) => ({ title: `Order ${n}`, text: `Your order${time ? ` for ${time}` : ''} was accepted and is being prepared.` }),
    ready: (n, _r, time) => ({ title: `Order ${n}`, text: `Your order${time ? ` for ${time}` : ''} is ready.` }),
    rejected: (n, reason, time) => {
      const order = time ? `your order for ${time}` : 'your order';
      return { title: `Order ${n}`, text: reason ? `Sorry, the branch could not take ${order}: ${sentence(reason)}` : `Sorry, the branch could not take ${order}.` };
    },
  },
  ar: {
    accepted: (n, _r, time) => ({ title: `الطلب ${n}`, text: `تم قبول طلبك${time ? ` لموعد ${time}` : ''} ويجري تحضيره.` }),
    ready: (n, _r, time) => ({ title: `الطلب ${n}`, text: `طلبك${time ? ` لموعد ${time}` : ''} جاهز.` }),
    rejected: (n, reason, time) => {
      const order = time ? `طلبك لموعد ${time}` : 'طلبك';
      return { title: `الطلب ${n}`, text: reason ? `عذرًا، لم يتمكن الفرع من قبول ${order}: ${sentence(reason)}` : `عذرًا، لم يتمكن الفرع من قبول ${order}.` };
    },
  },
};

/**
 * The language a customer's notices are written in: the one they use the shop in (users.language,
 * kept by rememberCustomerLanguage), else their brand's default language. One rule for the order
 * notices here and the refund notices (server/payments/refunds.ts).
 */
export const customerLanguage = (own: string | null, brandDefault: string | null): LanguageCode =>
  ((own ?? brandDefault) === 'ar' ? 'ar' : 'en');

type OrderRecord = typeof orders.$inferSelect;

/**
 * Writes the customer's notice of an order's new status (inbox row, queued for web push when they
 * subscribed), in the lifecycle step's transaction (server/orders/transition.ts), so it commits with
 * the step and is never lost or written twice: one per order and status (unique index on
 * (order_id, order_status), conflict ignored). Returns whether a push was queued. The shared guest
 * account gets none.
 */
export async function noticeOrderStatus(tx: Db | Tx, before: Pick<OrderRecord, 'status'>, after: OrderRecord): Promise<boolean> {
  if (after.status === before.status || !(ORDER_PUSH_STATUSES as readonly string[]).includes(after.status)) return false;
  const [o] = await tx.select({ isGuest: users.isGuest, own: users.language, brandLanguage: brands.defaultLanguage })
    .from(users).innerJoin(brands, eq(brands.id, after.brandId)).where(eq(users.id, after.userId));
  if (!o || o.isGuest) return false;
  const language = customerLanguage(o.own, o.brandLanguage);
  const time = after.scheduledFor ? orderDayTimeText(after.scheduledFor, language) : null;
  const { title, text } = ORDER_NOTICE[language][after.status as PushedStatus](after.orderNumber, after.statusReason?.trim() || null, time);
  const [queued] = rowsOf<{ push_pending: boolean }>(await tx.execute(sql`
    with n as (insert into notifications (brand_id, title, text, recipients, order_id, order_status)
               values (${after.brandId}, ${title}, ${text}, 1, ${after.id}, ${after.status})
               on conflict (order_id, order_status) where order_id is not null do nothing returning id)
    insert into customer_notifications (notification_id, user_id, push_pending)
    select n.id, ${after.userId}, exists (select 1 from push_subscriptions s where s.user_id = ${after.userId}) from n
    returning push_pending`));
  return !!queued?.push_pending;
}

/**
 * With web push on: an order change may have queued a notice (written in its step's transaction):
 * the delivery loop looks now rather than at its next sweep. Returns the unsubscribe.
 */
export function followOrderStatusPushes(_db: Db, events: OrderEvents, delivery: PushDelivery, _onError: (err: unknown) => void) {
  return events.subscribe((event) => {
    if (event.type === 'order.changed') delivery.kick();
  });
}
