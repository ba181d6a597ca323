import { Type } from 'typebox';
import { aliasedTable, and, desc, eq, ne, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { brands, customerGroups, notificationRequests, notifications, users } from '../../db/schema';
import { badRequest, conflict, forbidden, notFound, Obj, type ValidationError } from '../../http/envelope';
import { route, service } from '../../http/routes';
import { pageOf, pagingFields } from '../../http/paging';
import { Nullable } from '../../http/nullable';
import type { AppContext, Caller } from '../../http/context';
import { scopeWhere } from '../../resources/scope';
import { approvalRefusal, nextApprovalState, OWN_REQUEST, type ApprovalEvent, type ApprovalStatus } from '../../../machines/approvalMachine';
import { audienceOf, checkTarget, sendNotification, type NotificationContent } from './send';
import { registerNotificationInbox } from './inbox';
import { decisionReason } from '../customer/requests';

/**
 * Notifications (SPEC.md 7 "Notifications and payments"; docs/decisions.md "Notifications"):
 * staff below ADMIN ask (NotificationsRequests), ADMIN sends directly (SendWebAdminNotifications);
 * ADMIN or a company admin, never the asker, approves a request by sending it
 * (ApproveNotificationsRequests; for ADMIN also SendWebAdminNotifications with
 * `notificationsRequestId`) or rejects it with a reason (RejectNotificationsRequests); every decision goes through machines/approvalMachine.ts under the
 * request's row lock, and the unique `notifications.request_id` backs it, so a request is sent once.
 */
const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });
const Title = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S', description: 'Shown in bold in the inbox and as the push title.' });
const Text = Type.String({ minLength: 1, maxLength: 1000, pattern: '\\S' });

export const NotificationRequest = Obj('NotificationRequest', {
  id: Type.Integer(),
  brandId: Type.Integer(),
  brandName: Type.String(),
  groupId: Nullable(Type.Integer()),
  groupName: Nullable(Type.String({ description: "The group's name; null when the target is all the brand's customers." })),
  title: Type.String(),
  text: Type.String(),
  status: Type.String({ description: "'pending', 'approved' or 'rejected' (machines/approvalMachine.ts)." }),
  requestedBy: Nullable(Type.Integer()),
  requestedByName: Nullable(Type.String()),
  decidedBy: Nullable(Type.Integer()),
  decidedAt: Nullable(Type.String()),
  createdAt: Type.String(),
  notificationId: Nullable(Type.Integer({ description: 'The notification the approval sent.' })),
  recipients: Nullable(Type.Integer({ description: 'How many customers it reached, once sent.' })),
  audience: Nullable(Type.Integer({ description: 'While pending: how many customers it would reach if approved now (what the approval names).' })),
  decisionReason: Nullable(Type.String({ description: 'Why it was rejected.' })),
});
const NotificationRequestList = Obj('NotificationRequestList', { data: Type.Array(NotificationRequest), totalCount: Type.Integer() });
const SentNotification = Obj('SentNotification', {
  id: Type.Integer(),
  brandId: Type.Integer(),
  groupId: Nullable(Type.Integer()),
  title: Type.String(),
  text: Type.String(),
  requestId: Nullable(Type.Integer()),
  recipients: Type.Integer(),
  createdAt: Type.String(),
});

/** A row of the sent notifications' list: every notification that went out, sent directly or by approving a request. */
export const SentNotificationItem = Obj('SentNotificationItem', {
  id: Type.Integer(),
  brandId: Type.Integer(),
  brandName: Type.String(),
  groupId: Nullable(Type.Integer()),
  groupName: Nullable(Type.String({ description: "The group's name; null when it went to all the brand's customers." })),
  title: Type.String(),
  text: Type.String(),
  status: Type.String({ description: "Always 'sent': a notification is a sent one." }),
  requestId: Nullable(Type.Integer({ description: 'The request it answered; null when ADMIN sent it directly.' })),
  requestedByName: Nullable(Type.String({ description: 'Who asked for it, when it answered a request.' })),
  sentBy: Nullable(Type.Integer()),
  sentByName: Nullable(Type.String({ description: 'Who sent it (or approved the request).' })),
  recipients: Type.Integer({ description: 'How many customers it reached.' }),
  createdAt: Type.String(),
});
const SentNotificationList = Obj('SentNotificationList', { data: Type.Array(SentNotificationItem), totalCount: Type.Integer() });

