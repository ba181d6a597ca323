import { Type, type Static } from 'typebox';
import { and, asc, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { branches, deliveryAreas, optionItems, orderItems, orders, paymentSystems, products } from '../../db/schema';
import { notFound, Obj } from '../../http/envelope';
import { addressFields } from '../customerDeliveryAddress/addresses';
import type { Caller } from '../../http/context';
import { CARD_PAYMENT_LABEL } from '../../../domain/constants';
import type { LanguageCode } from '../../../domain/languages';
import { localizedColumn } from '../../http/language';
import { orderKeyOf, orderViewOf, type OrderView } from './orderAccess';
import { refundsOfOrders } from '../../payments/refunds';
import { PaymentReceipt, receiptOf } from '../../payments/receipt';

export const OrderHistoryItem = Obj('OrderHistoryItem', {
  id: Type.Integer(),
  date: Type.String({ format: 'date-time' }),
  orderNumber: Type.String(),
  amount: Type.Number(),
  status: Type.String(),
  isPaid: Type.Boolean(),
  deliverySystem: Type.String(),
  branchName: Type.String(),
});

export const OrderHistory = Obj('OrderHistory', {
  totalCount: Type.Integer(),
  orderHistoryItems: Type.Array(OrderHistoryItem),
});

export const OrderDetailOption = Obj('OrderDetailOption', {
  id: Type.Integer(),
  name: Type.String(),
  price: Type.Number(),
  quantity: Type.Integer(),
});

export const OrderDetailItem = Obj('OrderDetailItem', {
  productId: Type.Integer(),
  name: Type.String(),
  quantity: Type.Integer(),
  unitPrice: Type.Number(),
  lineTotal: Type.Number(),
  isRedeem: Type.Boolean(),
  /** Null on the tracker (GetOrderDetail by the ohash alone): the points are the customer's. */
  redeemPoints: Type.Union([Type.Integer(), Type.Null()]),
  options: Type.Array(OrderDetailOption),
});

export const OrderDetailAddress = Obj('OrderDetailAddress', {
  id: Type.Union([Type.Integer(), Type.Null()]),
  ...addressFields,
});

export const CustomerOrderDetail = Obj('CustomerOrderDetail', {
  id: Type.Integer(),
  orderNumber: Type.String(),
  date: Type.String({ format: 'date-time' }),
  brandId: Type.Integer(),
  branchId: Type.Integer(),
  branchName: Type.String(),
  branchPhoneNumber: Type.String(),
  status: Type.String(),
  arrival: Type.String(),
  payment: Type.String(),
  isPaid: Type.Boolean(),
  /** Paid at the branch (a cash method, as the staff's StaffOrder.isCash): paid only once the branch records the cash. */
  isCash: Type.Boolean(),
  /** Why the branch rejected it or marked it a no-show; null otherwise. */
  statusReason: Type.Union([Type.String(), Type.Null()]),
  acceptedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  readyAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  /** When it should be ready, as estimated when it was placed (domain/readyEstimate.ts); null for older orders. */
  readyEstimateAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  /** The time the customer chose (issue 25, order for later); null: as soon as possible. */
  scheduledFor: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  paymentSystemId: Type.Integer(),
  paymentSystemName: Type.String(),
  deliverySystem: Type.String(),
  subtotal: Type.Number(),
  discount: Type.Number(),
  tax: Type.Number(),
  deliveryFee: Type.Number(),
  total: Type.Number(),
  /** The customer's own (points, name, phone, address, car, delivery text): null on the tracker (server/services/store/orderAccess.ts OrderView). */
  pointsRedeemed: Type.Union([Type.Integer(), Type.Null()]),
  guestCustomerName: Type.Union([Type.String(), Type.Null()]),
  guestPhoneNumber: Type.Union([Type.String(), Type.Null()]),
  deliveryAddress: Type.Union([OrderDetailAddress, Type.Null()]),
  carDetails: Type.Union([Type.String(), Type.Null()]),
  deliveryText: Type.Union([Type.String(), Type.Null()]),
  items: Type.Array(OrderDetailItem),
  /** The money given back (server/payments/refunds.ts), oldest first. */
  refunds: Type.Array(Obj('CustomerOrderRefund', {
    amount: Type.Number(),
    /** returning (on its way to the card; a failed attempt is retried by staff, so it still is), returned, owed at the branch (cash), or handedBack (that cash given back). */
    state: Type.String(),
    refundedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  })),
  /** The online payment's receipt (server/payments/receipt.ts); null for cash and the sandbox. */
  receipt: Type.Union([PaymentReceipt, Type.Null()]),
});

/** What the customer reads of a refund's status; cash given back is handed back at the branch, not returned to a card. */
const customerRefundState = (r: { status: string; provider: string }) =>
  (r.status === 'refunded' ? (r.provider === 'cash' ? 'handedBack' : 'returned') : r.status === 'owed' ? 'owed' : 'returning');

/**
 * The caller's own orders, newest first. The guest account is shared by every guest, so it
 * never lists orders: its history is empty (each guest reads its one order with the ohash).
 */
export async function orderHistory(db: Db, caller: NonNullable<Caller>, page: { skip: number; take: number; brandId?: number }, language: LanguageCode = 'en'): Promise<Static<typeof OrderHistory>> {
  if (caller.isGuest) return { totalCount: 0, orderHistoryItems: [] };
  const where = and(eq(orders.userId, caller.id), page.brandId === undefined ? undefined : eq(orders.brandId, page.brandId));
  const [{ n }] = await db.select({ n: sql<number>`count(*)::int` }).from(orders).where(where);
  const rows = await db
    .select({
      id: orders.id, createdAt: orders.createdAt, orderNumber: orders.orderNumber, total: orders.total, status: orders.status,
      payment: orders.payment, deliverySystem: orders.deliverySystem, branchName: localizedColumn(language, branches.name, branches.nameAr),
    })
    .from(orders)
    .innerJoin(branches, eq(branches.id, orders.branchId))
    .where(where)
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .offset(page.skip)
    .limit(page.take);
  return {
    totalCount: Number(n),
    orderHistoryItems: rows.map((r) => ({
      id: r.id, date: r.createdAt.toISOString(), orderNumber: r.orderNumber, amount: Number(r.total), status: r.status,
      isPaid: r.payment === 'paid', deliverySystem: r.deliverySystem, branchName: r.branchName,
    })),
  };
}

/**
 * One order, in full for its owner, as its tracker for anyone else holding its ohash (the guest,
 * and the /track-order link opened anywhere, without a token too). The guest is never the owner:
 * every guest order belongs to user 18. Anything else is a 404, so an order id alone reveals nothing.
 */
export async function customerOrderDetail(db: Db, caller: Caller, orderId: number, ohash: string | undefined, language: LanguageCode = 'en'): Promise<Static<typeof CustomerOrderDetail>> {
  const view = orderViewOf(caller, await orderKeyOf(db, orderId), ohash);
  if (!view) throw notFound('Order');
  return orderDetail(db, orderId, view, language);
}

/** One order as `view` lets its reader see it (the caller has checked who may read it). */
export async function orderDetail(db: Db, orderId: number, view: OrderView, language: LanguageCode = 'en'): Promise<Static<typeof CustomerOrderDetail>> {
  const [row] = await db
    .select({
      order: orders, branchName: localizedColumn(language, branches.name, branches.nameAr), branchPhoneNumber: branches.branchPhoneNumber,
      paymentSystemName: localizedColumn(language, paymentSystems.name, paymentSystems.nameAr), isCard: paymentSystems.isCard,
      provider: paymentSystems.provider,
    })
    .from(orders)
    .innerJoin(branches, eq(branches.id, orders.branchId))
    .innerJoin(paymentSystems, eq(paymentSystems.id, orders.paymentSystemId))
    .where(eq(orders.id, orderId));
  const o = row?.order;
  if (!o) throw notFound('Order');
  const full = view === 'full';
  const [items, refunds, receipt] = await Promise.all([
    db.select().from(orderItems).where(eq(orderItems.orderId, o.id)).orderBy(asc(orderItems.id)),
    refundsOfOrders(db, [o.id]),
    receiptOf(db, o.id),
  ]);
  const name = await arabicNamesOf(db, items, language);
  return {
    id: o.id, orderNumber: o.orderNumber, date: o.createdAt.toISOString(), brandId: o.brandId, branchId: o.branchId,
    branchName: row.branchName, branchPhoneNumber: row.branchPhoneNumber, status: o.status, arrival: o.arrival, payment: o.payment,
    isPaid: o.payment === 'paid', isCash: row.provider === 'cash', statusReason: o.statusReason,
    acceptedAt: o.acceptedAt?.toISOString() ?? null, readyAt: o.readyAt?.toISOString() ?? null, readyEstimateAt: o.readyEstimateAt?.toISOString() ?? null, scheduledFor: o.scheduledFor?.toISOString() ?? null, paymentSystemId: o.paymentSystemId, paymentSystemName: row.isCard ? CARD_PAYMENT_LABEL : row.paymentSystemName,
    deliverySystem: o.deliverySystem, subtotal: Number(o.subtotal), discount: Number(o.discount), tax: Number(o.tax),
    deliveryFee: Number(o.deliveryFee), total: Number(o.total), pointsRedeemed: full ? o.pointsRedeemed : null,
    guestCustomerName: full ? o.guestCustomerName : null, guestPhoneNumber: full ? o.guestPhoneNumber : null,
    deliveryAddress: full ? await addressInLanguage(db, o.deliveryAddress as Static<typeof OrderDetailAddress> | null, language) : null,
    carDetails: full ? o.carDetails : null, deliveryText: full ? o.deliveryText : null,
    items: items.map((i) => ({
      productId: i.productId, name: name.product(i.productId, i.name), quantity: i.quantity, unitPrice: Number(i.unitPrice), lineTotal: Number(i.lineTotal),
      isRedeem: i.isRedeem, redeemPoints: full ? i.redeemPoints : null,
      options: ((i.options ?? []) as { id: number; name: string; price: number; quantity?: number }[])
        .map((op) => ({ id: op.id, name: name.option(op.id, op.name), price: Number(op.price), quantity: op.quantity ?? 1 })),
    })),
    refunds: refunds.map((r) => ({ amount: Number(r.amount), state: customerRefundState(r), refundedAt: r.refundedAt?.toISOString() ?? null })),
    receipt,
  };
}

/**
 * The order keeps the address as it was given (the area's English name, as staff read it); a
 * customer reading in Arabic sees its region and area by their ids in Arabic, as the picker names
 * them ('بيان', not 'Bayan'), the kept names otherwise.
 */
async function addressInLanguage(db: Db, address: Static<typeof OrderDetailAddress> | null, language: LanguageCode) {
  if (!address || language !== 'ar') return address ?? null;
  const ids = [address.regionId, address.areaId].filter((id) => Number.isInteger(id));
  const rows = ids.length ? await db.select({ id: deliveryAreas.id, name: deliveryAreas.nameAr }).from(deliveryAreas).where(and(inArray(deliveryAreas.id, ids), isNotNull(deliveryAreas.nameAr))) : [];
  const named = new Map(rows.map((r) => [r.id, r.name!]));
  return { ...address, region: named.get(address.regionId) ?? address.region, area: named.get(address.areaId) ?? address.area };
}

/**
 * The lines keep the English names the branch's staff read; a customer reading in Arabic sees the
 * Arabic names their products and options have on the menu now, the line's own name otherwise.
 */
async function arabicNamesOf(db: Db, items: (typeof orderItems.$inferSelect)[], language: LanguageCode) {
  const productIds = [...new Set(items.map((i) => i.productId))];
  const optionIds = [...new Set(items.flatMap((i) => ((i.options ?? []) as { id: number }[]).map((o) => o.id)))];
  const wanted = language === 'ar';
  const [productNames, optionNames] = await Promise.all([
    wanted && productIds.length
      ? db.select({ id: products.id, name: products.nameAr }).from(products).where(and(inArray(products.id, productIds), isNotNull(products.nameAr)))
      : [],
    wanted && optionIds.length
      ? db.select({ id: optionItems.id, name: optionItems.nameAr }).from(optionItems).where(and(inArray(optionItems.id, optionIds), isNotNull(optionItems.nameAr)))
      : [],
  ]);
  const byId = (rows: { id: number; name: string | null }[]) => new Map(rows.filter((r) => r.name).map((r) => [r.id, r.name!]));
  const p = byId(productNames), o = byId(optionNames);
  return {
    product: (id: number, english: string) => p.get(id) ?? english,
    option: (id: number, english: string) => o.get(id) ?? english,
  };
}
