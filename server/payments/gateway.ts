import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AppConfig } from '../http/context';
import { filsToDecimal, toFils } from '../../domain/money';
import type { RefundAnswer, RefundAsk } from './provider';

/**
 * What the MyFatoorah and Tap adapters share: the payment reference, the URLs given to the
 * provider, the calls over fetch, and the timing-safe compare of a signature.
 */

/** The methods a gateway's payment system takes (payment_systems.provider `myfatoorah:knet`, `tap:card`, ...). */
export type GatewayMethod = 'knet' | 'card';

/**
 * payments.provider_ref of a gateway payment: the provider's id (MyFatoorah's InvoiceId, Tap's
 * charge id), then '~' and the hosted page's URL (base64url), so that the page of a payment already
 * started is answered again without a call (PaymentProvider.paymentUrlOf). Callbacks name the id:
 * a payment is found by the key part (index payments_provider_key_idx).
 */
export const packRef = (key: string, pageUrl: string) => `${key}~${Buffer.from(pageUrl).toString('base64url')}`;
export const refKey = (ref: string) => ref.split('~', 1)[0];
export function refPageUrl(ref: string): string | null {
  const i = ref.indexOf('~');
  return i < 0 ? null : Buffer.from(ref.slice(i + 1), 'base64url').toString('utf8') || null;
}

/** The absolute origin the provider calls back and returns the customer to (PUBLIC_URL in production). */
export const callbackBase = (config: AppConfig) => config.publicUrl.replace(/\/+$/, '');

/**
 * The customer's return from the provider's page carries the order and a MAC of it under the
 * provider's secret, so the return can name the order's tracking hash without anyone being able to
 * ask for another order's. The return only triggers an inquiry; it is never trusted as a payment.
 */
export const returnToken = (secret: string, orderId: number) =>
  createHmac('sha256', secret).update(`return:${orderId}`).digest('base64url').slice(0, 32);
export function returnUrl(config: AppConfig, provider: string, secret: string, orderId: number) {
  return `${callbackBase(config)}/payments/${provider}/return?${new URLSearchParams({ o: String(orderId), t: returnToken(secret, orderId) })}`;
}

/** Timing-safe compare of two signatures as text; a different length is simply not equal. */
export function sameSignature(expected: string, given: string | undefined | null): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given.trim());
  return a.length === b.length && timingSafeEqual(a, b);
}

/** An amount as the provider's number (KWD: 3 decimals) and back to our 3-decimal text. */
export const asNumber = (amount: string) => Number(filsToDecimal(toFils(amount)));
export const asDecimal = (amount: unknown): string | null =>
  amount === null || amount === undefined || amount === '' || Number.isNaN(Number(amount)) ? null : filsToDecimal(toFils(Number(amount)));

/** The ISO 4217 code a gateway is told: the brands' currency is written 'KD' (currencies.code), the gateways know KWD. */
export const isoCurrency = (code: string) => (code.toUpperCase() === 'KD' ? 'KWD' : code.toUpperCase());

/** A gateway that could not be reached or answered 5xx: the caller (refund worker, reconciliation) asks again later. */
export class GatewayUnavailable extends Error {}

const TIMEOUT_MS = 20_000;

/** One JSON call; a network error, a time-out or a 5xx throws GatewayUnavailable, any other answer is returned with its status. */
export async function callJson(url: string, init: { method: 'GET' | 'POST'; token: string; body?: unknown }): Promise<{ status: number; body: any }> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: init.method,
      headers: { authorization: `Bearer ${init.token}`, accept: 'application/json', ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
    throw new GatewayUnavailable(`${new URL(url).host} could not be reached: ${err instanceof Error ? err.message : String(err)}`);
  }
  const text = await res.text();
  if (res.status >= 500) throw new GatewayUnavailable(`${new URL(url).host} answered ${res.status}`);
  let body: unknown = null;
  try { body = text ? JSON.parse(text) : null; } catch { body = { message: text.slice(0, 200) }; }
  return { status: res.status, body };
}

/**
 * A gateway's refundStatus: a refund the provider gave no reference for (its first answer was lost,
 * or it never answered) is asked again under the same key (`refund`); otherwise the provider's
 * refund is looked up (`lookUp`).
 */
export const refundStatusOf = (refund: (ask: RefundAsk) => Promise<RefundAnswer>, lookUp: (refundRef: string) => Promise<RefundAnswer>) =>
  (ask: RefundAsk, refundRef: string | null): Promise<RefundAnswer> => (refundRef ? lookUp(refundRef) : refund(ask));
