import { Type } from 'typebox';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client';
import { rowsOf } from '../db/client';
import { smsOutbox, smsSends } from '../db/schema';
import { ApiError, Obj } from '../http/envelope';
import { route, service } from '../http/routes';
import type { AppContext } from '../http/context';
import { breakerState, claimSend, resumeSending } from '../limits/smsGuard';
import { providerName, receiptStatus, SmsSendError, TWILIO_STATUS_PATH, validTwilioSignature, type SmsProvider } from './smsProviders';

/**
 * Tries per code and the waits between them: a provider that times out (2.5 s a try), answers 429
 * or 5xx is tried 3 times in all, after 250 ms and 750 ms, so the registration screen has its
 * answer within 9 s at worst.
 */
export const SMS_RETRY = { tries: 3, backoffMs: [250, 750] };

export const CODE_NOT_SENT = 'We could not send the code by SMS. Please try again in a few minutes.';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends a code's text through the provider. The embedded outbox sends nothing. A real provider's
 * send is recorded in sms_sends (its id there, status, cost); when no try gets it out the code is
 * expired at once (nobody received it, so it is not counted against the phone's cooldown either)
 * and the customer is told so (503 in the envelope, the registration screen shows the message).
 */
export async function deliverCode(db: Db, sms: SmsProvider, outboxId: number, phoneNumber: string, text: string, retry = SMS_RETRY) {
  if (sms.embeddedOutbox) {
    await sms.send(phoneNumber, text, String(outboxId));
    return;
  }
  const expire = () => db.update(smsOutbox).set({ expiresAt: sql`now()` }).where(eq(smsOutbox.id, outboxId));
  // Recorded under the phone's lock, after its cooldown is read again: of two concurrent requests only one sends.
  const [send] = await claimSend(db, phoneNumber, (tx) => tx.insert(smsSends).values({ outboxId, provider: providerName(sms) }).returning({ id: smsSends.id }))
    .catch(async (err) => { await expire(); throw err; });
  let failure = 'no answer';
  for (let attempt = 1; attempt <= retry.tries; attempt++) {
    try {
      const receipt = await sms.send(phoneNumber, text, String(outboxId));
      await db.update(smsSends).set({
        attempts: attempt, status: receipt?.status ?? 'sent', providerId: receipt?.providerId ?? null,
        cost: receipt?.cost == null ? null : String(receipt.cost), currency: receipt?.currency ?? null, updatedAt: sql`now()`,
      }).where(eq(smsSends.id, send.id));
      return;
    } catch (err) {
      failure = (err as Error).message;
      const retryable = !(err instanceof SmsSendError) || err.retryable;
      if (!retryable || attempt === retry.tries) {
        await db.update(smsSends).set({ attempts: attempt, status: 'failed', error: failure.slice(0, 500), updatedAt: sql`now()` }).where(eq(smsSends.id, send.id));
        break;
      }
      await sleep(retry.backoffMs[attempt - 1] ?? retry.backoffMs.at(-1) ?? 0);
    }
  }
  await expire();
  throw new ApiError(503, CODE_NOT_SENT);
}

/** A receipt moves a send forward only: a late 'sent' never undoes 'delivered'. */
async function applyReceipt(db: Db, provider: string, providerId: string, providerStatus: string, error: string | null) {
  const status = receiptStatus(providerStatus);
  if (status === 'sent') return;
  await db.update(smsSends).set({ status, error, updatedAt: sql`now()` })
    .where(and(eq(smsSends.provider, provider), eq(smsSends.providerId, providerId), sql`${smsSends.status} <> 'delivered'`));
}

/** Twilio's statuses after which a message has its price (the Message resource's `price`). */
const TWILIO_PRICED = new Set(['sent', 'delivered', 'undelivered', 'failed']);

/** The cost of a send its provider priced later (Twilio), kept once known; a failure to read it is only logged. */
async function recordCost(ctx: AppContext, providerId: string) {
  try {
    const priced = await ctx.sms.costOf?.(providerId);
    if (!priced) return;
    await ctx.db.update(smsSends).set({ cost: String(priced.cost), currency: priced.currency, updatedAt: sql`now()` })
      .where(and(eq(smsSends.provider, providerName(ctx.sms)), eq(smsSends.providerId, providerId)));
  } catch {
    // the cost stays unknown; the per-day statistics count it as 0
  }
}

const SmsSendingState = Obj('SmsSendingState', {
  provider: Type.String({ description: "'outbox' (nothing is sent, codes are read on /ValidationCode) or the provider's name." }),
  paused: Type.Boolean(),
  pausedAt: Type.Union([Type.String(), Type.Null()]),
  reason: Type.Union([Type.String(), Type.Null()]),
  resumedAt: Type.Union([Type.String(), Type.Null()]),
  sent: Type.Integer({ description: 'Codes sent through the provider in the last hour (since the last resume).' }),
  verified: Type.Integer(),
});
const SmsDay = Obj('SmsDay', {
  day: Type.String({ description: 'YYYY-MM-DD, Kuwait time.' }),
  sends: Type.Integer(),
  delivered: Type.Integer(),
  failed: Type.Integer(),
  verified: Type.Integer(),
  cost: Type.Number({ description: 'As the provider reported it, in its currency.' }),
  currency: Type.Union([Type.String(), Type.Null()]),
});
const SmsDaysQuery = Obj('SmsDaysQuery', { Days: Type.Integer({ minimum: 1, maximum: 366, default: 30 }) });

/**
 * The SMS routes: the providers' delivery receipts (public, each checked the way its provider
 * allows), and for staff with `sms.guard` the breaker's state, its resume, and the sends and their
 * cost per day (under Statistic, so a pumping attack shows up as a number).
 */
export function registerSmsRoutes(app: FastifyInstance, ctx: AppContext) {
  const sendingState = async () => ({ provider: providerName(ctx.sms), ...(await breakerState(ctx.db)) });
  app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
    // Twilio's status callback: form fields MessageSid, MessageStatus, ErrorCode…, signed (X-Twilio-Signature) over the URL it called.
    scope.post(TWILIO_STATUS_PATH, { schema: { hide: true } }, async (req, reply) => {
      const params = (req.body ?? {}) as Record<string, string>;
      const secret = ctx.sms.name === 'twilio' ? ctx.sms.receiptSecret : undefined;
      const url = `${ctx.config.publicUrl.replace(/\/$/, '')}${req.url}`;
      if (!secret || !validTwilioSignature(secret, url, params, req.headers['x-twilio-signature'] as string | undefined)) {
        return reply.status(403).send({ success: false });
      }
      if (params.MessageSid && params.MessageStatus) {
        await applyReceipt(ctx.db, 'twilio', params.MessageSid, params.MessageStatus, params.ErrorCode ? `Twilio error ${params.ErrorCode}` : null);
        // Twilio prices a message once it went out, and no callback carries the price: read it after the answer.
        if (TWILIO_PRICED.has(params.MessageStatus)) void recordCost(ctx, params.MessageSid);
      }
      return reply.status(204).send();
    });
    // Unifonic's DLR webhook (form or JSON: MessageID, DLR "Delivered" | "Undeliverable", Recipient…); unsigned, so its URL carries our secret.
    scope.post('/api/Sms/UnifonicDlr', { schema: { hide: true } }, async (req, reply) => {
      const token = (req.query as Record<string, string>).token;
      const secret = ctx.sms.name === 'unifonic' ? ctx.sms.receiptSecret : undefined;
      if (!secret || token !== secret) return reply.status(403).send({ success: false });
      const body = (req.body ?? {}) as Record<string, unknown>;
      const id = body.MessageID ?? body.messageId, status = body.DLR ?? body.Status ?? body.status;
      if (id != null && typeof status === 'string') await applyReceipt(ctx.db, 'unifonic', String(id), status, null);
      return reply.status(200).send({ success: true });
    });
  });

  service(app, ctx, 'Sms', [
    route({
      method: 'GET', name: 'GetSendingState', access: 'sms.guard',
      summary: 'The SMS provider and the pumping guard: whether sending is paused, why, and the last hour\'s sent and verified codes.',
      result: SmsSendingState,
      handler: sendingState,
    }),
    route({
      method: 'POST', name: 'ResumeSending', access: 'sms.guard',
      summary: 'Resumes sending codes after the circuit breaker paused it; the breaker counts again from now.',
      result: SmsSendingState,
      handler: async ({ caller }) => {
        await resumeSending(ctx.db, caller?.id ?? null);
        return sendingState();
      },
    }),
  ]);
  service(app, ctx, 'Statistic', [
    route({
      method: 'GET', name: 'GetSmsSendsPerDay', access: 'sms.guard',
      summary: 'Codes sent through the SMS provider per day (Kuwait time), newest first: sends, delivered, failed, verified and their cost.',
      query: SmsDaysQuery, result: Type.Array(SmsDay),
      handler: async ({ query }) => {
        const rows = rowsOf<{ day: string; sends: number; delivered: number; failed: number; verified: number; cost: string | null; currency: string | null }>(await ctx.db.execute(sql`
          select to_char(s.created_at at time zone 'Asia/Kuwait', 'YYYY-MM-DD') as day, count(*)::int as sends,
                 count(*) filter (where s.status = 'delivered')::int as delivered, count(*) filter (where s.status = 'failed')::int as failed,
                 count(o.used_at)::int as verified, coalesce(sum(s.cost), 0)::text as cost, max(s.currency) as currency
          from sms_sends s join sms_outbox o on o.id = s.outbox_id
          where s.created_at > now() - make_interval(days => ${query.Days})
          group by 1 order by 1 desc`));
        return rows.map((r) => ({ ...r, sends: Number(r.sends), delivered: Number(r.delivered), failed: Number(r.failed), verified: Number(r.verified), cost: Number(r.cost ?? 0) }));
      },
    }),
  ]);
}
