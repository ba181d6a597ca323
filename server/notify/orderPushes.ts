import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from '../db/client';
import { brands, orders, users } from '../db/schema';
import type { OrderEvents } from '../events/orderEvents';
import type { LanguageCode } from '../../domain/languages';
import type { PushDelivery } from './pushLoop';

/** The statuses a customer is told of by push (issue 27); a refund's notices are the refunds' own (server/payments/refunds.ts), pushed the same way. */
export const ORDER_PUSH_STATUSES = ['accepted', 'ready', 'rejected'] as const;
type PushedStatus = (typeof ORDER_PUSH_STATUSES)[number];

/** The notice, in the brand's language (brands.default_language), as the refund notices are. */
const ORDER_NOTICE: Record<LanguageCode, Record<PushedStatus, (orderNumber: string) => { title: string; text: string }>> = {
  en: {
    accepted: (n) => ({ title: `Order ${n}`, text: 'Your order was accepted and is being prepared.' }),
    ready: (n) => ({ title: `Order ${n}`, text: 'Your order is ready.' }),
    rejected: (n) => ({ title: `Order ${n}`, text: 'Sorry, the branch could not take your order.' }),
  },
  ar: {
    accepted: (n) => ({ title: `الطلب ${n}`, text: 'تم قبول طلبك ويجري تحضيره.' }),
    ready: (n) => ({ title: `الطلب ${n}`, text: 'طلبك جاهز.' }),
    rejected: (n) => ({ title: `الطلب ${n}`, text: 'عذرًا، لم يتمكن الفرع من قبول طلبك.' }),
  },
};

/**
 * Writes the customer's notice of an order's status (inbox row, queued for push when they
 * subscribed), once per order and status: every process on the database hears each order event
 * (LISTEN/NOTIFY) and the unique index on (order_id, order_status) lets one of them write it.
 * Returns whether a push was queued. The shared guest account gets none.
 */
export async function noticeOrderStatus(db: Db, orderId: number): Promise<boolean> {
  const [o] = await db.select({
    status: orders.status, userId: orders.userId, brandId: orders.brandId, orderNumber: orders.orderNumber, isGuest: users.isGuest, language: brands.defaultLanguage,
  }).from(orders).innerJoin(users, eq(users.id, orders.userId)).innerJoin(brands, eq(brands.id, orders.brandId)).where(eq(orders.id, orderId));
  if (!o || o.isGuest || !(ORDER_PUSH_STATUSES as readonly string[]).includes(o.status)) return false;
  const { title, text } = ORDER_NOTICE[o.language === 'ar' ? 'ar' : 'en'][o.status as PushedStatus](o.orderNumber);
  const [queued] = rowsOf<{ push_pending: boolean }>(await db.execute(sql`
    with n as (insert into notifications (brand_id, title, text, recipients, order_id, order_status)
               values (${o.brandId}, ${title}, ${text}, 1, ${orderId}, ${o.status})
               on conflict (order_id, order_status) where order_id is not null do nothing returning id)
    insert into customer_notifications (notification_id, user_id, push_pending)
    select n.id, ${o.userId}, exists (select 1 from push_subscriptions s where s.user_id = ${o.userId}) from n
    returning push_pending`));
  return !!queued?.push_pending;
}

/** With web push on: each order change may be a status the customer is told of; returns the unsubscribe. */
export function followOrderStatusPushes(db: Db, events: OrderEvents, delivery: PushDelivery, onError: (err: unknown) => void) {
  return events.subscribe((event) => {
    if (event.type !== 'order.changed') return;
    noticeOrderStatus(db, event.orderId).then((queued) => { if (queued) delivery.kick(); }, onError);
  });
}
