import { createHmac } from 'node:crypto';
import type { PaymentSettings } from '../config';
import type { AppConfig } from '../http/context';
import type { OnlinePaymentProvider, PaymentInquiry, PaymentOrder, RefundAnswer, RefundAsk } from './provider';
import { asDecimal, asNumber, callbackBase, callJson, isoCurrency, GatewayUnavailable, packRef, refKey, refPageUrl, refundStatusOf, returnUrl, type GatewayMethod } from './gateway';

/**
 * Tap Payments (developers.tap.company), over fetch: no server SDK for Node exists.
 * - create: POST /v2/charges with source `src_kw.knet` (KNET) or `src_card` (cards), redirect.url
 *   (the customer's return, Tap adds `tap_id`) and post.url (our webhook); the hosted page is
 *   transaction.url.
 * - inquiry: GET /v2/charges/{id}: CAPTURED is paid; reference.payment and reference.track are kept.
 * - refund: POST /v2/refunds, GET /v2/refunds/{id}.
 * - webhook: header `hashstring` = hex HMAC-SHA256 with the secret key over
 *   x_id…x_amount…x_currency…x_gateway_reference…x_payment_reference…x_status…x_created…,
 *   the amount at the currency's decimals (KWD 3).
 */
export const TAP = 'tap';

const SOURCE: Record<GatewayMethod, string> = { knet: 'src_kw.knet', card: 'src_card' };

/** ISO 4217 minor units of the currencies Tap takes in the Gulf; others 2. */
const DECIMALS: Record<string, number> = { KWD: 3, BHD: 3, OMR: 3, JOD: 3 };
export const tapAmountText = (amount: number | string, currency: string) => Number(amount).toFixed(DECIMALS[currency.toUpperCase()] ?? 2);

/** The text Tap's hashstring signs, from a charge object (webhook body or GET /v2/charges/{id}). */
export function tapHashText(charge: any) {
  return `x_id${charge?.id ?? ''}x_amount${tapAmountText(charge?.amount ?? 0, String(charge?.currency ?? ''))}x_currency${charge?.currency ?? ''}`
    + `x_gateway_reference${charge?.reference?.gateway ?? ''}x_payment_reference${charge?.reference?.payment ?? ''}`
    + `x_status${charge?.status ?? ''}x_created${charge?.transaction?.created ?? ''}`;
}
export const tapHashString = (charge: unknown, secretKey: string) => createHmac('sha256', secretKey).update(tapHashText(charge)).digest('hex');

const errorText = (body: any) =>
  (Array.isArray(body?.errors) ? body.errors.map((e: any) => e.description ?? e.code).join('; ') : body?.message) || 'Tap refused the request.';

const PENDING = new Set(['INITIATED', 'IN_PROGRESS']);

export function tapProvider(settings: NonNullable<PaymentSettings['tap']>, config: AppConfig, method: GatewayMethod): OnlinePaymentProvider {
  const url = (path: string) => `${settings.baseUrl}/v2/${path}`;
  const token = settings.secretKey;

  async function createPayment(order: PaymentOrder) {
    const res = await callJson(url('charges'), {
      method: 'POST', token, body: {
        amount: asNumber(order.amount), currency: isoCurrency(order.currency), customer_initiated: true, threeDSecure: true, save_card: false,
        description: `${order.merchantName} order ${order.orderNumber}`,
        reference: { transaction: order.orderNumber, order: String(order.orderId) },
        metadata: { orderId: String(order.orderId) },
        customer: { first_name: order.merchantName },
        source: { id: SOURCE[method] },
        post: { url: `${callbackBase(config)}/payments/${TAP}/webhook` },
        redirect: { url: returnUrl(config, TAP, settings.secretKey, order.orderId) },
      },
    });
    const pageUrl = res.body?.transaction?.url;
    if (res.status >= 400 || !res.body?.id || !pageUrl) throw new Error(`Tap create charge: ${errorText(res.body)}`);
    return { providerRef: packRef(String(res.body.id), pageUrl), paymentUrl: pageUrl as string };
  }

  async function inquire(providerRef: string): Promise<PaymentInquiry> {
    const res = await callJson(url(`charges/${encodeURIComponent(refKey(providerRef))}`), { method: 'GET', token });
    if (res.status >= 400 || !res.body?.id) throw new GatewayUnavailable(`Tap retrieve charge: ${errorText(res.body)}`);
    const c = res.body;
    const s = String(c.status ?? '').toUpperCase();
    const status: PaymentInquiry['status'] = s === 'CAPTURED' ? 'paid' : PENDING.has(s) ? 'pending' : 'failed';
    const created = Number(c.transaction?.created);
    return {
      status,
      amount: asDecimal(c.amount),
      paymentId: c.reference?.payment ? String(c.reference.payment) : null,
      trackId: c.reference?.track ? String(c.reference.track) : null,
      paidAt: status === 'paid' && Number.isFinite(created) ? new Date(created) : null,
      result: [s, c.response?.message].filter(Boolean).join(': ') || null,
    };
  }

  const refundAnswer = (body: any): RefundAnswer => {
    const s = String(body?.status ?? '').toUpperCase();
    return {
      status: s === 'REFUNDED' ? 'refunded' : s === 'PENDING' || s === 'IN_PROGRESS' || s === 'INITIATED' ? 'pending' : 'failed',
      refundRef: body?.id ? String(body.id) : null,
      message: [s, body?.response?.message].filter(Boolean).join(': ') || null,
    };
  };

  async function refund(ask: RefundAsk): Promise<RefundAnswer> {
    const res = await callJson(url('refunds'), {
      method: 'POST', token, body: {
        charge_id: refKey(ask.providerRef), amount: asNumber(ask.amount), currency: isoCurrency(ask.currency), reason: ask.reason || 'requested_by_customer',
        reference: { merchant: ask.key }, metadata: { key: ask.key },
      },
    });
    if (res.status >= 400) return { status: 'failed', refundRef: null, message: errorText(res.body) };
    return refundAnswer(res.body);
  }

  return {
    name: `${TAP}:${method}`,
    createPayment,
    paymentUrlOf: refPageUrl,
    inquire,
    refund,
    refundStatus: refundStatusOf(refund, async (refundRef) => {
      const res = await callJson(url(`refunds/${encodeURIComponent(refundRef)}`), { method: 'GET', token });
      if (res.status >= 400) throw new GatewayUnavailable(`Tap retrieve refund: ${errorText(res.body)}`);
      return refundAnswer(res.body);
    }),
  };
}
