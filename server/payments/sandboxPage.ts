import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { brands, currencies, orders, payments } from '../db/schema';
import { ApiError } from '../http/envelope';
import type { AppConfig, AppContext } from '../http/context';
import { transitionOrder } from '../orders/transition';
import { formatMoney } from '../../domain/money';
import { SANDBOX_PATH, trackOrderUrl } from './sandbox';

/**
 * The sandbox provider's hosted page (server/payments/sandbox.ts): the amount and the merchant,
 * with Pay and Cancel. Apart from the provider so that the payments registry, which the order
 * lifecycle reaches through refunds, does not lead back to the lifecycle.
 */
type SandboxPayment = Awaited<ReturnType<typeof loadPayment>> | null;

async function loadPayment(ctx: AppContext, ref: string) {
  const [row] = await ctx.db
    .select({
      id: payments.id, status: payments.status, amount: payments.amount, orderId: orders.id, orderNumber: orders.orderNumber,
      ohash: orders.ohash, merchant: brands.name, currency: currencies.code,
    })
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .innerJoin(brands, eq(brands.id, orders.brandId))
    .innerJoin(currencies, eq(currencies.id, brands.currencyId))
    .where(and(eq(payments.providerRef, ref), eq(payments.provider, 'sandbox')));
  return row ?? null;
}

/**
 * Pays or cancels a pending sandbox payment. Only a pending payment changes (conditional update),
 * so paying twice, or paying after cancelling, changes nothing. A paid payment always (re)asks the
 * order lifecycle to mark the order paid, which is a no-op when it already is: a retry heals an
 * interrupted first attempt, and nothing is counted twice.
 */
export async function settleSandboxPayment(ctx: AppContext, ref: string, action: 'pay' | 'cancel'): Promise<SandboxPayment> {
  const payment = await loadPayment(ctx, ref);
  if (!payment) return null;
  if (payment.status === 'pending') {
    await ctx.db.update(payments)
      .set({ status: action === 'pay' ? 'paid' : 'cancelled', updatedAt: new Date() })
      .where(and(eq(payments.id, payment.id), eq(payments.status, 'pending')));
  }
  const settled = (await loadPayment(ctx, ref))!;
  if (settled.status === 'paid') await markOrderPaid(ctx, settled.orderId);
  return settled;
}

/** order.markPaid through the lifecycle (server/orders/transition.ts); retried when a staff change races it. */
async function markOrderPaid(ctx: AppContext, orderId: number) {
  for (let attempt = 1; ; attempt++) {
    try {
      await transitionOrder(ctx, orderId, { type: 'order.markPaid' }, null);
      return;
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 409) || attempt >= 3) throw err;
    }
  }
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const PAGE_STYLE = `
body{font-family:system-ui,sans-serif;background:#f4f5f7;margin:0;display:flex;min-height:100vh;align-items:center;justify-content:center}
main{background:#fff;border-radius:12px;box-shadow:0 2px 12px #0002;padding:32px;max-width:380px;width:100%}
h1{font-size:20px;margin:0 0 4px}.note{color:#777;font-size:13px;margin:0 0 20px}
dl{display:grid;grid-template-columns:auto 1fr;gap:8px 16px;margin:0 0 24px}dt{color:#555}dd{margin:0;font-weight:600;text-align:right}
.actions{display:flex;gap:12px}form{flex:1}button{width:100%;padding:12px;border-radius:8px;border:0;font-size:16px;cursor:pointer}
.pay{background:#1f7a4d;color:#fff}.cancel{background:#e6e7ea;color:#222}a{color:#1f5fa8}
`;

const PAGE_STYLE_HASH = createHash('sha256').update(PAGE_STYLE).digest('base64');

/** The page allows nothing but its own stylesheet (by hash, no 'unsafe-inline') and its two forms. */
function pageContentSecurityPolicy(config: AppConfig) {
  return `default-src 'none'; style-src 'sha256-${PAGE_STYLE_HASH}'; form-action 'self' ${new URL(config.publicUrl).origin}; frame-ancestors 'none'; base-uri 'none'`;
}

function page(title: string, body: string) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${PAGE_STYLE}</style></head><body><main>${body}</main></body></html>`;
}

function paymentPage(p: NonNullable<SandboxPayment>, ref: string) {
  const base = `${SANDBOX_PATH}/${encodeURIComponent(ref)}`;
  const details = `<dl><dt>Merchant</dt><dd>${escapeHtml(p.merchant)}</dd><dt>Order</dt><dd>${escapeHtml(p.orderNumber)}</dd>`
    + `<dt>Amount</dt><dd>${escapeHtml(formatMoney(p.amount, p.currency))}</dd></dl>`;
  if (p.status !== 'pending') {
    return page('Payment', `<h1>${p.status === 'paid' ? 'This payment is complete' : 'This payment was cancelled'}</h1>${details}`
      + `<form method="post" action="${base}/${p.status === 'paid' ? 'pay' : 'cancel'}"><button class="cancel">Back to the order</button></form>`);
  }
  return page('Sandbox payment', `<h1>Sandbox payment</h1><p class="note">A test payment page: no card is charged.</p>${details}`
    + `<div class="actions"><form method="post" action="${base}/pay"><button class="pay">Pay</button></form>`
    + `<form method="post" action="${base}/cancel"><button class="cancel">Cancel</button></form></div>`);
}

const notFoundPage = (reply: FastifyReply) =>
  reply.status(404).type('text/html; charset=utf-8').send(page('Payment not found', '<h1>Payment not found</h1><p>This payment link is not valid.</p>'));

/** The hosted sandbox page and its two actions; server-rendered HTML, outside the REST API and the OpenAPI document. */
export function registerSandboxPayments(app: FastifyInstance, ctx: AppContext) {
  app.register(async (scope) => {
    // The page's forms post an empty urlencoded body; everything is in the URL.
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, _body, done) => done(null, {}));
    scope.addHook('onSend', async (_req, reply) => {
      reply.header('cache-control', 'no-store').header('content-security-policy', pageContentSecurityPolicy(ctx.config));
    });
    const hide = { schema: { hide: true } };

    scope.get<{ Params: { ref: string } }>(`${SANDBOX_PATH}/:ref`, hide, async (req, reply) => {
      const p = await loadPayment(ctx, req.params.ref);
      if (!p) return notFoundPage(reply);
      return reply.type('text/html; charset=utf-8').send(paymentPage(p, req.params.ref));
    });
    for (const action of ['pay', 'cancel'] as const) {
      scope.post<{ Params: { ref: string } }>(`${SANDBOX_PATH}/:ref/${action}`, hide, async (req, reply) => {
        const p = await settleSandboxPayment(ctx, req.params.ref, action);
        if (!p) return notFoundPage(reply);
        return reply.redirect(trackOrderUrl(ctx.config, p), 303);
      });
    }
  });
}
