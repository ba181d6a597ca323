import { Type } from 'typebox';
import type { FastifyInstance } from 'fastify';
import { badRequest, Obj } from '../../http/envelope';
import { route, service } from '../../http/routes';
import type { AppContext } from '../../http/context';
import { fromFils, toFils } from '../../../domain/money';
import { deliveryQuote, NOT_DELIVERING } from './deliveryFee';

export const DeliveryFeeQuote = Obj('DeliveryFeeQuote', {
  brandId: Type.Integer(),
  areaId: Type.Integer(),
  /** The order amount the fee was computed for. */
  amount: Type.Number(),
  deliveryFee: Type.Number(),
  /** The area's fee before the free-delivery rule. */
  areaDeliveryFee: Type.Number(),
  freeAboveAmount: Type.Union([Type.Number(), Type.Null()]),
  isFree: Type.Boolean(),
});

export function registerShopBrandDeliveryFee(app: FastifyInstance, ctx: AppContext) {
  service(app, ctx, 'BrandDeliveryFee', [
    route({
      method: 'GET',
      name: 'GetDeliveryFeeForOrderingCustomer',
      access: 'public',
      summary: 'The delivery fee for an area and an order amount (free at or above the free-delivery amount). 400 when the brand does not deliver there.',
      query: Obj('GetDeliveryFeeForOrderingCustomerQuery', {
        BrandId: Type.Integer({ minimum: 1 }),
        AreaId: Type.Integer({ minimum: 1 }),
        Amount: Type.Optional(Type.Number({ minimum: 0, default: 0 })),
      }),
      result: DeliveryFeeQuote,
      async handler({ query, ctx }) {
        const amount = toFils(query.Amount ?? 0);
        const quote = await deliveryQuote(ctx.db, query.BrandId, query.AreaId, amount);
        if (!quote) throw badRequest(NOT_DELIVERING);
        return {
          brandId: query.BrandId, areaId: query.AreaId, amount: fromFils(amount), deliveryFee: fromFils(quote.fee),
          areaDeliveryFee: fromFils(quote.areaFee), freeAboveAmount: quote.freeAbove === null ? null : fromFils(quote.freeAbove),
          isFree: quote.fee === 0,
        };
      },
    }),
  ]);
}
