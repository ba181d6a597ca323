import { Type } from 'typebox';
import { and, asc, eq, ne } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { brandPayments, paymentSystems } from '../../db/schema';
import { badRequest, Obj } from '../../http/envelope';
import { route, service } from '../../http/routes';
import type { AppContext } from '../../http/context';
import { defineResource } from '../../resources/resource';
import { CARD_PAYMENT_LABEL } from '../../../domain/constants';

const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });

/** A payment method offered by a brand (SPEC.md 3 "brand payment"); switched off, checkout neither shows nor takes it. */
export const BrandPayment = Obj('BrandPayment', {
  id: Type.Integer(),
  brandId: Type.Integer(),
  paymentSystemId: Type.Integer(),
  isActive: Type.Boolean(),
});

/**
 * SPEC.md 7 Configuration, BrandPayment: Create, Update, GetAllByBrandId, Delete (Id). The shop's
 * GetStorePaymentSystemTypesForTopUpV2ForMangoes and saving an order (planOrder.ts) read these rows.
 */
export const brandPaymentResource = defineResource({
  service: 'BrandPayment',
  table: brandPayments,
  item: BrandPayment,
  create: Type.Object({ brandId: Id, paymentSystemId: Id, isActive: Type.Boolean({ default: true }) }),
  update: Type.Object({ id: Id, isActive: Type.Optional(Type.Boolean()) }),
  scope: { level: 'brand', field: 'brandId' },
  references: { paymentSystemId: { table: paymentSystems, label: 'payment system' } },
  can: { view: 'brands.manage', create: 'brands.manage', update: 'brands.manage', delete: 'brands.manage' },
  methods: { list: 'GetAllByBrandId', create: 'Create', update: 'Update', delete: 'Delete?Id' },
  sortable: ['id', 'paymentSystemId', 'isActive'],
  defaultSorting: 'paymentSystemId asc',
  filters: { brandId: 'equals', paymentSystemId: 'equals', isActive: 'equals' },
  label: 'Payment method',
  async check(tx, next) {
    const taken = await tx.select({ id: brandPayments.id }).from(brandPayments).where(and(
      eq(brandPayments.brandId, Number(next.brandId)), eq(brandPayments.paymentSystemId, Number(next.paymentSystemId)),
      next.id === undefined ? undefined : ne(brandPayments.id, Number(next.id)),
    ));
    if (taken.length) {
      const message = 'This brand already offers this payment method: switch it on or off instead.';
      throw badRequest(message, [{ message, members: ['paymentSystemId'] }]);
    }
  },
});

export const PaymentSystem = Obj('PaymentSystem', {
  id: Type.Integer(),
  name: Type.String(),
  /** What checkout shows: card providers as 'VISA/MASTER' (SPEC.md 9). */
  displayName: Type.String(),
  provider: Type.String(),
  isCard: Type.Boolean(),
});

/** The payment systems a brand can offer (not in SPEC.md 7: the console needs their names). */
export function registerBrandPayment(app: FastifyInstance, ctx: AppContext) {
  service(app, ctx, 'BrandPayment', [
    route({
      method: 'GET', name: 'GetPaymentSystemsDictionary', access: 'paymentSystems.view',
      summary: 'Every payment system of the platform, by id: what a brand can switch on.',
      result: Type.Array(PaymentSystem),
      handler: async ({ ctx }) => (await ctx.db.select().from(paymentSystems).orderBy(asc(paymentSystems.id)))
        .map((p) => ({ ...p, displayName: p.isCard ? CARD_PAYMENT_LABEL : p.name })),
    }),
  ]);
}
