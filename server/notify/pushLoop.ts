import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from '../db/client';
import { customerNotifications, notifications, pushSubscriptions } from '../db/schema';
import { MARKETING_PUSH, orderStatusPush, type PushSender, type PushTarget } from './push';

/** Issue 27: a subscription whose push service took nothing for this long is pruned (Safari can answer 2xx for a dead endpoint, so 404/410 alone do not catch them all). */
export const PUSH_SUBSCRIPTION_MAX_SILENCE_DAYS = 60;

/** Deletes the subscriptions with no success (nor, if never pushed to, creation) in PUSH_SUBSCRIPTION_MAX_SILENCE_DAYS. */
export async function pruneSilentSubscriptions(db: Db) {
  await db.delete(pushSubscriptions).where(lt(
    sql`coalesce(${pushSubscriptions.lastSuccessAt}, ${pushSubscriptions.createdAt})`,
    sql`now() - make_interval(days => ${PUSH_SUBSCRIPTION_MAX_SILENCE_DAYS})`,
  ));
}

/** The web push side of notification delivery, running beside the requests that queue it. */
export interface PushDelivery {
  readonly publicKey: string;
  /** Wakes the sender: inbox rows were queued for push. Returns at once. */
  kick(): void;
  /** Resolves when the sender has nothing in hand (tests, shutdown). */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

export interface PushLoopOptions {
  /** Inbox rows leased per round (default 200). */
  batch?: number;
  /** Requests to push services in flight at once (default 16). */
  concurrency?: number;
  /** How long a lease keeps other replicas off a batch (default 120 s); an expired lease is taken over. */
  leaseSeconds?: number;
  /** How often leftovers (another replica's expired lease, a restart) are looked for (default 60 s). */
  sweepMs?: number;
  onError?: (err: unknown) => void;
}

type Claimed = { notification_id: number; user_id: number };

/**
 * Sends the queued web pushes (`customer_notifications.push_pending`) outside the request that
 * sent the notification, so a send to 10,000 customers answers as soon as their inbox rows are
 * written (docs/decisions.md "Notifications"). Rows are leased a batch at a time with
 * `FOR UPDATE SKIP LOCKED`, so any number of replicas share the work and never send one row twice
 * at once. Each row is tried once per subscription: a push is an alert, the inbox keeps the
 * message; a subscription its push service calls gone (404, 410) is deleted.
 */
export function startPushLoop(db: Db, sender: PushSender, opts: PushLoopOptions = {}): PushDelivery {
  const batch = opts.batch ?? 200, concurrency = opts.concurrency ?? 16, lease = opts.leaseSeconds ?? 120;
  let running: Promise<void> | null = null;
  let again = false, stopped = false;

  async function claim(): Promise<Claimed[]> {
    const res = await db.execute(sql`
      update customer_notifications c set push_claimed_until = now() + make_interval(secs => ${lease})
      from (select notification_id, user_id from customer_notifications
            where push_pending and (push_claimed_until is null or push_claimed_until < now())
            order by notification_id, user_id limit ${batch} for update skip locked) p
      where c.notification_id = p.notification_id and c.user_id = p.user_id
      returning c.notification_id, c.user_id`);
    return rowsOf<Claimed>(res).map((r) => ({ notification_id: Number(r.notification_id), user_id: Number(r.user_id) }));
  }

  async function sendRound(rows: Claimed[]) {
    const userIds = [...new Set(rows.map((r) => r.user_id))];
    const ids = [...new Set(rows.map((r) => r.notification_id))];
    const [subs, sent] = await Promise.all([
      db.select().from(pushSubscriptions).where(inArray(pushSubscriptions.userId, userIds)),
      db.select({ id: notifications.id, title: notifications.title, text: notifications.text, orderId: notifications.orderId }).from(notifications).where(inArray(notifications.id, ids)),
    ]);
    const byUser = new Map<number, PushTarget[]>();
    for (const s of subs) byUser.set(s.userId, [...(byUser.get(s.userId) ?? []), { endpoint: s.endpoint, keys: { p256dh: s.p256dh, auth: s.auth } }]);
    // An order's status notice: 15 minutes, high urgency, the order's topic; anything else is a brand's notification (a day, normal).
    const messageOf = new Map(sent.map((n) => [n.id, {
      payload: JSON.stringify({ notificationId: n.id, title: n.title, body: n.text, url: n.orderId ? '/track' : '/' }),
      options: n.orderId ? orderStatusPush(n.orderId) : MARKETING_PUSH,
    }]));
    const jobs = rows.flatMap((r) => (byUser.get(r.user_id) ?? []).map((target) => ({ target, ...messageOf.get(r.notification_id)! })));
    const gone = new Set<string>(), took = new Set<string>();
    let next = 0;
    await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, async () => {
      while (next < jobs.length) {
        const job = jobs[next++];
        if (gone.has(job.target.endpoint)) continue;
        const outcome = await sender.send(job.target, job.payload, job.options);
        if (outcome === 'gone') gone.add(job.target.endpoint);
        else if (outcome === 'sent') took.add(job.target.endpoint);
      }
    }));
    if (gone.size) await db.delete(pushSubscriptions).where(inArray(pushSubscriptions.endpoint, [...gone]));
    const live = [...took].filter((e) => !gone.has(e));
    if (live.length) await db.update(pushSubscriptions).set({ lastSuccessAt: sql`now()` }).where(inArray(pushSubscriptions.endpoint, live));
    for (const id of ids) {
      const users = rows.filter((r) => r.notification_id === id).map((r) => r.user_id);
      await db.update(customerNotifications).set({ pushPending: false, pushClaimedUntil: null })
        .where(and(eq(customerNotifications.notificationId, id), inArray(customerNotifications.userId, users)));
    }
  }

  async function drain() {
    while (!stopped) {
      const rows = await claim();
      if (!rows.length) return;
      await sendRound(rows);
    }
  }

  function kick() {
    if (stopped) return;
    if (running) { again = true; return; }
    running = drain().catch((err) => opts.onError?.(err)).finally(() => {
      running = null;
      if (again) { again = false; kick(); }
    });
  }

  const sweep = setInterval(() => {
    kick();
    pruneSilentSubscriptions(db).catch((err) => opts.onError?.(err));
  }, opts.sweepMs ?? 60_000);
  sweep.unref();
  kick();
  pruneSilentSubscriptions(db).catch((err) => opts.onError?.(err));
  return {
    publicKey: sender.publicKey,
    kick,
    async idle() { while (running) await running; },
    async stop() { stopped = true; clearInterval(sweep); while (running) await running; },
  };
}
