import { Type } from 'typebox';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { brands, customerNotifications, notifications, pushSubscriptions } from '../../db/schema';
import { badRequest, forbidden, Obj } from '../../http/envelope';
import { route, service } from '../../http/routes';
import { pageOf, pagingFields } from '../../http/paging';
import { Nullable } from '../../http/nullable';
import type { AppContext } from '../../http/context';
import { rememberCustomerLanguage } from '../../notify/language';

/**
 * The customer's side of notifications (docs/decisions.md "Notifications"): the inbox the shop's
 * bell reads, marking read, and the browser's web push subscription. Not in the legacy list, which
 * has only the staff calls; the customer reads only their own rows.
 */
const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });

const InboxItem = Obj('InboxNotification', {
  id: Type.Integer(),
  brandId: Type.Integer(),
  brandName: Type.String(),
  title: Type.String(),
  text: Type.String(),
  createdAt: Type.String(),
  isRead: Type.Boolean(),
});
const Inbox = Obj('NotificationInbox', { data: Type.Array(InboxItem), totalCount: Type.Integer(), unreadCount: Type.Integer() });

export function registerNotificationInbox(app: FastifyInstance, ctx: AppContext) {
  const unreadOf = async (userId: number) => {
    const [{ n }] = await ctx.db.select({ n: sql<number>`count(*)::int` }).from(customerNotifications)
      .where(and(eq(customerNotifications.userId, userId), isNull(customerNotifications.readAt)));
    return Number(n);
  };
  service(app, ctx, 'Notifications', [
    route({
      method: 'GET', name: 'GetMyNotifications', access: 'customer',
      summary: "The caller's notifications, newest first, with how many are unread (the shop's bell).",
      query: Obj('GetMyNotificationsQuery', { ...pagingFields }),
      result: Inbox,
      async handler({ query, caller, ctx, req }) {
        // The bell asks whenever the shop is open: the customer's notices follow the shop's language.
        await rememberCustomerLanguage(ctx.db, caller, req.headers);
        const mine = eq(customerNotifications.userId, caller!.id);
        const { offset, limit } = pageOf(query);
        const [rows, [{ n }], unreadCount] = await Promise.all([
          ctx.db.select({ n: notifications, brandName: brands.name, readAt: customerNotifications.readAt }).from(customerNotifications)
            .innerJoin(notifications, eq(notifications.id, customerNotifications.notificationId))
            .innerJoin(brands, eq(brands.id, notifications.brandId))
            .where(mine).orderBy(desc(customerNotifications.notificationId)).limit(limit).offset(offset),
          ctx.db.select({ n: sql<number>`count(*)::int` }).from(customerNotifications).where(mine),
          unreadOf(caller!.id),
        ]);
        return {
          data: rows.map(({ n: x, brandName, readAt }) => ({
            id: x.id, brandId: x.brandId, brandName, title: x.title, text: x.text, createdAt: new Date(x.createdAt).toISOString(), isRead: readAt != null,
          })),
          totalCount: Number(n), unreadCount,
        };
      },
    }),
    route({
      method: 'POST', name: 'MarkNotificationsAsRead', access: 'customer',
      summary: "Marks one of the caller's notifications read, or all of them without `notificationId`; answers the unread count.",
      body: Obj('MarkNotificationsAsReadInput', { notificationId: Type.Optional(Id) }),
      result: Obj('MarkNotificationsAsReadResult', { unreadCount: Type.Integer() }),
      async handler({ body, caller, ctx }) {
        await ctx.db.update(customerNotifications).set({ readAt: new Date() }).where(and(
          eq(customerNotifications.userId, caller!.id), isNull(customerNotifications.readAt),
          body.notificationId ? eq(customerNotifications.notificationId, body.notificationId) : undefined,
        ));
        return { unreadCount: await unreadOf(caller!.id) };
      },
    }),
    route({
      method: 'GET', name: 'GetPushPublicKey', access: 'public',
      summary: 'The VAPID public key browsers subscribe to web push with; null when web push is not configured (the inbox only).',
      result: Obj('PushPublicKey', { publicKey: Nullable(Type.String()) }),
      handler: async ({ ctx }) => ({ publicKey: ctx.push?.publicKey ?? null }),
    }),
    route({
      method: 'POST', name: 'SubscribeToPush', access: 'customer',
      summary: "Keeps the browser's push subscription (PushSubscription.toJSON()) for the caller; the same endpoint again moves it to the caller.",
      body: Obj('SubscribeToPushInput', {
        endpoint: Type.String({ minLength: 10, maxLength: 2000, pattern: '^https://', description: "The push service's URL for this browser." }),
        keys: Obj('SubscribeToPushKeys', {
          p256dh: Type.String({ minLength: 80, maxLength: 100, pattern: '^[A-Za-z0-9_-]+=*$' }),
          auth: Type.String({ minLength: 16, maxLength: 32, pattern: '^[A-Za-z0-9_-]+=*$' }),
        }),
      }),
      result: Obj('SubscribeToPushResult', { subscribed: Type.Boolean() }),
      async handler({ body, caller, ctx }) {
        // The guest is one account shared by every visitor: nobody's alerts may go to someone else's browser.
        if (caller!.isGuest) throw forbidden('Sign in to get notifications.');
        if (!ctx.push) throw badRequest('Web push is not configured on this server.');
        const values = { userId: caller!.id, endpoint: body.endpoint, p256dh: body.keys.p256dh, auth: body.keys.auth };
        await ctx.db.insert(pushSubscriptions).values(values)
          .onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: { userId: values.userId, p256dh: values.p256dh, auth: values.auth } });
        return { subscribed: true };
      },
    }),
  ]);
}
