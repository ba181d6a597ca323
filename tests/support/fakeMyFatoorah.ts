import { createHmac, randomInt } from 'node:crypto';
import { deliver, hostedPage, listenLocal, redirect, sendJson, withQuery } from './fakeHttp';

/**
 * MyFatoorah as a local server, following its documented protocol (docs.myfatoorah.com):
 * POST /v2/InitiatePayment, /v2/ExecutePayment (hosted page at PaymentURL, CallBackUrl/ErrorUrl
 * get paymentId and Id), /v2/GetPaymentStatus, /v2/MakeRefund, /v2/GetRefundStatus; webhook V2
 * events (PAYMENT_STATUS_CHANGED) signed in MyFatoorah-Signature. Its webhook URL is set as in the
 * portal (`webhookUrl`). Tests steer it: pay/fail as the customer would, send callbacks (right,
 * wrong, replayed, out of order), give inquiry answers (paid for another amount), refund modes.
 */
export interface MfTransaction { status: 'Succss' | 'Failed' | 'InProgress'; paymentId: string; trackId: string; date: string; error?: string }
export interface MfInvoice {
  id: string; value: number; currency: string; callbackUrl: string; errorUrl: string; methodId: number; customerReference: string;
  status: 'Pending' | 'Paid' | 'Canceled'; transactions: MfTransaction[];
}

const SIGNED = ['Invoice.Id', 'Invoice.Status', 'Transaction.Status', 'Transaction.PaymentId', 'Invoice.ExternalIdentifier'];