const sender = aliasedTable(users, 'sender');
const asker = aliasedTable(users, 'asker');

const inScope = (caller: Caller) => scopeWhere(caller, { brandId: notificationRequests.brandId });
const iso = (d: Date | string | null) => (d == null ? null : new Date(d).toISOString());
const requester = aliasedTable(users, 'requester');

function requestRows(db: Db) {
  return db.select({
    r: notificationRequests, brandName: brands.name, groupName: customerGroups.name, requestedByName: requester.fullName,
    notificationId: notifications.id, recipients: notifications.recipients,
  }).from(notificationRequests)
    .innerJoin(brands, eq(brands.id, notificationRequests.brandId))
    .leftJoin(customerGroups, eq(customerGroups.id, notificationRequests.groupId))
    .leftJoin(requester, eq(requester.id, notificationRequests.requestedBy))
    .leftJoin(notifications, eq(notifications.requestId, notificationRequests.id));
}
type RequestRow = Awaited<ReturnType<ReturnType<typeof requestRows>['where']>>[number];
const itemOf = ({ r, ...x }: RequestRow) => ({
  id: r.id, brandId: r.brandId, brandName: x.brandName, groupId: r.groupId, groupName: x.groupName, title: r.title, text: r.text, status: r.status,
  requestedBy: r.requestedBy, requestedByName: x.requestedByName, decidedBy: r.decidedBy, decidedAt: iso(r.decidedAt), createdAt: iso(r.createdAt)!,
  notificationId: x.notificationId, recipients: x.recipients, decisionReason: r.decisionReason,
  audience: null as number | null,
});
/** A pending request's audience, counted now (at most a page of them at a time). */
const withAudience = async (db: Db, item: ReturnType<typeof itemOf>) =>
  (item.status === 'pending' ? { ...item, audience: await audienceOf(db, item) } : item);
async function oneRequest(db: Db, id: number) {
  const [row] = await requestRows(db).where(eq(notificationRequests.id, id));
  return withAudience(db, itemOf(row));
}

const DECIDED = (id: number, status: string) => `Notification request ${id} is ${status} already.`;

/** One decision under the request's row lock; approval sends the request's notification in the same transaction. */
async function decide(ctx: AppContext, caller: Caller, id: number, event: ApprovalEvent, reason: string | null = null) {
  const sent = await ctx.db.transaction(async (tx) => {
    const [row] = await tx.select().from(notificationRequests).where(and(eq(notificationRequests.id, id), inScope(caller))).for('update');
    if (!row) throw notFound('Notification request');
    const parties = { requestedBy: row.requestedBy, decidedBy: caller?.id ?? null };
    const next = nextApprovalState(row.status as ApprovalStatus, event, parties);
    if (!next) throw approvalRefusal(row.status as ApprovalStatus, event, parties) === 'ownRequest' ? forbidden(OWN_REQUEST) : conflict(DECIDED(id, row.status));
    await tx.update(notificationRequests).set({ status: next, decidedBy: caller?.id ?? null, decidedAt: new Date(), decisionReason: reason }).where(eq(notificationRequests.id, id));
    if (next !== 'approved') return null;
    return sendNotification(tx, row, { requestId: row.id, sentBy: caller?.id ?? null, push: !!ctx.push });
  });
  if (sent?.pushes) ctx.push?.kick();
  return sent;
}

async function sentNotification(db: Db, id: number) {
  const [n] = await db.select().from(notifications).where(eq(notifications.id, id));
  return { id: n.id, brandId: n.brandId, groupId: n.groupId, title: n.title, text: n.text, requestId: n.requestId, recipients: n.recipients, createdAt: iso(n.createdAt)! };
}

