import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * What a provider said about one SMS it took: its message id, its status ('sent': accepted,
 * a receipt may follow) and what it cost when the provider says at once.
 */
export interface SmsReceipt {
  providerId: string | null;
  status: string;
  cost: number | null;
  currency: string | null;
}

/**
 * A send that did not go: `retryable` for no answer, a time-out, a 429 or a 5xx (tried again with a
 * backoff, server/messages/smsSends.ts); false for an answer that will not change (a refused number,
 * a wrong AppSid).
 */
export class SmsSendError extends Error {
  constructor(message: string, readonly retryable: boolean) { super(message); }
}

/**
 * The port an SMS provider implements (issue 27). `embeddedOutbox` is true only for the development
 * default, which sends nothing and leaves the code in the outbox table for staff to read on
 * /ValidationCode; a real provider says false, and then nobody reads codes. `name` is what sms_sends
 * records; a provider without a name (a test's stand-in) is not recorded.
 */
export interface SmsProvider {
  readonly embeddedOutbox: boolean;
  readonly name?: string;
  /** What its delivery receipts are checked with: Twilio's auth token (the signature), Unifonic's DLR URL secret. */
  readonly receiptSecret?: string;
  /** Sends one text; `reference` is ours (the outbox row), passed where the provider keeps one. */
  send(phoneNumber: string, text: string, reference?: string): Promise<SmsReceipt | void>;
  /** A provider that prices a message only once it went out (Twilio): its cost, read after a receipt; null when not known yet. */
  costOf?(providerId: string): Promise<{ cost: number; currency: string | null } | null>;
}
export const outboxSmsProvider: SmsProvider = { embeddedOutbox: true, async send() {} };

/** What sms_sends and the console call a provider: 'outbox' for the embedded one, 'custom' for an unnamed stand-in. */
export const providerName = (sms: SmsProvider) => (sms.embeddedOutbox ? 'outbox' : sms.name ?? 'custom');

/** How long one call to a provider may take (default 2.5 s: three tries and their waits stay under 9 s). */
const DEFAULT_TIMEOUT_MS = 2_500;

async function post(url: string, form: Record<string, string>, headers: Record<string, string>, timeoutMs: number) {
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', ...headers },
      body: new URLSearchParams(form).toString(),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    throw new SmsSendError(`no answer: ${(err as Error).name === 'TimeoutError' ? 'timed out' : (err as Error).message}`, true);
  }
  const text = await res.text().catch(() => '');
  if (res.status === 429 || res.status >= 500) throw new SmsSendError(`HTTP ${res.status}`, true);
  let body: Record<string, unknown> = {};
  try { body = JSON.parse(text) as Record<string, unknown>; } catch { /* judged below by the status */ }
  return { status: res.status, body };
}

const numberOrNull = (value: unknown) => (value == null || value === '' || !Number.isFinite(Number(value)) ? null : Math.abs(Number(value)));

export interface UnifonicSettings {
  appSid: string;
  senderId: string;
  baseUrl?: string;
  /** The secret the DLR webhook's URL carries (?token=): Unifonic documents no signature of its own. */
  dlrToken?: string;
  timeoutMs?: number;
}

/**
 * Unifonic's messaging API (docs.unifonic.com "Sending Your First SMS via Unifonic API"): POST
 * /rest/SMS/messages, form fields AppSid, SenderID, Recipient (international, without + or 00),
 * Body and CorrelationID; the answer is `{ success, errorCode, data: { MessageID, Status, Cost,
 * CurrencyCode } }`. success false (ER-xx, e.g. ER-02 invalid number, ER-08 invalid sender ID) is final.
 */
export function unifonicProvider(settings: UnifonicSettings): SmsProvider {
  const url = `${(settings.baseUrl ?? 'https://el.cloud.unifonic.com').replace(/\/$/, '')}/rest/SMS/messages`;
  return {
    embeddedOutbox: false,
    name: 'unifonic',
    receiptSecret: settings.dlrToken,
    async send(phoneNumber, text, reference) {
      const { status, body } = await post(url, {
        AppSid: settings.appSid, SenderID: settings.senderId, Recipient: phoneNumber.replace(/\D/g, ''), Body: text,
        responseType: 'JSON', ...(reference && { CorrelationID: reference }),
      }, {}, settings.timeoutMs ?? DEFAULT_TIMEOUT_MS);
      const data = (body.data ?? {}) as Record<string, unknown>;
      if (status >= 400 || body.success !== true) {
        throw new SmsSendError(`Unifonic ${String(body.errorCode ?? `HTTP ${status}`)}: ${String(body.message ?? '')}`.trim(), false);
      }
      return {
        providerId: data.MessageID != null ? String(data.MessageID) : null,
        status: 'sent',
        cost: numberOrNull(data.Cost),
        currency: data.CurrencyCode ? String(data.CurrencyCode) : null,
      };
    },
  };
}

export interface TwilioSettings {
  accountSid: string;
  authToken: string;
  /** A sender ID (alphanumeric), a number in E.164, or a Messaging Service SID (MG…). */
  from: string;
  baseUrl?: string;
  /** Where Twilio posts the status callbacks (PUBLIC_URL + TWILIO_STATUS_PATH); none: no receipts. */
  statusCallbackUrl?: string;
  timeoutMs?: number;
}

/** The path of Twilio's status callbacks on this server. */
export const TWILIO_STATUS_PATH = '/api/Sms/TwilioStatus';

