import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client';
import { customerAddresses, orderItems, orders, payments } from '../../db/schema';
import { orderLedgerKey, postToLedger } from '../../loyalty/ledger';
import { spendFreeItem } from '../../loyalty/freeItems';
import { uniqueViolation } from '../../db/uniqueViolation';
import { badRequest, unprocessable } from '../../http/envelope';
import { MAX_INPUT_DEPTH } from '../../http/inputSafety';
import type { AppContext, Caller } from '../../http/context';
import { paymentProviderFor } from '../../payments';
import { filsToDecimal } from '../../../domain/money';
import { GUEST_USER_ID } from '../../../domain/constants';
import { ORDER_TEXT, planOrder, type OrderPlan } from './planOrder';
import type { SaveNewOrderInput, SaveNewOrderResult } from './orderInput';

type OrderRow = typeof orders.$inferSelect;
type PaymentRow = typeof payments.$inferSelect;

const KEY_REUSED = 'This Idempotency-Key was already used for a different order. Please use a new key for a new order.';
/** First key of the transaction-level advisory lock that serialises requests with one idempotency key. */
const IDEMPOTENCY_LOCK = 727_002;

/** Human-friendly and unique, since it carries the order id: B1-000123. */
export const orderNumberOf = (branchId: number, orderId: number) => `B${branchId}-${String(orderId).padStart(6, '0')}`;

/**
 * sha256 of the body as canonical JSON (keys sorted, undefined left out): equal bodies, equal hashes.
 * The body is the validated one, already held to MAX_INPUT_DEPTH by service(); the bound here
 * keeps the recursion safe for any other caller too.
 */
export function requestHashOf(body: unknown): string {
  const canonical = (v: unknown, depth: number): unknown => {
    if (depth > MAX_INPUT_DEPTH) throw badRequest('Your request is not valid!', [{ message: `body: is nested more than ${MAX_INPUT_DEPTH} levels deep`, members: [] }]);
    if (Array.isArray(v)) return v.map((x) => canonical(x, depth + 1));
    if (v && typeof v === 'object') {
      return Object.fromEntries(Object.keys(v).sort()
        .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
        .map((k) => [k, canonical((v as Record<string, unknown>)[k], depth + 1)]));
    }
    return v;
  };
  return createHash('sha256').update(JSON.stringify(canonical(body, 0))).digest('hex');
}

/**
 * Store/SaveNewOrderVS1: checks and prices the order (planOrder), then writes the order, its items,
 * the points spent (wallet and ledger), the payment row and the guest's address clean-up in ONE
 * transaction. A refused order writes nothing.
 *
 * Idempotency: with an `Idempotency-Key`, a retry with the same key and the same body gets the
 * same order's response and no second order; the same key with another body is a 422. Requests
 * with one key are serialised by an advisory lock, and the unique index orders(user_id,
 * idempotency_key) is the backstop: the loser of a race answers with the winner's order.
 * Without a key (older clients), every request is a new order. Keys are scoped per user; every
 * guest is user 18, so a guest's key must be random (a UUID made at checkout), as it is for anyone.
 */
export async function saveNewOrder(ctx: AppContext, caller: NonNullable<Caller>, body: SaveNewOrderInput, idempotencyKey: string | null): Promise<SaveNewOrderResult> {
  const requestHash = idempotencyKey ? requestHashOf(body) : null;
  let outcome: { order: OrderRow; payment: PaymentRow | null; created: boolean };
  try {
    outcome = await ctx.db.transaction(async (tx) => {
      const db = tx as unknown as Db;
      if (idempotencyKey) {
        await db.execute(sql`select pg_advisory_xact_lock(${IDEMPOTENCY_LOCK}, hashtext(${`${caller.id}:${idempotencyKey}`}))`);
        const prior = await orderByKey(db, caller.id, idempotencyKey);
        if (prior) return { ...prior, created: false };
      }
      const plan = await planOrder(db, ctx, caller, body);
      return { ...(await writeOrder(db, caller, plan, idempotencyKey, requestHash)), created: true };
    });
  } catch (err) {
    const winner = idempotencyKey && uniqueViolation(err) === 'orders_idempotency_uq' ? await orderByKey(ctx.db, caller.id, idempotencyKey) : null;
    if (!winner) throw err;
    outcome = { ...winner, created: false };
  }
  if (!outcome.created && outcome.order.requestHash !== requestHash) throw unprocessable(KEY_REUSED);
  if (outcome.created) {
    const { id: orderId, branchId, brandId } = outcome.order;
    // Committed: a failed notification must not turn a placed order into an error.
    await ctx.events.publish({ type: 'order.created', orderId, branchId, brandId }).catch(() => {});
  }
  return orderResponse(ctx, outcome.order, outcome.payment);
}

async function orderByKey(db: Db, userId: number, key: string) {
  const [order] = await db.select().from(orders).where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, key)));
  if (!order) return null;
  // The newest payment: after Pay again (Store/PayOrderAgain) a replay answers the open one.
  const [payment] = await db.select().from(payments).where(eq(payments.orderId, order.id)).orderBy(desc(payments.id)).limit(1);
  return { order, payment: payment ?? null };
}

