import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../http/context';
import { trackOrderUrl } from './sandbox';
import { returnToken, sameSignature } from './gateway';
import { MYFATOORAH, myFatoorahSignature, PAYMENT_STATUS_SIGNED_FIELDS } from './myfatoorah';
import { TAP, tapHashString } from './tap';
import { orderHashOf, receiveCallback, settleReturn } from './settle';

/**
 * The gateways' server callbacks and the customer's return, outside the REST API and the OpenAPI
 * document (as the sandbox page): POST /payments/{myfatoorah|tap}/webhook, GET /payments/{..}/return.
 * A callback's signature is checked first (timing-safe): a wrong or missing one is a 401 and
 * nothing is written. Only configured gateways answer; the others are 404.
 */
export function registerGatewayPayments(app: FastifyInstance, ctx: AppContext) {
  const hide = { schema: { hide: true } };
  const refuse = (reply: FastifyReply, status: number, message: string) => reply.status(status).send({ success: false, error: { message } });

  app.post(`/payments/${MYFATOORAH}/webhook`, hide, async (req, reply) => {
    const settings = ctx.config.payments?.myfatoorah;
    if (!settings) return refuse(reply, 404, 'MyFatoorah is not configured.');
    const body = req.body as { Event?: { Code?: number; Reference?: string }; Data?: unknown } | undefined;
    const signature = req.headers['myfatoorah-signature'];
    if (!body?.Data || !body.Event) return refuse(reply, 400, 'Not a MyFatoorah webhook V2 event.');
    // Only PAYMENT_STATUS_CHANGED (code 1) moves a payment; the other events (signed over other fields) are acknowledged, nothing written.
    if (Number(body.Event.Code) !== 1) return reply.send({ success: true });
    if (!sameSignature(myFatoorahSignature(body.Data, PAYMENT_STATUS_SIGNED_FIELDS, settings.webhookSecret), Array.isArray(signature) ? signature[0] : signature)) {
      return refuse(reply, 401, 'The MyFatoorah-Signature does not match.');
    }
    const invoiceId = String((body.Data as { Invoice?: { Id?: unknown } }).Invoice?.Id ?? '');
    const eventKey = String(body.Event.Reference ?? '') || `${invoiceId}:${JSON.stringify(body.Data)}`;
    if (!invoiceId) return refuse(reply, 400, 'The event names no invoice.');
    const row = await receiveCallback(ctx, MYFATOORAH, eventKey, invoiceId, body);
    return reply.send({ success: true, processed: !!row.processedAt });
  });

  app.post(`/payments/${TAP}/webhook`, hide, async (req, reply) => {
    const settings = ctx.config.payments?.tap;
    if (!settings) return refuse(reply, 404, 'Tap is not configured.');
    const charge = req.body as { id?: string; object?: string; status?: string } | undefined;
    const hash = req.headers.hashstring;
    if (!charge?.id) return refuse(reply, 400, 'Not a Tap charge.');
    if (!sameSignature(tapHashString(charge, settings.secretKey), Array.isArray(hash) ? hash[0] : hash)) {
      return refuse(reply, 401, 'The hashstring does not match.');
    }
    // Only charges are posted here (refunds are asked about by the refund worker, with no post.url).
    if (charge.object && charge.object !== 'charge') return refuse(reply, 400, 'Only charges are taken here.');
    const row = await receiveCallback(ctx, TAP, `${charge.id}:${charge.status ?? ''}`, charge.id, charge);
    return reply.send({ success: true, processed: !!row.processedAt });
  });

  for (const [gateway, secretOf] of [
    [MYFATOORAH, () => ctx.config.payments?.myfatoorah?.apiKey],
    [TAP, () => ctx.config.payments?.tap?.secretKey],
  ] as const) {
    app.get<{ Querystring: { o?: string; t?: string } }>(`/payments/${gateway}/return`, hide, async (req, reply) => {
      const secret = secretOf();
      const orderId = Number(req.query.o);
      if (!secret || !Number.isSafeInteger(orderId) || orderId < 1 || !sameSignature(returnToken(secret, orderId), req.query.t)) {
        return reply.status(404).type('text/html; charset=utf-8').send('<!doctype html><title>Payment not found</title><h1>Payment not found</h1>');
      }
      const payment = await settleReturn(ctx, gateway, orderId);
      const ohash = await orderHashOf(ctx, orderId);
      if (!ohash) return reply.status(404).send();
      reply.header('cache-control', 'no-store');
      return reply.redirect(trackOrderUrl(ctx.config, { orderId, ohash, status: payment?.status ?? 'pending' }), 303);
    });
  }
}
