import { Type, type Static } from 'typebox';
import { Obj } from '../../http/envelope';
import { Nullable } from '../../http/nullable';
import { CustomerDeliveryAddressInput } from '../customerDeliveryAddress/addresses';
import { PROMO_CODE_MAX, SPECIAL_REMARKS_MAX } from '../../../domain/constants';

const Flag = () => Type.Optional(Nullable(Type.Boolean()));
const OptInt = () => Type.Optional(Nullable(Type.Integer()));
const OptNumber = () => Type.Optional(Nullable(Type.Number()));
const OptText = (maxLength: number) => Type.Optional(Nullable(Type.String({ maxLength })));

/**
 * The order request of SPEC.md 3, field for field. Amounts the client sends (redeemPoints,
 * discountPercent) are accepted for compatibility and never used: the server recomputes them.
 */
export const OrderAdditionInput = Obj('OrderAdditionInput', {
  /** An option (option_items.id) of one of the product's option groups. */
  additionId: Type.Integer(),
  quantity: OptInt(),
  isRedeem: Flag(),
  redeemItem: Flag(),
  redeemPoints: OptNumber(),
});

export const OrderProductInput = Obj('OrderProductInput', {
  productId: Type.Integer(),
  quantity: Type.Integer(),
  isRedeem: Flag(),
  redeemItem: Flag(),
  redeemPoints: OptNumber(),
  additions: Type.Optional(Nullable(Type.Array(OrderAdditionInput, { maxItems: 50 }))),
});

export const OrderDeliveryOptionsInput = Obj('OrderDeliveryOptionsInput', {
  isDeliveryNeed: Flag(),
  branchId: Type.Integer(),
  isPickup: Flag(),
  isCarService: Flag(),
  isworkdeliver: Flag(),
  isHomeDeliver: Flag(),
  deliveryAddressId: OptInt(),
});

export const SaveNewOrderInput = Obj('SaveNewOrderInput', {
  brandId: Type.Integer(),
  guestPhoneNumber: OptText(30),
  guestCustomerName: OptText(100),
  guestCustomerEmail: OptText(256),
  deliveryText: OptText(500),
  carDetails: OptText(300),
  carId: OptInt(),
  /** An address typed at checkout, used for delivery when deliveryAddressId is not one of the caller's. */
  customerDeliveryAddress: Type.Optional(Nullable(CustomerDeliveryAddressInput)),
  IsArmadaDelivery: Flag(),
  /** payment_systems.id; default 2 (cash at the branch). */
  paymentSystem: OptInt(),
  /** Informational; the mode comes from deliveryOptions. */
  deliverySystem: OptText(50),
  deliveryOptions: OrderDeliveryOptionsInput,
  tokenid: OptText(1000),
  isDiscounted: Flag(),
  discountGroupId: OptInt(),
  discountPercent: OptNumber(),
  products: Type.Array(OrderProductInput, { maxItems: 100 }),
  /** From /product-review: kept on the order for the branch to read; they do not change the price. */
  specialRemarks: OptText(SPECIAL_REMARKS_MAX),
  promoCode: OptText(PROMO_CODE_MAX),
  /** Beyond SPEC.md 3's list: the customer's brand wallet pays the whole total (paymentSystem is then not read); a 400 when it holds less, or for the guest. */
  payWithWallet: Flag(),
  /** Issue 25, order for later: the time asked for (ISO), today up to 7 days ahead, inside the branch's online-ordering hours, at or after now + its preparation time; null or absent: as soon as possible. */
  scheduledFor: Type.Optional(Nullable(Type.String({ format: 'date-time', maxLength: 40 }))),
});
export type SaveNewOrderInput = Static<typeof SaveNewOrderInput>;

export const SaveNewOrderHeaders = Obj('SaveNewOrderHeaders', {
  /** A key the client makes once per checkout: a retry with the same key and body gets the same order. */
  'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
});

/** The order response of SPEC.md 3 (isSuccessed, isPaid, message, paymentUrl) and what /track-order needs. */
export const SaveNewOrderResult = Obj('SaveNewOrderResult', {
  isSuccessed: Type.Boolean(),
  isPaid: Type.Boolean(),
  message: Type.String(),
  paymentUrl: Type.Union([Type.String(), Type.Null()]),
  orderId: Type.Integer(),
  orderNumber: Type.String(),
  /** The secret that lets this order be read with Store/GetOrderDetail (the guest needs it). */
  ohash: Type.String(),
  total: Type.Number(),
});
export type SaveNewOrderResult = Static<typeof SaveNewOrderResult>;
