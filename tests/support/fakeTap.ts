import { createHmac, randomInt } from 'node:crypto';
import { deliver, hostedPage, listenLocal, redirect, sendJson, withQuery } from './fakeHttp';

/**
 * Tap Payments as a local server, following its documented protocol (developers.tap.company):
 * POST /v2/charges (hosted page at transaction.url; redirect.url gets tap_id; post.url gets the
 * charge, signed in the `hashstring` header), GET /v2/charges/{id}, POST /v2/refunds,
 * GET /v2/refunds/{id}. Tests steer it as the MyFatoorah fake.
 */
export interface TapCharge {
  id: string; object: 'charge'; status: string; amount: number; currency: string;
  reference: { transaction?: string; order?: string; gateway?: string; payment?: string; track?: string };
  transaction: { url: string; created: string }; redirect: { url: string }; post: { url: string }; response: { code: string; message: string };
}

const DECIMALS: Record<string, number> = { KWD: 3, BHD: 3, OMR: 3, JOD: 3 };

export async function startFakeTap(opts: { secretKey: string; retries?: number; retryDelayMs?: number }) {
  const charges = new Map<string, TapCharge>();
  const refunds = new Map<string, { id: string; status: string; amount: number; asks: number; charge_id: string }>();
  const override = new Map<string, Partial<{ status: string; amount: number; down: boolean }>>();
  const state = { refundMode: 'done' as 'done' | 'pendingThenDone' | 'declined', inquiries: 0, refundCalls: 0, deliveries: [] as number[] };

  /** Independent of the server's code: hex HMAC-SHA256 over the named fields, the amount at the currency's decimals. */
  const hash = (c: TapCharge, secret = opts.secretKey) => createHmac('sha256', secret).update(
    `x_id${c.id}x_amount${c.amount.toFixed(DECIMALS[c.currency] ?? 2)}x_currency${c.currency}x_gateway_reference${c.reference.gateway ?? ''}`
    + `x_payment_reference${c.reference.payment ?? ''}x_status${c.status}x_created${c.transaction.created}`).digest('hex');

  async function post(c: TapCharge, o: { signature?: 'right' | 'wrong' | 'none'; retries?: number } = {}) {
    const snapshot = structuredClone(c);
    const headers: Record<string, string> = o.signature === 'none' ? {} : { hashstring: o.signature === 'wrong' ? hash(snapshot, 'sk_test_wrong') : hash(snapshot) };
    const status = await deliver(c.post.url, headers, snapshot, { retries: o.retries ?? opts.retries ?? 0, delayMs: opts.retryDelayMs ?? 500 });
    state.deliveries.push(status);
    return { status, body: snapshot };
  }
  const settle = (c: TapCharge, ok: boolean) => {
    c.status = ok ? 'CAPTURED' : 'DECLINED';
    c.reference = { ...c.reference, gateway: `${randomInt(1e9)}`, payment: `${randomInt(1e9)}${randomInt(1e6)}`, track: `${randomInt(1e9)}` };
    c.response = ok ? { code: '000', message: 'Captured' } : { code: '507', message: 'Declined, Card Issuer' };
    return structuredClone(c);
  };

  const server = await listenLocal(async (req, res, url) => {
    const path = url.pathname;
    const page = /^\/pay\/(chg_\w+)(?:\/(pay|fail))?$/.exec(path);
    if (page) {
      const c = charges.get(page[1]);
      if (!c) return sendJson(res, 404, { errors: [{ code: '1108', description: 'charge not found' }] });
      if (req.method === 'GET') {
        res.setHeader('content-type', 'text/html; charset=utf-8');
        return void res.end(hostedPage('Tap test payment', `${c.amount.toFixed(3)} ${c.currency}`, `/pay/${c.id}/pay`, `/pay/${c.id}/fail`));
      }
      settle(c, page[2] === 'pay');
      void post(c);
      return redirect(res, withQuery(c.redirect.url, { tap_id: c.id }));
    }
    if (req.headers.authorization !== `Bearer ${opts.secretKey}`) return sendJson(res, 401, { errors: [{ code: '2107', description: 'Authentication required' }] });
    const b = req.body ?? {};
    if (req.method === 'POST' && path === '/v2/charges') {
      if (!(b.amount > 0) || !b.source?.id || !b.redirect?.url) return sendJson(res, 400, { errors: [{ code: '1117', description: 'amount, source and redirect are required' }] });
      const id = `chg_TS0${randomInt(1e9)}${charges.size + 1}`;
      const c: TapCharge = {
        id, object: 'charge', status: 'INITIATED', amount: b.amount, currency: b.currency, reference: { ...b.reference },
        transaction: { url: `${server.url}/pay/${id}`, created: String(Date.now()) }, redirect: { url: b.redirect.url }, post: { url: b.post?.url ?? '' },
        response: { code: '100', message: 'Initiated' },
      };
      charges.set(id, c);
      return sendJson(res, 200, c);
    }
    const one = /^\/v2\/charges\/(\w+)$/.exec(path);
    if (req.method === 'GET' && one) {
      state.inquiries++;
      const c = charges.get(one[1]);
      const o = c ? override.get(c.id) : undefined;
      if (o?.down) return sendJson(res, 503, { errors: [{ code: '500', description: 'unavailable' }] });
      if (!c) return sendJson(res, 404, { errors: [{ code: '1108', description: 'charge not found' }] });
      return sendJson(res, 200, { ...c, ...(o?.status ? { status: o.status } : {}), ...(o?.amount !== undefined ? { amount: o.amount } : {}) });
    }
    if (req.method === 'POST' && path === '/v2/refunds') {
      state.refundCalls++;
      if (state.refundMode === 'declined') return sendJson(res, 200, { id: `re_${randomInt(1e9)}`, object: 'refund', status: 'DECLINED', amount: b.amount, charge_id: b.charge_id, response: { code: '507', message: 'Declined' } });
      const id = `re_TS0${randomInt(1e9)}${refunds.size + 1}`;
      const r = { id, status: state.refundMode === 'done' ? 'REFUNDED' : 'PENDING', amount: b.amount, asks: 0, charge_id: b.charge_id };
      refunds.set(id, r);
      return sendJson(res, 200, { ...r, object: 'refund', currency: b.currency });
    }
    const ref = /^\/v2\/refunds\/(\w+)$/.exec(path);
    if (req.method === 'GET' && ref) {
      const r = refunds.get(ref[1]);
      if (!r) return sendJson(res, 404, { errors: [{ code: '1108', description: 'refund not found' }] });
      r.asks++;
      if (r.status === 'PENDING' && r.asks >= 1) r.status = 'REFUNDED';
      return sendJson(res, 200, { ...r, object: 'refund' });
    }
    return sendJson(res, 404, { errors: [{ code: '404', description: 'not found' }] });
  });

  const chargeOf = (idOrRef: string) => {
    const c = charges.get(idOrRef.split('~', 1)[0]);
    if (!c) throw new Error(`fake Tap: no charge ${idOrRef}`);
    return c;
  };
  return {
    url: server.url,
    state, charges, refunds, override, hash,
    async pay(ref: string, o: Parameters<typeof post>[1] = {}) { const c = chargeOf(ref); const at = settle(c, true); return { ...(await post(c, o)), charge: at }; },
    async fail(ref: string, o: Parameters<typeof post>[1] = {}) { const c = chargeOf(ref); const at = settle(c, false); return { ...(await post(c, o)), charge: at }; },
    /** A charge as it was at some moment, posted again (a replay, or a stale status arriving late). */
    async postAs(ref: string, snapshot: TapCharge, o: Parameters<typeof post>[1] = {}) { chargeOf(ref); return post(snapshot, o); },
    redirectUrlOf(ref: string) { return chargeOf(ref).redirect.url; },
    close: server.close,
  };
}
export type FakeTap = Awaited<ReturnType<typeof startFakeTap>>;
