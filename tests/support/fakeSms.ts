import { createHmac, randomBytes } from 'node:crypto';
import { listenLocal, sendJson } from './fakeHttp';

/** Twilio's signature as its security page describes it, written here apart from the server's, so the two are checked against each other. */
const sign = (authToken: string, url: string, params: Record<string, string>) =>
  createHmac('sha1', authToken).update(Object.keys(params).sort().reduce((acc, k) => acc + k + params[k], url)).digest('base64');

/** What a fake provider is told to do with the next requests: answer 5xx, never answer, refuse the number. */
export interface FakeSmsScript { failNext: number; hangNext: number; refuseNumber: boolean }

/**
 * Unifonic's messaging API as documented (docs.unifonic.com "Sending Your First SMS via Unifonic
 * API"): POST /rest/SMS/messages, form fields AppSid, SenderID, Recipient, Body, CorrelationID;
 * `{ success, message, errorCode, data: { MessageID, Status, NumberOfUnits, Cost, CurrencyCode… } }`.
 * Its DLR webhook (support.unifonic.com "Can I receive DLR receipt update through a webhook?"):
 * a POST with MessageID, DLR ("Delivered" | "Undeliverable"), Recipient, TimeCreated, SCTS, DLRTimestamp.
 */
/**
 * A provider that never answers this request: the socket is dropped after 5 s (our client gave up long
 * before). It consumes nothing else of the script, so a later failNext is kept for later requests.
 */
async function hang(res: { destroy(): unknown }) {
  await new Promise((r) => setTimeout(r, 5_000));
  res.destroy();
}

export async function fakeUnifonic(appSid: string) {
  const requests: Record<string, string>[] = [];
  const script: FakeSmsScript = { failNext: 0, hangNext: 0, refuseNumber: false };
  let next = 4_100_000;
  const server = await listenLocal(async (req, res, url) => {
    if (req.method !== 'POST' || url.pathname !== '/rest/SMS/messages') return sendJson(res, 404, { success: false });
    requests.push(req.body);
    if (script.hangNext > 0) { script.hangNext--; return hang(res); }
    if (script.failNext > 0) { script.failNext--; return sendJson(res, 503, { success: false, message: 'Service Unavailable' }); }
    if (req.body?.AppSid !== appSid) return sendJson(res, 401, { success: false, message: 'Authentication failed', errorCode: 'ER-401', data: null });
    if (script.refuseNumber) return sendJson(res, 200, { success: false, message: 'Invalid destination number', errorCode: 'ER-02', data: null });
    return sendJson(res, 200, {
      success: true, message: '', errorCode: 'ER-00',
      data: {
        MessageID: String(next++), CorrelationID: req.body.CorrelationID ?? null, Status: 'Sent', NumberOfUnits: 1,
        Cost: 0.008, CurrencyCode: 'KWD', Balance: '99.99', Recipient: req.body.Recipient, TimeCreated: new Date().toISOString(),
      },
    });
  });
  return {
    ...server, requests, script,
    /** Posts a delivery receipt to `dlrUrl` (our webhook, with its token), as Unifonic does. */
    async dlr(dlrUrl: string, messageId: string, dlr: 'Delivered' | 'Undeliverable') {
      const now = new Date().toISOString().replace('T', ' ').slice(0, 19);
      const res = await fetch(dlrUrl, {
        method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ MessageID: messageId, DLR: dlr, Recipient: '96550000000', TimeCreated: now, SCTS: now, DLRTimestamp: now }).toString(),
      });
      return res.status;
    },
  };
}

/**
 * Twilio's Messages resource as documented (twilio.com/docs/messaging/api/message-resource): POST
 * /2010-04-01/Accounts/{AccountSid}/Messages.json with basic auth, form fields To, From, Body,
 * StatusCallback; 201 `{ sid, status: 'queued', price: null, price_unit }`, 401 `{ code: 20003 }`.
 * Its status callbacks (twilio.com/docs/usage/security): a form POST to StatusCallback with
 * MessageSid, MessageStatus…, signed in X-Twilio-Signature over that URL and the sorted fields.
 */
export async function fakeTwilio(accountSid: string, authToken: string) {
  const requests: Record<string, string>[] = [];
  const script: FakeSmsScript = { failNext: 0, hangNext: 0, refuseNumber: false };
  const callbacks = new Map<string, string>();
  /** Messages that went out, and so have a price (Twilio prices a message once it is sent). */
  const priced = new Set<string>();
  const server = await listenLocal(async (req, res, url) => {
    const expected = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`;
    const one = new RegExp(`^/2010-04-01/Accounts/${accountSid}/Messages/(SM[0-9a-f]{32})\\.json$`).exec(url.pathname);
    if (req.method === 'GET' && one) {
      if (req.headers.authorization !== expected) return sendJson(res, 401, { code: 20003, message: 'Authenticate', status: 401 });
      if (!callbacks.has(one[1])) return sendJson(res, 404, { code: 20404, message: 'Not found', status: 404 });
      return sendJson(res, 200, { sid: one[1], status: priced.has(one[1]) ? 'sent' : 'queued', price: priced.has(one[1]) ? '-0.05250' : null, price_unit: 'USD' });
    }
    if (req.method !== 'POST' || url.pathname !== `/2010-04-01/Accounts/${accountSid}/Messages.json`) return sendJson(res, 404, { code: 20404, message: 'Not found', status: 404 });
    if (req.headers.authorization !== expected) return sendJson(res, 401, { code: 20003, message: 'Authenticate', status: 401 });
    requests.push(req.body);
    if (script.hangNext > 0) { script.hangNext--; return hang(res); }
    if (script.failNext > 0) { script.failNext--; return sendJson(res, 500, { code: 20500, message: 'Internal Server Error', status: 500 }); }
    if (script.refuseNumber) return sendJson(res, 400, { code: 21211, message: "The 'To' number is not a valid phone number.", status: 400 });
    const sid = `SM${randomBytes(16).toString('hex')}`;
    if (req.body.StatusCallback) callbacks.set(sid, req.body.StatusCallback);
    return sendJson(res, 201, {
      sid, account_sid: accountSid, to: req.body.To, from: req.body.From ?? null, body: req.body.Body, status: 'queued',
      price: null, price_unit: 'USD', num_segments: '1', direction: 'outbound-api', api_version: '2010-04-01',
    });
  });
  return {
    ...server, requests, script,
    /**
     * Posts a status callback for a message, signed over the StatusCallback URL it was sent with
     * (the public URL Twilio calls), to `deliverTo` (where the test server listens). `signWith`
     * replaces the auth token, to forge one.
     */
    async statusCallback(sid: string, status: string, deliverTo: string, signWith = authToken) {
      const callbackUrl = callbacks.get(sid);
      if (!callbackUrl) throw new Error(`no StatusCallback for ${sid}`);
      if (status !== 'queued' && status !== 'sending') priced.add(sid);
      const params: Record<string, string> = {
        AccountSid: accountSid, ApiVersion: '2010-04-01', MessageSid: sid, MessageStatus: status, SmsSid: sid, SmsStatus: status,
        ...(status === 'undelivered' && { ErrorCode: '30003' }),
      };
      const res = await fetch(deliverTo, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': sign(signWith, callbackUrl, params) },
        body: new URLSearchParams(params).toString(),
      });
      return res.status;
    },
  };
}