const invalid = (errors: ValidationError[]) => badRequest('Your request is not valid!', errors);

export function registerNotifications(app: FastifyInstance, ctx: AppContext) {
  service(app, ctx, 'Notifications', [
    route({
      method: 'POST', name: 'SendWebAdminNotifications', access: 'notifications.send',
      summary: "Sends a notification now to a brand's customers or one of its groups; with `notificationsRequestId`, approves that pending request by sending it (once).",
      body: Obj('SendWebAdminNotificationsInput', {
        notificationsRequestId: Type.Optional(Id),
        brandId: Type.Optional(Id),
        groupId: Type.Optional(Nullable(Id)),
        title: Type.Optional(Title),
        text: Type.Optional(Text),
      }),
      result: SentNotification,
      async handler({ body, caller, ctx }) {
        if (body.notificationsRequestId != null) {
          const given = (['brandId', 'groupId', 'title', 'text'] as const).filter((k) => body[k] != null);
          if (given.length) throw invalid(given.map((k) => ({ message: `${k}: a request is sent as it was asked; leave ${k} out.`, members: [k] })));
          const sent = await decide(ctx, caller, body.notificationsRequestId, { type: 'request.approve' });
          return sentNotification(ctx.db, sent!.id);
        }
        const missing = (['brandId', 'title', 'text'] as const).filter((k) => body[k] == null);
        if (missing.length) throw invalid(missing.map((k) => ({ message: `${k}: is required (or send notificationsRequestId).`, members: [k] })));
        const content: NotificationContent = { brandId: body.brandId!, groupId: body.groupId ?? null, title: body.title!.trim(), text: body.text!.trim() };
        await checkTarget(ctx.db, caller, content);
        const sent = await ctx.db.transaction((tx) => sendNotification(tx, content, { requestId: null, sentBy: caller?.id ?? null, push: !!ctx.push }));
        if (sent.pushes) ctx.push?.kick();
        return sentNotification(ctx.db, sent.id);
      },
    }),
    route({
      method: 'POST', name: 'NotificationsRequests', access: 'notifications.request',
      summary: "Asks to send a notification to a brand's customers or one of its groups; nothing is sent until another person (ADMIN or a company admin) approves it.",
      body: Obj('NotificationsRequestsInput', { brandId: Id, groupId: Type.Optional(Nullable(Id)), title: Title, text: Text }),
      result: NotificationRequest,
      async handler({ body, caller, ctx }) {
        const target = { brandId: body.brandId, groupId: body.groupId ?? null };
        await checkTarget(ctx.db, caller, target);
        const [row] = await ctx.db.insert(notificationRequests).values({
          ...target, title: body.title.trim(), text: body.text.trim(), requestedBy: caller?.id ?? null,
        }).returning({ id: notificationRequests.id });
        return oneRequest(ctx.db, row.id);
      },
    }),
    route({
      method: 'POST', name: 'ApproveNotificationsRequests', access: 'notifications.decide',
      summary: 'Approves a pending notification request by sending it as asked, once (beyond the legacy list: a company admin decides too; nobody decides their own).',
      body: Obj('ApproveNotificationsRequestsInput', { id: Id }),
      result: NotificationRequest,
      async handler({ body, caller, ctx }) {
        await decide(ctx, caller, body.id, { type: 'request.approve' });
        return oneRequest(ctx.db, body.id);
      },
    }),
    route({
      method: 'POST', name: 'RejectNotificationsRequests', access: 'notifications.decide',
      summary: 'Rejects a pending notification request, with the reason; nothing is sent.',
      body: Obj('RejectNotificationsRequestsInput', { id: Id, reason: decisionReason }),
      result: NotificationRequest,
      async handler({ body, caller, ctx }) {
        await decide(ctx, caller, body.id, { type: 'request.reject' }, body.reason.trim());
        return oneRequest(ctx.db, body.id);
      },
    }),
    route({
      method: 'GET', name: 'GetNotificationAudience', access: 'notifications.manage',
      summary: "How many customers a notification to a brand's customers, or to one of its groups, would reach now.",
      query: Obj('GetNotificationAudienceQuery', { BrandId: Id, GroupId: Type.Optional(Id) }),
      result: Type.Integer(),
      async handler({ query, caller, ctx }) {
        const target = { brandId: query.BrandId, groupId: query.GroupId ?? null };
        await checkTarget(ctx.db, caller, target);
        return audienceOf(ctx.db, target);
      },
    }),
    route({
      method: 'GET', name: 'GetAllNotificationsRequests', access: 'notifications.manage',
      summary: "Notification requests in the caller's brands, newest first, with what each one reached once sent.",
      query: Obj('GetAllNotificationsRequestsQuery', {
        ...pagingFields, Status: Type.Optional(Type.Enum(['pending', 'approved', 'rejected'])), BrandId: Type.Optional(Id),
        Unsent: Type.Optional(Type.Boolean({ description: 'Only the requests not sent (pending and rejected): /notifications lists the sent ones once, among the sent notifications.' })),
      }),
      result: NotificationRequestList,
      async handler({ query, caller, ctx }) {
        const where = and(inScope(caller), query.Status ? eq(notificationRequests.status, query.Status) : undefined,
          query.BrandId ? eq(notificationRequests.brandId, query.BrandId) : undefined,
          query.Unsent ? ne(notificationRequests.status, 'approved') : undefined);
        const { offset, limit } = pageOf(query);
        const [rows, [{ n }]] = await Promise.all([
          requestRows(ctx.db).where(where).orderBy(desc(notificationRequests.id)).limit(limit).offset(offset),
          ctx.db.select({ n: sql<number>`count(*)::int` }).from(notificationRequests).where(where),
        ]);
        return { data: await Promise.all(rows.map((r) => withAudience(ctx.db, itemOf(r)))), totalCount: Number(n) };
      },
    }),
    route({
      method: 'GET', name: 'GetSentNotifications', access: 'notifications.manage',
      summary: "Notifications sent in the caller's brands, newest first: sent directly by ADMIN or by approving a request, who sent them, to whom, and how many customers they reached.",
      query: Obj('GetSentNotificationsQuery', { ...pagingFields, BrandId: Type.Optional(Id) }),
      result: SentNotificationList,
      async handler({ query, caller, ctx }) {
        const where = and(scopeWhere(caller, { brandId: notifications.brandId }), query.BrandId ? eq(notifications.brandId, query.BrandId) : undefined);
        const { offset, limit } = pageOf(query);
        const [rows, [{ n }]] = await Promise.all([
          ctx.db.select({
            n: notifications, brandName: brands.name, groupName: customerGroups.name, sentByName: sender.fullName, requestedByName: asker.fullName,
          }).from(notifications)
            .innerJoin(brands, eq(brands.id, notifications.brandId))
            .leftJoin(customerGroups, eq(customerGroups.id, notifications.groupId))
            .leftJoin(sender, eq(sender.id, notifications.sentBy))
            .leftJoin(notificationRequests, eq(notificationRequests.id, notifications.requestId))
            .leftJoin(asker, eq(asker.id, notificationRequests.requestedBy))
            .where(where).orderBy(desc(notifications.id)).limit(limit).offset(offset),
          ctx.db.select({ n: sql<number>`count(*)::int` }).from(notifications).where(where),
        ]);
        return {
          data: rows.map(({ n: r, ...x }) => ({
            id: r.id, brandId: r.brandId, brandName: x.brandName, groupId: r.groupId, groupName: x.groupName, title: r.title, text: r.text,
            status: 'sent', requestId: r.requestId, requestedByName: x.requestedByName, sentBy: r.sentBy, sentByName: x.sentByName,
            recipients: r.recipients, createdAt: iso(r.createdAt)!,
          })),
          totalCount: Number(n),
        };
      },
    }),
  ]);
  registerNotificationInbox(app, ctx);
}