async function writeOrder(db: Db, caller: NonNullable<Caller>, plan: OrderPlan, idempotencyKey: string | null, requestHash: string | null) {
  const id = await nextOrderId(db);
  const orderNumber = orderNumberOf(plan.branchId, id);
  const { totals } = plan;
  const paidInFull = totals.total === 0;
  const now = new Date();
  const [order] = await db.insert(orders).values({
    id, orderNumber, brandId: plan.brandId, branchId: plan.branchId, userId: caller.id,
    guestCustomerName: plan.guest?.name ?? null, guestPhoneNumber: plan.guest?.phone ?? null, guestCustomerEmail: plan.guest?.email ?? null,
    deliverySystem: plan.deliverySystem, paymentSystemId: plan.paymentSystemId,
    payment: paidInFull ? 'paid' : 'unpaid', paidAt: paidInFull ? now : null,
    subtotal: filsToDecimal(totals.subtotal), tax: filsToDecimal(totals.tax), deliveryFee: filsToDecimal(totals.deliveryFee),
    discount: filsToDecimal(totals.discount), discountGroupId: plan.discountGroupId, pointsRedeemed: plan.points,
    total: filsToDecimal(totals.total), deliveryAddressId: plan.deliveryAddressId, deliveryAddress: plan.deliveryAddress,
    carId: plan.carId, carDetails: plan.carDetails, deliveryText: plan.deliveryText,
    specialRemarks: plan.specialRemarks, promoCode: plan.promoCode,
    ohash: randomBytes(24).toString('base64url'), idempotencyKey, requestHash,
  }).returning();

  await db.insert(orderItems).values(plan.lines.map((l) => ({
    orderId: id, productId: l.productId, name: l.name, quantity: l.quantity, unitPrice: filsToDecimal(l.unitPrice),
    // A free item is a redeemed line that cost no points (its spend is the ledger row `order:<id>:free-item-spent`).
    lineTotal: filsToDecimal(l.lineTotal), isRedeem: l.isRedeem || l.redeemItem, redeemPoints: l.points,
    options: l.options.map(({ id: optionId, name, price, quantity, groupId, groupName }) => ({ id: optionId, name, price, quantity, groupId, groupName })),
  })));

  if (plan.points > 0) {
    // The ledger's conditional update, in the order's transaction: two orders at once cannot spend the same points.
    await postToLedger(db, {
      userId: caller.id, brandId: plan.brandId, account: 'points', amount: -plan.points, reason: `Points redeemed for order ${orderNumber}`,
      reference: { type: 'order', id }, createdBy: caller.id, key: orderLedgerKey(id, 'points-spent'), refusal: ORDER_TEXT.notEnoughPoints,
    });
  }

  if (plan.freeItems > 0) await spendFreeItem(db, { id, orderNumber, userId: caller.id, brandId: plan.brandId });

  // A free order (everything redeemed) is paid already; anything else starts a payment with the provider.
  const started = paidInFull
    ? { providerRef: `free_${randomUUID()}`, paymentUrl: null }
    : await plan.provider.createPayment({ orderId: id, orderNumber, amount: filsToDecimal(totals.total), currency: plan.currency, merchantName: plan.merchantName });
  const [payment] = await db.insert(payments).values({
    orderId: id, provider: plan.provider.name, amount: filsToDecimal(totals.total), status: paidInFull ? 'paid' : 'pending', providerRef: started.providerRef,
  }).returning();

  if (caller.id === GUEST_USER_ID || caller.isGuest) {
    // SPEC.md 4: the guest's stored address data is cleared after an order; the order keeps its copy.
    // Nothing new is stored for the guest (CustomerDeliveryAddress), so this clears older data only.
    await db.delete(customerAddresses).where(eq(customerAddresses.userId, caller.id));
  }
  return { order, payment };
}

/** Takes the order id first, so the order number can carry it. */
async function nextOrderId(db: Db): Promise<number> {
  const res = await db.execute(sql`select nextval(pg_get_serial_sequence('orders', 'id'))::int as id`);
  return Number(rowsOf<{ id: number }>(res)[0].id);
}

/** The answer for an order, the same for the request that placed it and for any replay of it. */
export function orderResponse(ctx: AppContext, order: OrderRow, payment: PaymentRow | null): SaveNewOrderResult {
  const isPaid = order.payment === 'paid';
  const paymentUrl = !isPaid && payment?.status === 'pending'
    ? paymentProviderFor(payment.provider, ctx.config)?.paymentUrlOf(payment.providerRef) ?? null
    : null;
  const message = isPaid ? 'Your order has been placed and paid.'
    : paymentUrl ? 'Your order has been placed. Please complete the payment.'
    // Cash with delivery is paid to the driver, not at the branch (docs/decisions.md "Shop for Kuwait").
    : payment?.provider === 'cash' ? (order.deliverySystem === 'delivery' ? 'Your order has been placed. Please pay cash on delivery.' : 'Your order has been placed. Please pay at the branch.')
    : 'Your order has been placed.';
  return {
    isSuccessed: true, isPaid, message, paymentUrl, orderId: order.id, orderNumber: order.orderNumber, ohash: order.ohash,
    total: Number(order.total),
  };
}
