import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { rowsOf, type Db } from '../../db/client';
import { orders, payments } from '../../db/schema';
import { orderLedgerKey, postToLedger } from '../../loyalty/ledger';
import { spendFreeItem } from '../../loyalty/freeItems';
import { spendWallet } from '../../loyalty/walletPayment';
import { ApiError, badRequest, unprocessable } from '../../http/envelope';
import { MAX_INPUT_DEPTH } from '../../http/inputSafety';
import type { AppContext, Caller } from '../../http/context';
import { paymentProviderFor } from '../../payments';
import type { StartedPayment } from '../../payments/provider';
import { filsToDecimal } from '../../../domain/money';
import { GUEST_USER_ID } from '../../../domain/constants';
import { kuwaitTime, ORDER_TEXT, planOnCatalog, type OrderPlan } from './planOrder';
import { checkInProgress, slotConflict, slotOpenSql, SlotRefusal, takePlace, takePlaceSql } from '../../orders/slots';
import { catalogStillAt, menuCacheOf } from '../../orders/menuCache';
import { orderEventRow, writtenEvent } from '../../events/orderEventRow';
import type { OrderEvent } from '../../events/orderEvents';
import type { SaveNewOrderInput, SaveNewOrderResult } from './orderInput';

type OrderRow = typeof orders.$inferSelect;
type PaymentRow = typeof payments.$inferSelect;

const KEY_REUSED = 'This Idempotency-Key was already used for a different order. Please use a new key for a new order.';

/** Human-friendly and unique, since it carries the order id: B1-000123. */
export const orderNumberOf = (branchId: number, orderId: number) => `B${branchId}-${String(orderId).padStart(6, '0')}`;
/** orderNumberOf in SQL, for an id the statement takes itself (lpad to at least 6, never cutting a longer id). */
const orderNumberSql = (branchId: number, orderId: SQL) => sql`'B' || ${branchId}::int || '-' || lpad(${orderId}::text, greatest(6, length(${orderId}::text)), '0')`;
/** The next order id, from the orders' own sequence. */
const NEXT_ORDER_ID = sql`nextval(pg_get_serial_sequence('orders', 'id'))::int`;

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
 * Store/SaveNewOrderVS1: checks and prices the order (planOrder, on the branch's cached catalog),
 * then writes the order, its lines, its payment and the guest's address clean-up in ONE statement
 * (one atomic commit); an order that spends points or a free item adds the ledger's steps in the
 * same transaction. A refused order writes nothing.
 *
 * The write holds to the catalog version the order was priced on (catalog_version): when a price,
 * a switch or a schedule changed since, it writes nothing and the order is planned again on the
 * new rows. So prices are always the database's at the moment of the write.
 *
 * Idempotency: with an `Idempotency-Key`, a retry with the same key and the same body gets the
 * same order's response and no second order; the same key with another body is a 422. The unique
 * index orders(user_id, idempotency_key) decides: the insert is `on conflict do nothing`, so of
 * two requests with one key the second waits for the first to commit and then answers with its
 * order. Without a key (older clients), every request is a new order. Keys are scoped per user;
 * every guest is user 18, so a guest's key must be random (a UUID made at checkout), as it is for anyone.
 */
export async function saveNewOrder(ctx: AppContext, caller: NonNullable<Caller>, body: SaveNewOrderInput, idempotencyKey: string | null): Promise<SaveNewOrderResult> {
  const requestHash = idempotencyKey ? requestHashOf(body) : null;
  const replay = async () => {
    const prior = idempotencyKey ? await orderByKey(ctx.db, caller.id, idempotencyKey) : null;
    if (prior && prior.order.requestHash !== requestHash) throw unprocessable(KEY_REUSED);
    return prior && orderResponse(ctx, prior.order, prior.payment);
  };
  // Taken once, only when the payment provider must be told it before the order is written.
  let orderId: number | null = null;
  for (let attempt = 1; ; attempt++) {
    let plan: OrderPlan;
    try {
      plan = await planOnCatalog(ctx, caller, body);
    } catch (err) {
      // A retry of an order already placed answers with that order, even if it could not be placed now.
      const answer = err instanceof ApiError ? await replay() : null;
      if (!answer) throw err;
      return answer;
    }
    const started = plan.totals.total === 0
      // A free order (everything redeemed) is paid already.
      ? { providerRef: `free_${randomUUID()}`, paymentUrl: null }
      : plan.provider.startWithoutOrder?.() ?? null;
    if (!started) orderId ??= await nextOrderId(ctx.db);
    let written: Awaited<ReturnType<typeof writeOrder>>;
    try {
      written = await writeOrder(ctx.db, caller, plan, started ? null : orderId!, started, idempotencyKey, requestHash);
    } catch (err) {
      // A full or closed slot: a retry of an order placed already (which fills its own slot) answers with it.
      if (!(err instanceof SlotRefusal)) throw err;
      const answer = await replay();
      if (answer) return answer;
      throw await slotConflict(ctx.db, err, kuwaitTime);
    }
    if (written.created) {
      const { order, payment, event } = written.created;
      // Committed with its event's row: handed to this process's subscribers at once; a failure here must not turn a placed order into an error.
      await ctx.events.publish(event).catch(() => {});
      return orderResponse(ctx, order, payment);
    }
    if (written.catalogVersion === plan.catalogVersion) {
      // Nothing written and the catalog unchanged: the key had placed an order already.
      const answer = await replay();
      if (answer) return answer;
      throw new Error(`user ${caller.id}: the write conflicted on idempotency key ${idempotencyKey}, but no order has that key`);
    }
    menuCacheOf(ctx.db).saw(written.catalogVersion);
    if (attempt >= MAX_PLANS) throw Object.assign(new ApiError(503, CATALOG_BUSY), { retryAfterSeconds: 1 });
  }
}

/** Plans one order may take while its branch's catalog keeps changing under it, before it is asked to try again. */
const MAX_PLANS = 5;
const CATALOG_BUSY = 'The menu is being changed right now. Please try again.';

async function orderByKey(db: Db, userId: number, key: string) {
  const [order] = await db.select().from(orders).where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, key)));
  if (!order) return null;
  // The newest payment: after Pay again (Store/PayOrderAgain) a replay answers the open one.
  const [payment] = await db.select().from(payments).where(eq(payments.orderId, order.id)).orderBy(desc(payments.id)).limit(1);
  return { order, payment: payment ?? null };
}

