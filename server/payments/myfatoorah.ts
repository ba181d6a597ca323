import { createHmac } from 'node:crypto';
import type { PaymentSettings } from '../config';
import type { AppConfig } from '../http/context';
import type { OnlinePaymentProvider, PaymentInquiry, PaymentOrder, RefundAnswer, RefundAsk } from './provider';
import { asDecimal, asNumber, callJson, isoCurrency, GatewayUnavailable, packRef, refKey, refPageUrl, refundStatusOf, returnUrl, type GatewayMethod } from './gateway';

/**
 * MyFatoorah (docs.myfatoorah.com), over fetch: no server SDK for Node exists.
 * - create: InitiatePayment lists the account's methods for the amount; ExecutePayment with the
 *   KNET ('kn') or VISA/MASTER ('vm') method's PaymentMethodId gives the hosted page (PaymentURL),
 *   with CallBackUrl and ErrorUrl back to us. Our webhook URL is set in MyFatoorah's portal (V2).
 * - inquiry: GetPaymentStatus by InvoiceId: the invoice is Paid when one of its transactions
 *   succeeded ('Succss'); its PaymentId and TrackId are kept for the receipt.
 * - refund: MakeRefund by PaymentId (a request that MyFatoorah's finance team carries out, so it is
 *   pending at first), then GetRefundStatus by RefundId.
 * - webhook V2: header MyFatoorah-Signature = base64 HMAC-SHA256 with the webhook secret over the
 *   event's Data fields in their documented order as `key=value` joined by ',' (null → empty).
 */
export const MYFATOORAH = 'myfatoorah';

/** The Data fields a PAYMENT_STATUS_CHANGED (code 1) event is signed over, in order (see the decisions file). */
export const PAYMENT_STATUS_SIGNED_FIELDS = ['Invoice.Id', 'Invoice.Status', 'Transaction.Status', 'Transaction.PaymentId', 'Invoice.ExternalIdentifier'] as const;

const pick = (data: unknown, path: string): unknown => path.split('.').reduce<any>((o, k) => (o == null ? undefined : o[k]), data);

/** The string MyFatoorah signs: `key=value` pairs in the given order joined by ','; a null or missing value is empty. */
export function myFatoorahSignedText(data: unknown, fields: readonly string[]) {
  return fields.map((f) => `${f}=${pick(data, f) ?? ''}`).join(',');
}
export function myFatoorahSignature(data: unknown, fields: readonly string[], secret: string) {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(Buffer.from(myFatoorahSignedText(data, fields), 'utf8')).digest('base64');
}

/** MyFatoorah's PaymentMethodCode of each of our methods (InitiatePayment's list). */
const METHOD_CODE: Record<GatewayMethod, string> = { knet: 'kn', card: 'vm' };

const errorText = (body: any) => {
  const details = Array.isArray(body?.ValidationErrors) ? body.ValidationErrors.map((e: any) => `${e.Name}: ${e.Error}`).join('; ') : '';
  return [body?.Message, details].filter(Boolean).join(' ') || 'MyFatoorah refused the request.';
};