/**
 * Twilio's Programmable Messaging (twilio.com/docs/messaging/api/message-resource): POST
 * /2010-04-01/Accounts/{AccountSid}/Messages.json with basic auth (AccountSid:AuthToken), form
 * fields To, From (or MessagingServiceSid), Body, StatusCallback; 201 with `{ sid, status, price,
 * price_unit }` (price is usually null until the message is sent; negative when it is).
 */
export function twilioProvider(settings: TwilioSettings): SmsProvider {
  const base = (settings.baseUrl ?? 'https://api.twilio.com').replace(/\/$/, '');
  const url = `${base}/2010-04-01/Accounts/${encodeURIComponent(settings.accountSid)}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${settings.accountSid}:${settings.authToken}`).toString('base64')}`;
  return {
    embeddedOutbox: false,
    name: 'twilio',
    receiptSecret: settings.authToken,
    async send(phoneNumber, text) {
      const { status, body } = await post(url, {
        To: phoneNumber, Body: text,
        ...(settings.from.startsWith('MG') ? { MessagingServiceSid: settings.from } : { From: settings.from }),
        ...(settings.statusCallbackUrl && { StatusCallback: settings.statusCallbackUrl }),
      }, { authorization }, settings.timeoutMs ?? DEFAULT_TIMEOUT_MS);
      if (status >= 400 || typeof body.sid !== 'string') {
        throw new SmsSendError(`Twilio ${String(body.code ?? `HTTP ${status}`)}: ${String(body.message ?? '')}`.trim(), false);
      }
      return {
        providerId: body.sid,
        status: body.status === 'failed' || body.status === 'undelivered' ? String(body.status) : 'sent',
        cost: numberOrNull(body.price),
        currency: body.price_unit ? String(body.price_unit) : null,
      };
    },
    async costOf(sid) {
      try {
        const res = await fetch(`${url.replace(/\.json$/, '')}/${encodeURIComponent(sid)}.json`, {
          headers: { authorization, accept: 'application/json' }, signal: AbortSignal.timeout(settings.timeoutMs ?? DEFAULT_TIMEOUT_MS),
        });
        if (!res.ok) return null;
        const body = await res.json() as { price?: unknown; price_unit?: unknown };
        const cost = numberOrNull(body.price);
        return cost == null ? null : { cost, currency: body.price_unit ? String(body.price_unit) : null };
      } catch {
        return null;
      }
    },
  };
}

/**
 * Twilio's request signature (twilio.com/docs/usage/security "Validating requests"): the full URL
 * Twilio called, then each POST parameter's name and value sorted by name, signed with HMAC-SHA1
 * under the auth token, base64.
 */
export function twilioSignature(authToken: string, url: string, params: Record<string, string>): string {
  const data = url + Object.keys(params).sort().map((k) => k + params[k]).join('');
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

export function validTwilioSignature(authToken: string, url: string, params: Record<string, string>, signature: string | undefined): boolean {
  if (!signature) return false;
  const expected = Buffer.from(twilioSignature(authToken, url, params));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** The provider's word on a message, mapped to ours: 'delivered', 'undelivered', 'failed', or 'sent' (still on its way). */
export function receiptStatus(providerStatus: string): string {
  const s = providerStatus.trim().toLowerCase();
  if (s === 'delivered' || s === 'read') return 'delivered';
  if (s === 'undelivered' || s === 'undeliverable' || s === 'rejected' || s === 'expired') return 'undelivered';
  if (s === 'failed') return 'failed';
  return 'sent';
}

/**
 * SMS_PROVIDER=unifonic (UNIFONIC_APP_SID, UNIFONIC_SENDER_ID, optional UNIFONIC_BASE_URL,
 * UNIFONIC_DLR_TOKEN) or twilio (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM, optional
 * TWILIO_BASE_URL; receipts need PUBLIC_URL); unset: the embedded outbox, so `npm start` works
 * offline. A provider named without its settings stops the server at start: half a configuration
 * would send nothing.
 */
export function smsProviderFromEnv(env: NodeJS.ProcessEnv = process.env, publicUrl?: string): SmsProvider {
  const name = env.SMS_PROVIDER?.trim().toLowerCase();
  const value = (key: string) => env[key]?.trim() || undefined;
  const need = (...keys: string[]) => {
    const missing = keys.filter((k) => !value(k));
    if (missing.length) throw new Error(`SMS_PROVIDER=${name} needs ${missing.join(', ')}.`);
  };
  if (!name || name === 'outbox') return outboxSmsProvider;
  if (name === 'unifonic') {
    need('UNIFONIC_APP_SID', 'UNIFONIC_SENDER_ID');
    return unifonicProvider({
      appSid: value('UNIFONIC_APP_SID')!, senderId: value('UNIFONIC_SENDER_ID')!, baseUrl: value('UNIFONIC_BASE_URL'), dlrToken: value('UNIFONIC_DLR_TOKEN'),
    });
  }
  if (name === 'twilio') {
    need('TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM');
    return twilioProvider({
      accountSid: value('TWILIO_ACCOUNT_SID')!, authToken: value('TWILIO_AUTH_TOKEN')!, from: value('TWILIO_FROM')!, baseUrl: value('TWILIO_BASE_URL'),
      statusCallbackUrl: publicUrl ? `${publicUrl.replace(/\/$/, '')}${TWILIO_STATUS_PATH}` : undefined,
    });
  }
  throw new Error(`SMS_PROVIDER must be unifonic or twilio (or unset for the embedded outbox), not ${env.SMS_PROVIDER}.`);
}