type WrittenOrder = Pick<OrderRow, 'id' | 'orderNumber' | 'ohash' | 'payment' | 'deliverySystem' | 'total'>;
type WrittenPayment = Pick<PaymentRow, 'provider' | 'providerRef' | 'status'>;

/**
 * The order, its lines, its payment and the guest's address clean-up as one statement, written
 * only while the catalog is still at the plan's version and the idempotency key is unused.
 * Answers what was written (nothing on either condition) and the catalog's version as the
 * statement saw it. Points and a free item are spent by the ledger in the same transaction.
 *
 * Either the order's id was taken and its payment started with the provider (`id`, `started`
 * null), or the payment needs nothing from the order (`started`, `id` null) and the statement
 * takes the id from the sequence itself.
 */
async function writeOrder(db: Db, caller: NonNullable<Caller>, plan: OrderPlan, id: number | null, started: StartedPayment | null, idempotencyKey: string | null, requestHash: string | null):
  Promise<{ created: { order: WrittenOrder; payment: WrittenPayment; event: OrderEvent } | null; catalogVersion: number }> {
  const { totals } = plan;
  // The live feed's event is written by the order's own statement (an order for later is the kitchen's when it fires: server/orders/fire.ts).
  const eventType = plan.status === 'scheduled' ? 'order.scheduled' : 'order.created';
  // A free order (everything redeemed) and an order the wallet pays are paid when written.
  const paidInFull = totals.total === 0 || plan.wallet > 0;
  const total = filsToDecimal(totals.total);
  if (id !== null) {
    started ??= await plan.provider.createPayment({ orderId: id, orderNumber: orderNumberOf(plan.branchId, id), amount: total, currency: plan.currency, merchantName: plan.merchantName });
  }
  if (!started) throw new Error('writeOrder: neither an order id nor a started payment');
  const ohash = randomBytes(24).toString('base64url');
  const payment: WrittenPayment = { provider: plan.provider.name, providerRef: started.providerRef, status: paidInFull ? 'paid' : 'pending' };
  const lines = plan.lines.map((l) => ({
    productId: l.productId, name: l.name, quantity: l.quantity, unitPrice: filsToDecimal(l.unitPrice), lineTotal: filsToDecimal(l.lineTotal),
    // A free item is a redeemed line that cost no points (its spend is the ledger row `order:<id>:free-item-spent`).
    isRedeem: l.isRedeem || l.redeemItem, redeemPoints: l.points,
    options: l.options.map(({ id: optionId, name, price, quantity, groupId, groupName }) => ({ id: optionId, name, price, quantity, groupId, groupName })),
  }));
  // SPEC.md 4: the guest's stored address data is cleared after an order; the order keeps its copy.
  // Nothing new is stored for the guest (CustomerDeliveryAddress), so this clears older data only.
  const clearGuestAddresses = caller.id === GUEST_USER_ID || caller.isGuest;
  const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));
  // A slot with a maximum: the statement takes the order's place too (server/orders/slots.ts takePlaceSql).
  const limited = plan.slot.maxOrders !== null;
  // The id once (a CTE with nextval is evaluated once), for the id and the order number.
  const idSql = sql`(select id from n)`;
  const statement = sql`
    with n as (select ${id === null ? NEXT_ORDER_ID : sql`${id}::int`} as id),
    o as (
      insert into orders (id, order_number, brand_id, branch_id, user_id, guest_customer_name, guest_phone_number, guest_customer_email,
                          delivery_system, payment_system_id, payment, paid_at, subtotal, tax, delivery_fee, discount, discount_group_id,
                          points_redeemed, total, delivery_address_id, delivery_address, car_id, car_details, delivery_text, special_remarks,
                          promo_code, ohash, idempotency_key, request_hash, ready_estimate_at, scheduled_for, order_time, status)
      select ${idSql}, ${orderNumberSql(plan.branchId, idSql)}, ${plan.brandId}::int, ${plan.branchId}::int, ${caller.id}::int, ${plan.guest?.name ?? null}::text,
             ${plan.guest?.phone ?? null}::text, ${plan.guest?.email ?? null}::text, ${plan.deliverySystem}::text, ${plan.paymentSystemId}::int,
             ${paidInFull ? 'paid' : 'unpaid'}::text, ${paidInFull ? sql`now()` : sql`null::timestamptz`}, ${filsToDecimal(totals.subtotal)}::numeric, ${filsToDecimal(totals.tax)}::numeric,
             ${filsToDecimal(totals.deliveryFee)}::numeric, ${filsToDecimal(totals.discount)}::numeric, ${plan.discountGroupId}::int, ${plan.points}::int,
             ${total}::numeric, ${plan.deliveryAddressId}::int, ${json(plan.deliveryAddress)}::jsonb, ${plan.carId}::int, ${plan.carDetails}::text,
             ${plan.deliveryText}::text, ${plan.specialRemarks}::text, ${plan.promoCode}::text, ${ohash}::text, ${idempotencyKey}::text, ${requestHash}::text,
             ${plan.ready.readyAt.toISOString()}::timestamptz, ${plan.scheduledFor?.toISOString() ?? null}::timestamptz, ${plan.orderTime.toISOString()}::timestamptz,
             ${plan.status}::text
      where ${catalogStillAt(plan.catalogVersion)} and ${slotOpenSql(plan.slot)}
      on conflict (user_id, idempotency_key) do nothing
      returning id, order_number),
    i as (
      insert into order_items (order_id, product_id, name, quantity, unit_price, line_total, is_redeem, redeem_points, options)
      select o.id, (l.line->>'productId')::int, l.line->>'name', (l.line->>'quantity')::int, (l.line->>'unitPrice')::numeric, (l.line->>'lineTotal')::numeric,
             (l.line->>'isRedeem')::boolean, (l.line->>'redeemPoints')::int, l.line->'options'
      from o cross join jsonb_array_elements(${JSON.stringify(lines)}::jsonb) with ordinality as l(line, n)
      order by l.n),
    p as (
      insert into payments (order_id, provider, amount, status, provider_ref)
      select o.id, ${payment.provider}::text, ${total}::numeric, ${payment.status}::text, ${payment.providerRef}::text from o),
    g as (
      delete from customer_addresses where ${clearGuestAddresses}::boolean and user_id = ${caller.id}::int and exists (select 1 from o)),
    e as (${orderEventRow(eventType, sql`select id from o`, plan)})
    ${limited ? takePlaceSql(plan.slot) : sql``}
    select (select id from o) as "orderId", (select order_number from o) as "orderNumber", (select version from catalog_version where id = 1) as "catalogVersion",
           not ${slotOpenSql(plan.slot)} as "slotClosed", (select id from e) as "eventId", (select at from e) as "eventAt"${limited ? sql`, (select closed from s) as "placeClosed", (select taken from s) as "placeTaken"` : sql``}`;

  const write = async (tx: Db) => {
    // The kitchen's load now (server/orders/slots.ts); a slot's closed flag is checked by the statement itself.
    await checkInProgress(tx, plan.slot);
    type Written = { orderId: number | null; orderNumber: string | null; catalogVersion: number; slotClosed: boolean; eventId: unknown; eventAt: unknown; placeClosed?: boolean; placeTaken?: number | null };
    const [row] = rowsOf<Written>(await executeNamed(tx, 'order_write', statement));
    if (row.orderId === null && row.slotClosed) throw new SlotRefusal(plan.slot, 'closed');
    // Its place in a slot with a maximum, taken by the statement under the slot's lock until commit; a refusal rolls the order back.
    if (limited && row.orderId !== null) await takePlace(tx, plan.slot, { closed: row.placeClosed!, taken: row.placeTaken ?? null });
    const order: WrittenOrder | null = row.orderId === null ? null : {
      id: Number(row.orderId), orderNumber: row.orderNumber!, ohash, payment: paidInFull ? 'paid' : 'unpaid', deliverySystem: plan.deliverySystem, total,
    };
    if (order && plan.points > 0) {
      // The ledger's conditional update, in the order's transaction: two orders at once cannot spend the same points.
      await postToLedger(tx, {
        userId: caller.id, brandId: plan.brandId, account: 'points', amount: -plan.points, reason: `Points redeemed for order ${order.orderNumber}`,
        reference: { type: 'order', id: order.id }, createdBy: caller.id, key: orderLedgerKey(order.id, 'points-spent'), refusal: ORDER_TEXT.notEnoughPoints,
      });
    }
    if (order && plan.wallet > 0) await spendWallet(tx, { ...order, userId: caller.id, brandId: plan.brandId }, plan.wallet, ORDER_TEXT.walletNotEnough);
    if (order && plan.freeItems > 0) await spendFreeItem(tx, { id: order.id, orderNumber: order.orderNumber, userId: caller.id, brandId: plan.brandId });
    const created = order && { order, payment, event: writtenEvent(eventType, { orderId: order.id, branchId: plan.branchId, brandId: plan.brandId }, row) };
    return { created, catalogVersion: Number(row.catalogVersion) };
  };
  // One statement commits by itself; the ledger's steps and a slot's lock need a transaction around it.
  return plan.points > 0 || plan.freeItems > 0 || plan.wallet > 0 || limited ? db.transaction((tx) => write(tx as unknown as Db)) : write(db);
}

const dialect = new PgDialect();
const statementNames = new Map<string, string>();

/**
 * db.execute as a named statement: node-postgres parses and plans it once per pooled connection
 * instead of for every order (PostgreSQL keeps it with the connection). The name stands for the
 * text (each shape of the write gets its own). PGlite runs it unnamed, as db.execute does.
 */
function executeNamed(db: Db, prefix: string, statement: SQL): Promise<unknown> {
  const query = dialect.sqlToQuery(statement);
  let name = statementNames.get(query.sql);
  if (!name) statementNames.set(query.sql, (name = `${prefix}_${createHash('sha1').update(query.sql).digest('hex').slice(0, 16)}`));
  return db._.session.prepareQuery(query, undefined, name, false).execute();
}

/** Takes the order id first, so the order number can carry it and the payment provider be told it. */
async function nextOrderId(db: Db): Promise<number> {
  const res = await db.execute(sql`select nextval(pg_get_serial_sequence('orders', 'id'))::int as id`);
  return Number(rowsOf<{ id: number }>(res)[0].id);
}

/** The answer for an order, the same for the request that placed it and for any replay of it. */
export function orderResponse(ctx: AppContext, order: WrittenOrder, payment: WrittenPayment | null): SaveNewOrderResult {
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
