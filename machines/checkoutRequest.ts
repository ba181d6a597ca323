import { TEXT } from '../domain/constants';
import { phoneProblem } from '../domain/phone';
import { orderProductsOf } from './checkoutRewards';
import type { CheckoutContext } from './checkoutTypes';

// What the checkout sends (machines/checkout.ts): the order request and the guest's checks.

/** The guest's name and phone problems, in SPEC.md 5's words (null: fine). */
export function guestNameError(name: string): string | null {
  return name.trim() ? null : TEXT.guest.nameRequired;
}
export function guestPhoneError(phone: string): string | null {
  const problem = phoneProblem(phone);
  return problem === 'missing' ? TEXT.guest.phoneRequired
    : problem === 'notANumber' ? TEXT.guest.invalidNumber
    : problem === 'notAPhone' ? TEXT.guest.invalidPhone
    : null;
}

/** The order request of SPEC.md 3 for Store/SaveNewOrderVS1. The server prices it; no amounts are sent. */
export function orderRequestOf(c: CheckoutContext) {
  const delivery = c.mode === 'delivery';
  const address = delivery ? c.addresses.find((a) => a.id === c.addressId) ?? null : null;
  return {
    brandId: c.brandId,
    paymentSystem: c.paymentMethodId,
    deliverySystem: c.mode,
    guestCustomerName: c.isGuest ? c.guestName.trim() : null,
    guestPhoneNumber: c.isGuest ? c.guestPhone : null,
    specialRemarks: c.remarks?.trim() || null,
    promoCode: c.promotionCode?.trim() || null,
    carId: c.mode === 'carService' ? c.carId : null,
    carDetails: c.mode === 'carService' ? c.carDetails : null,
    // The guest's address is not stored on the server; it travels with the order.
    customerDeliveryAddress: address?.input ?? null,
    deliveryOptions: {
      branchId: c.branchId,
      isPickup: c.mode === 'pickup',
      isCarService: c.mode === 'carService',
      isHomeDeliver: delivery,
      isDeliveryNeed: delivery,
      deliveryAddressId: address && !address.input ? address.id : null,
    },
    products: orderProductsOf(c),
    // Only when chosen: every other request stays as it was (a kept series compares them as text).
    ...(c.payWithWallet && { payWithWallet: true }),
    ...(c.when.later && c.when.scheduledFor && { scheduledFor: c.when.scheduledFor }),
  };
}
export type OrderRequest = ReturnType<typeof orderRequestOf>;

/** The cart a series was for: what the customer put in it at this branch, before any choice at checkout. */
export const cartSignatureOf = (c: Pick<CheckoutContext, 'brandId' | 'branchId' | 'lines' | 'remarks' | 'promotionCode'>) =>
  JSON.stringify({ brandId: c.brandId, branchId: c.branchId, lines: c.lines, remarks: c.remarks ?? null, promotionCode: c.promotionCode ?? null });
