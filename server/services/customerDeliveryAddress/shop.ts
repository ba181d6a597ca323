import { Type } from 'typebox';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { customerAddresses } from '../../db/schema';
import { badRequest, forbidden, notFound, Obj } from '../../http/envelope';
import { route, service } from '../../http/routes';
import type { AppContext, Caller } from '../../http/context';
import { addressesOf, addressSnapshot, brandAddressFormOf, CustomerDeliveryAddress, CustomerDeliveryAddressInput, validateAddress } from './addresses';
import { TEMP_ADDRESS_ID } from '../../../domain/constants';
import { requestLanguage } from '../../http/language';

/**
 * A customer's delivery addresses. Customers read and change only their own: a userId other than
 * the caller's is a 403, an address id of someone else a 404; nothing is written either way.
 *
 * The guest (user 18) is one account shared by every guest, so nothing is stored for it: anything
 * stored under user 18 could be read or changed by the next guest. Its address is validated and
 * handed back as the temporary address (id 10, SPEC.md 9), which the shop keeps and sends with the
 * order (customerDeliveryAddress); the order keeps a copy. Its list is empty, and it cannot change
 * or delete stored addresses.
 */
const GUEST_ADDRESS_READ_ONLY = 'Guests cannot change saved addresses. Please add the address again.';

const notSelf = (caller: NonNullable<Caller>, userId: number | null | undefined) =>
  userId !== undefined && userId !== null && userId !== 0 && userId !== caller.id;

export function registerShopCustomerDeliveryAddress(app: FastifyInstance, ctx: AppContext) {
  service(app, ctx, 'CustomerDeliveryAddress', [
    route({
      method: 'POST',
      name: 'AddCustomerDeliveryAddress',
      access: 'customer',
      summary: "Adds an address to the caller's own list. For the guest nothing is stored: the address comes back as the temporary address (id 10), to send with the order.",
      body: CustomerDeliveryAddressInput,
      result: CustomerDeliveryAddress,
      async handler({ body, caller, ctx, req }) {
        if (notSelf(caller!, body.userId)) throw forbidden();
        const address = await validateAddress(ctx.db, body);
        if (caller!.isGuest) return { ...addressSnapshot(address, null), id: TEMP_ADDRESS_ID, userId: caller!.id };
        const [row] = await ctx.db.insert(customerAddresses).values({ ...address, userId: caller!.id }).returning({ id: customerAddresses.id });
        return (await addressesOf(ctx.db, caller!.id, row.id, requestLanguage(req.headers)))[0];
      },
    }),
    route({
      method: 'PUT',
      name: 'UpdateCustomerDeliveryAddress',
      access: 'customer',
      body: CustomerDeliveryAddressInput,
      result: CustomerDeliveryAddress,
      async handler({ body, caller, ctx, req }) {
        if (caller!.isGuest) throw forbidden(GUEST_ADDRESS_READ_ONLY);
        if (notSelf(caller!, body.userId)) throw forbidden();
        if (!body.id || body.id <= 0) throw badRequest('The address id is required.', [{ message: 'The address id is required.', members: ['id'] }]);
        const [own] = await ctx.db.select({ id: customerAddresses.id }).from(customerAddresses)
          .where(and(eq(customerAddresses.id, body.id), eq(customerAddresses.userId, caller!.id)));
        if (!own) throw notFound('CustomerDeliveryAddress');
        const address = await validateAddress(ctx.db, body);
        await ctx.db.update(customerAddresses).set(address)
          .where(and(eq(customerAddresses.id, body.id), eq(customerAddresses.userId, caller!.id)));
        return (await addressesOf(ctx.db, caller!.id, body.id, requestLanguage(req.headers)))[0];
      },
    }),
    route({
      method: 'GET',
      name: 'GetCustomerDeliveryAddressListByUserId',
      access: 'customer',
      query: Obj('GetCustomerDeliveryAddressListByUserIdQuery', { userId: Type.Integer({ minimum: 1 }) }),
      result: Type.Array(CustomerDeliveryAddress),
      async handler({ query, caller, ctx, req }) {
        if (notSelf(caller!, query.userId)) throw forbidden();
        if (caller!.isGuest) return [];
        return addressesOf(ctx.db, caller!.id, undefined, requestLanguage(req.headers));
      },
    }),
    route({
      method: 'DELETE',
      name: 'DeleteCustomerDeliveryAddressById',
      access: 'customer',
      query: Obj('DeleteCustomerDeliveryAddressByIdQuery', { id: Type.Integer({ minimum: 1 }) }),
      result: Type.Boolean(),
      async handler({ query, caller, ctx }) {
        if (caller!.isGuest) throw forbidden(GUEST_ADDRESS_READ_ONLY);
        const deleted = await ctx.db.delete(customerAddresses)
          .where(and(eq(customerAddresses.id, query.id), eq(customerAddresses.userId, caller!.id)))
          .returning({ id: customerAddresses.id });
        if (!deleted.length) throw notFound('CustomerDeliveryAddress');
        return true;
      },
    }),
  ]);
}

/** One optional field of a brand's address form, as the shop asks it (domain/addressFields.ts). */
const AddressFormField = Obj('AddressFormField', {
  fieldName: Type.String(),
  label: Type.String(),
  isRequired: Type.Boolean(),
});

/**
 * The brand's address form for the shop (not in SPEC.md, whose BrandAddressFields calls are the
 * console's): the optional fields shown below block, street and house, in order, with the brand's
 * labels and which must be filled. Public: a visitor fills the form too. An unknown brand, or a
 * brand with no rows: today's form (floor, jadda, additional info).
 */
export function registerShopBrandAddressForm(app: FastifyInstance, ctx: AppContext) {
  service(app, ctx, 'BrandAddressFields', [
    route({
      method: 'GET',
      name: 'GetAddressFormForShop',
      access: 'public',
      query: Obj('GetAddressFormForShopQuery', { brandId: Type.Integer({ minimum: 1, maximum: 2147483647 }) }),
      result: Type.Array(AddressFormField),
      handler: async ({ query, ctx }) => brandAddressFormOf(ctx.db, query.brandId),
    }),
  ]);
}
