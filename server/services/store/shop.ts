import { Type } from 'typebox';
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { brandPayments, paymentSystems } from '../../db/schema';
import { Obj } from '../../http/envelope';
import { route, service } from '../../http/routes';
import type { AppContext } from '../../http/context';
import { paymentProviderFor } from '../../payments';
import { localizedColumn, requestLanguage } from '../../http/language';
import { rememberCustomerLanguage } from '../../notify/language';
import { CARD_PAYMENT_LABEL, DEFAULT_BRAND_ID, DEFAULT_PAYMENT_METHOD_ID, ORDER_HISTORY_PAGE } from '../../../domain/constants';
import { SaveNewOrderHeaders, SaveNewOrderInput, SaveNewOrderResult } from './orderInput';
import { saveNewOrder } from './saveOrder';
import { customerOrderDetail, CustomerOrderDetail, OrderHistory, orderHistory } from './customerOrders';
import { payOrderAgain, PayOrderAgainInput, PayOrderAgainQuery, PayOrderAgainResult } from './payAgain';
import { queryHoldsOrder } from './orderAccess';
import { OrderQuote, quoteOrder } from './quoteOrder';

export const ShopPaymentMethod = Obj('ShopPaymentMethod', {
  paymentSystemId: Type.Integer(),
  /** Card providers show as 'VISA/MASTER' (SPEC.md 9). */
  name: Type.String(),
  isCard: Type.Boolean(),
  isDefault: Type.Boolean(),
});

/** The shop's Store calls (SPEC.md 7 "Customer shop"); the staff's Store calls live beside them. */
export function registerShopStore(app: FastifyInstance, ctx: AppContext) {
  service(app, ctx, 'Store', [
    route({
      method: 'POST',
      name: 'SaveNewOrderVS1',
      access: 'customer',
      summary: 'Places an order, priced on the server. Send an Idempotency-Key header: a retry with the same key and body answers with the same order; the same key with another body is a 422.',
      headers: SaveNewOrderHeaders,
      body: SaveNewOrderInput,
      result: SaveNewOrderResult,
      handler: async ({ body, headers, caller, ctx, req }) => {
        // The order's notices are written in the language the customer orders in (server/notify/language.ts).
        await rememberCustomerLanguage(ctx.db, caller, req.headers);
        return saveNewOrder(ctx, caller!, body, headers['idempotency-key']?.trim() || null);
      },
    }),
    route({
      method: 'POST',
      name: 'QuoteOrder',
      access: 'customer',
      summary: 'Prices an order exactly as SaveNewOrderVS1 would (same body, same refusals), without saving anything: the amount to pay, shown before Place order.',
      body: SaveNewOrderInput,
      result: OrderQuote,
      handler: ({ body, caller, ctx }) => quoteOrder(ctx, caller!, body),
    }),
    route({
      method: 'GET',
      name: 'GetCurrentCustomerOrdersHistory',
      access: 'customer',
      summary: "The caller's orders, newest first (read from orderHistoryItems). Empty for the guest.",
      query: Obj('GetCurrentCustomerOrdersHistoryQuery', {
        skip: Type.Optional(Type.Integer({ minimum: 0, default: ORDER_HISTORY_PAGE.skip })),
        take: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: ORDER_HISTORY_PAGE.take })),
        brandId: Type.Optional(Type.Integer({ minimum: 1 })),
      }),
      result: OrderHistory,
      handler: ({ query, caller, ctx, req }) => orderHistory(ctx.db, caller!, {
        skip: query.skip ?? ORDER_HISTORY_PAGE.skip, take: query.take ?? ORDER_HISTORY_PAGE.take, brandId: query.brandId,
      }, requestLanguage(req.headers)),
    }),
    route({
      method: 'GET',
      name: 'GetStorePaymentSystemTypesForTopUpV2ForMangoes',
      access: 'public',
      summary: "The brand's enabled payment methods (default brand 7).",
      query: Obj('GetStorePaymentSystemTypesQuery', { brandId: Type.Optional(Type.Integer({ minimum: 1 })) }),
      result: Type.Array(ShopPaymentMethod),
      async handler({ query, ctx, req }) {
        const rows = await ctx.db
          .select({ paymentSystemId: paymentSystems.id, name: localizedColumn(requestLanguage(req.headers), paymentSystems.name, paymentSystems.nameAr), provider: paymentSystems.provider, isCard: paymentSystems.isCard })
          .from(brandPayments)
          .innerJoin(paymentSystems, eq(paymentSystems.id, brandPayments.paymentSystemId))
          .where(and(eq(brandPayments.brandId, query.brandId ?? DEFAULT_BRAND_ID), eq(brandPayments.isActive, true)))
          .orderBy(asc(paymentSystems.id));
        // Only methods an order can actually be paid with: the provider needs an adapter.
        return rows.filter((r) => paymentProviderFor(r.provider, ctx.config)).map((r) => ({
          paymentSystemId: r.paymentSystemId, name: r.isCard ? CARD_PAYMENT_LABEL : r.name, isCard: r.isCard,
          isDefault: r.paymentSystemId === DEFAULT_PAYMENT_METHOD_ID,
        }));
      },
    }),
    route({
      method: 'GET',
      name: 'GetOrderDetail',
      access: 'customer',
      admitsWithoutToken: (req, ctx) => queryHoldsOrder(ctx.db, req.query),
      summary: 'One order: your own in full, or the tracker of any order whose ohash you hold (status, items, totals, branch; nothing of the customer\'s own), also without a token. Otherwise 404, or 401 without a token.',
      query: Obj('GetOrderDetailQuery', {
        orderId: Type.Integer({ minimum: 1 }),
        ohash: Type.Optional(Type.String({ maxLength: 200 })),
      }),
      result: CustomerOrderDetail,
      handler: ({ query, caller, ctx, req }) => customerOrderDetail(ctx.db, caller, query.orderId, query.ohash, requestLanguage(req.headers)),
    }),
    route({
      method: 'POST',
      name: 'PayOrderAgain',
      access: 'customer',
      // The tracking link's holder pays again without a session: the order and its ohash in the query
      // admit the request before its body is read (the 401-first rule holds); the handler checks again.
      admitsWithoutToken: (req, ctx) => queryHoldsOrder(ctx.db, req.query),
      summary: 'Pay again for your order (or one whose ohash you hold, also without a token: send orderId and ohash in the query too) after a cancelled card payment: the open payment\'s link, or a new payment. 400 when the order is paid, rejected or paid at the branch.',
      query: PayOrderAgainQuery,
      body: PayOrderAgainInput,
      result: PayOrderAgainResult,
      handler: ({ query, body, caller, ctx }) => payOrderAgain(ctx, caller, body.orderId, body.ohash ?? query.ohash),
    }),
  ]);
}