export function myFatoorahProvider(settings: NonNullable<PaymentSettings['myfatoorah']>, config: AppConfig, method: GatewayMethod): OnlinePaymentProvider {
  const call = async (path: string, body: unknown) => callJson(`${settings.baseUrl}/v2/${path}`, { method: 'POST', token: settings.apiKey, body });

  async function createPayment(order: PaymentOrder) {
    const init = await call('InitiatePayment', { InvoiceAmount: asNumber(order.amount), CurrencyIso: isoCurrency(order.currency) });
    if (!init.body?.IsSuccess) throw new Error(`MyFatoorah InitiatePayment: ${errorText(init.body)}`);
    const found = (init.body.Data?.PaymentMethods ?? []).find((m: any) => String(m.PaymentMethodCode).toLowerCase() === METHOD_CODE[method]);
    if (!found) throw new Error(`MyFatoorah offers no ${method.toUpperCase()} method to this account.`);
    const back = returnUrl(config, MYFATOORAH, settings.apiKey, order.orderId);
    const exec = await call('ExecutePayment', {
      PaymentMethodId: found.PaymentMethodId, InvoiceValue: asNumber(order.amount), DisplayCurrencyIso: isoCurrency(order.currency),
      CallBackUrl: back, ErrorUrl: back, CustomerName: order.merchantName, CustomerReference: order.orderNumber,
      UserDefinedField: String(order.orderId), Language: 'en',
    });
    if (!exec.body?.IsSuccess || !exec.body.Data?.InvoiceId || !exec.body.Data?.PaymentURL) throw new Error(`MyFatoorah ExecutePayment: ${errorText(exec.body)}`);
    return { providerRef: packRef(String(exec.body.Data.InvoiceId), exec.body.Data.PaymentURL), paymentUrl: exec.body.Data.PaymentURL as string };
  }

  async function inquire(providerRef: string): Promise<PaymentInquiry> {
    const res = await call('GetPaymentStatus', { Key: refKey(providerRef), KeyType: 'InvoiceId' });
    if (!res.body?.IsSuccess) throw new GatewayUnavailable(`MyFatoorah GetPaymentStatus: ${errorText(res.body)}`);
    const d = res.body.Data;
    const transactions: any[] = d.InvoiceTransactions ?? [];
    const succeeded = transactions.find((t) => String(t.TransactionStatus).toLowerCase() === 'succss' || String(t.TransactionStatus).toLowerCase() === 'success');
    const last = succeeded ?? transactions[transactions.length - 1];
    const invoiceStatus = String(d.InvoiceStatus ?? '').toLowerCase();
    const status: PaymentInquiry['status'] = invoiceStatus === 'paid' && succeeded ? 'paid'
      : invoiceStatus === 'canceled' || invoiceStatus === 'expired' || (last && String(last.TransactionStatus).toLowerCase() === 'failed') ? 'failed'
      : 'pending';
    return {
      status,
      amount: asDecimal(d.InvoiceValue),
      paymentId: last?.PaymentId ? String(last.PaymentId) : null,
      trackId: last?.TrackId ? String(last.TrackId) : null,
      paidAt: status === 'paid' && last?.TransactionDate ? new Date(last.TransactionDate) : null,
      result: status === 'paid' ? 'CAPTURED' : last ? [last.TransactionStatus, last.Error].filter(Boolean).join(': ') : d.InvoiceStatus ?? null,
    };
  }

  const refundAnswer = (status: string | undefined, refundRef: string | null, message: string | null): RefundAnswer => {
    const s = String(status ?? '').toUpperCase();
    return { status: s === 'REFUNDED' ? 'refunded' : s === 'CANCELED' || s === 'CANCELLED' ? 'failed' : 'pending', refundRef, message };
  };

  async function refund(ask: RefundAsk): Promise<RefundAnswer> {
    // The PaymentId of the captured transaction when known; otherwise the invoice (MakeRefund takes either).
    const res = await call('MakeRefund', {
      KeyType: ask.paymentId ? 'PaymentId' : 'InvoiceId', Key: ask.paymentId ?? refKey(ask.providerRef),
      ServiceChargeOnCustomer: false, Amount: asNumber(ask.amount), Comment: ask.reason, ExternalIdentifier: ask.key,
    });
    if (!res.body?.IsSuccess) return { status: 'failed', refundRef: null, message: errorText(res.body) };
    return { status: 'pending', refundRef: String(res.body.Data?.RefundId ?? ''), message: 'MyFatoorah reviews the refund before it reaches the card.' };
  }

  return {
    name: `${MYFATOORAH}:${method}`,
    createPayment,
    paymentUrlOf: refPageUrl,
    inquire,
    refund,
    refundStatus: refundStatusOf(refund, async (refundRef) => {
      const res = await call('GetRefundStatus', { KeyType: 'RefundId', Key: refundRef });
      if (!res.body?.IsSuccess) throw new GatewayUnavailable(`MyFatoorah GetRefundStatus: ${errorText(res.body)}`);
      const row = (res.body.Data?.RefundStatusResult ?? []).find((r: any) => String(r.RefundId) === refundRef) ?? res.body.Data?.RefundStatusResult?.[0];
      return refundAnswer(row?.RefundStatus, refundRef, row?.RefundStatus ? `MyFatoorah: ${row.RefundStatus}` : null);
    }),
  };
}