export async function startFakeMyFatoorah(opts: { apiKey: string; webhookSecret: string; webhookUrl?: string; retries?: number; retryDelayMs?: number }) {
  const invoices = new Map<string, MfInvoice>();
  const refunds = new Map<string, { asks: number; amount: number; key: string | null }>();
  /** What the inquiry answers instead, per invoice (a paid answer for another amount, a provider that is down). */
  const override = new Map<string, Partial<{ status: MfInvoice['status']; value: number; down: boolean }>>();
  const state = { webhookUrl: opts.webhookUrl ?? '', refundMode: 'done' as 'done' | 'pendingThenDone' | 'declined', seq: 0, inquiries: 0, refundCalls: 0, deliveries: [] as number[] };

  const payload = (inv: MfInvoice, t: MfTransaction, reference = `WH-${++state.seq}`) => ({
    Event: { Code: 1, Name: 'PAYMENT_STATUS_CHANGED', CountryIsoCode: 'KWT', CreationDate: new Date().toISOString(), Reference: reference },
    Data: {
      Invoice: { Id: inv.id, Status: t.status === 'Succss' ? 'PAID' : 'PENDING', Reference: `2026${inv.id}`, CreationDate: new Date().toISOString(), ExpirationDate: null, ExternalIdentifier: null, UserDefinedField: inv.customerReference },
      Transaction: { Id: `T${t.paymentId}`, Status: t.status === 'Succss' ? 'SUCCESS' : 'FAILED', PaymentMethod: inv.methodId === 1 ? 'KNET' : 'VISA/MASTER', PaymentId: t.paymentId, ReferenceId: t.paymentId, TrackId: t.trackId, AuthorizationId: '', TransactionDate: t.date },
      Amount: { BaseCurrency: 'KWD', ValueInBaseCurrency: String(inv.value), ServiceCharge: '0', ValueInPayCurrency: String(inv.value), PayCurrency: inv.currency },
      Customer: { Name: 'Guest', Mobile: '', Email: null },
    },
  });
  /** Independent of the server's code: HMAC-SHA256 (base64) over the Data fields in order, `key=value` joined by ','. */
  const sign = (data: any, secret = opts.webhookSecret) => createHmac('sha256', secret)
    .update(SIGNED.map((f) => `${f}=${f.split('.').reduce((o: any, k) => (o == null ? undefined : o[k]), data) ?? ''}`).join(',')).digest('base64');

  async function callback(inv: MfInvoice, t: MfTransaction, o: { signature?: 'right' | 'wrong' | 'none'; reference?: string; retries?: number } = {}) {
    const body = payload(inv, t, o.reference);
    const headers: Record<string, string> = o.signature === 'none' ? {} : { 'MyFatoorah-Signature': o.signature === 'wrong' ? sign(body.Data, 'not-the-secret') : sign(body.Data) };
    const status = await deliver(state.webhookUrl, headers, body, { retries: o.retries ?? opts.retries ?? 0, delayMs: opts.retryDelayMs ?? 500 });
    state.deliveries.push(status);
    return { status, body, reference: body.Event.Reference };
  }

  const transact = (inv: MfInvoice, ok: boolean): MfTransaction => {
    const t: MfTransaction = { status: ok ? 'Succss' : 'Failed', paymentId: `0706${inv.id}${randomInt(1e8)}`, trackId: `27-11-2026_${randomInt(1e7)}`, date: new Date().toISOString(), ...(ok ? {} : { error: 'NOT CAPTURED' }) };
    inv.transactions.push(t);
    if (ok) inv.status = 'Paid';
    return t;
  };

  const server = await listenLocal(async (req, res, url) => {
    const path = url.pathname;
    const page = /^\/pay\/(\d+)(?:\/(pay|fail))?$/.exec(path);
    if (page) {
      const inv = invoices.get(page[1]);
      if (!inv) return sendJson(res, 404, { message: 'no such invoice' });
      if (req.method === 'GET') {
        res.setHeader('content-type', 'text/html; charset=utf-8');
        return void res.end(hostedPage('MyFatoorah test payment', `${inv.value.toFixed(3)} ${inv.currency}`, `/pay/${inv.id}/pay`, `/pay/${inv.id}/fail`));
      }
      const ok = page[2] === 'pay';
      const t = transact(inv, ok);
      // The webhook (with its retries) goes on while the customer is sent back, as on the real page.
      void callback(inv, t);
      return redirect(res, withQuery(ok ? inv.callbackUrl : inv.errorUrl, { paymentId: t.paymentId, Id: t.paymentId }));
    }
    if (req.headers.authorization !== `Bearer ${opts.apiKey}`) return sendJson(res, 401, { IsSuccess: false, Message: 'Unauthorized' });
    const b = req.body ?? {};
    switch (path) {
      case '/v2/InitiatePayment':
        return sendJson(res, 200, { IsSuccess: true, Message: 'Initiated Successfully!', Data: { PaymentMethods: [
          { PaymentMethodId: 1, PaymentMethodEn: 'KNET', PaymentMethodCode: 'kn', TotalAmount: b.InvoiceAmount, CurrencyIso: 'KWD' },
          { PaymentMethodId: 2, PaymentMethodEn: 'VISA/MASTER', PaymentMethodCode: 'vm', TotalAmount: b.InvoiceAmount, CurrencyIso: 'KWD' },
        ] } });
      case '/v2/ExecutePayment': {
        if (!b.PaymentMethodId || !(b.InvoiceValue > 0)) return sendJson(res, 400, { IsSuccess: false, Message: 'Invalid data', ValidationErrors: [{ Name: 'InvoiceValue', Error: 'required' }] });
        const id = String(6_000_000 + invoices.size + 1);
        invoices.set(id, { id, value: b.InvoiceValue, currency: b.DisplayCurrencyIso, callbackUrl: b.CallBackUrl, errorUrl: b.ErrorUrl, methodId: b.PaymentMethodId, customerReference: b.CustomerReference, status: 'Pending', transactions: [] });
        return sendJson(res, 200, { IsSuccess: true, Message: 'Invoice Created Successfully!', Data: { InvoiceId: Number(id), IsDirectPayment: false, PaymentURL: `${server.url}/pay/${id}`, CustomerReference: b.CustomerReference, UserDefinedField: b.UserDefinedField } });
      }
      case '/v2/GetPaymentStatus': {
        state.inquiries++;
        const inv = invoices.get(String(b.Key));
        const o = inv ? override.get(inv.id) : undefined;
        if (o?.down) return sendJson(res, 503, { IsSuccess: false, Message: 'Service unavailable' });
        if (!inv || b.KeyType !== 'InvoiceId') return sendJson(res, 400, { IsSuccess: false, Message: 'Invalid key', ValidationErrors: [{ Name: 'Key', Error: 'not found' }] });
        return sendJson(res, 200, { IsSuccess: true, Message: '', Data: {
          InvoiceId: Number(inv.id), InvoiceStatus: o?.status ?? inv.status, InvoiceReference: `2026${inv.id}`, CustomerReference: inv.customerReference,
          InvoiceValue: o?.value ?? inv.value, InvoiceDisplayValue: `${(o?.value ?? inv.value).toFixed(3)} KD`,
          InvoiceTransactions: inv.transactions.map((t) => ({ TransactionDate: t.date, PaymentGateway: inv.methodId === 1 ? 'KNET' : 'VISA/MASTER', TransactionStatus: t.status, PaymentId: t.paymentId, TrackId: t.trackId, Error: t.error ?? null, TransationValue: String(inv.value) })),
        } });
      }
      case '/v2/MakeRefund': {
        state.refundCalls++;
        if (state.refundMode === 'declined') return sendJson(res, 400, { IsSuccess: false, Message: 'The refund was declined.', ValidationErrors: null });
        const id = String(900 + refunds.size + 1);
        refunds.set(id, { asks: 0, amount: b.Amount, key: b.ExternalIdentifier ?? null });
        return sendJson(res, 200, { IsSuccess: true, Message: 'Refund request created', Data: { Key: b.Key, RefundId: Number(id), RefundReference: `R${id}`, Amount: b.Amount, Comment: b.Comment } });
      }
      case '/v2/GetRefundStatus': {
        const r = refunds.get(String(b.Key));
        if (!r) return sendJson(res, 400, { IsSuccess: false, Message: 'Refund not found' });
        r.asks++;
        const status = state.refundMode === 'pendingThenDone' && r.asks < 2 ? 'PENDING' : 'REFUNDED';
        return sendJson(res, 200, { IsSuccess: true, Data: { RefundStatusResult: [{ RefundId: Number(b.Key), RefundStatus: status, RefundAmount: r.amount }] } });
      }
      default:
        return sendJson(res, 404, { IsSuccess: false, Message: 'Not found' });
    }
  });

  const invoiceOf = (idOrRef: string) => {
    const inv = invoices.get(idOrRef.split('~', 1)[0]);
    if (!inv) throw new Error(`fake MyFatoorah: no invoice ${idOrRef}`);
    return inv;
  };
  return {
    url: server.url,
    state, invoices, refunds, override, sign,
    setWebhookUrl(url: string) { state.webhookUrl = url; },
    /** The customer pays (or fails) on the page without the browser: the transaction and its webhook. */
    async pay(ref: string, o: Parameters<typeof callback>[2] = {}) { const inv = invoiceOf(ref); return { ...(await callback(inv, transact(inv, true), o)), invoice: inv }; },
    async fail(ref: string, o: Parameters<typeof callback>[2] = {}) { const inv = invoiceOf(ref); return { ...(await callback(inv, transact(inv, false), o)), invoice: inv }; },
    /** A callback about the invoice's transaction `index` again (a replay, or an old one arriving late). */
    resend(ref: string, index: number, o: Parameters<typeof callback>[2] = {}) { const inv = invoiceOf(ref); return callback(inv, inv.transactions[index], o); },
    /** The customer's browser coming back (CallBackUrl with paymentId and Id) without paying. */
    callbackUrlOf(ref: string) { return invoiceOf(ref).callbackUrl; },
    close: server.close,
  };
}
export type FakeMyFatoorah = Awaited<ReturnType<typeof startFakeMyFatoorah>>;
