import { Type } from 'typebox';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db, Tx } from '../../db/client';
import { branches, branchSchedules, orderSlots } from '../../db/schema';
import { badRequest, notFound, Obj } from '../../http/envelope';
import { route, service } from '../../http/routes';
import type { AppContext } from '../../http/context';
import { placeInScope, unknownPlace } from '../../resources/scope';
import { appendAudit } from '../../resources/audit';
import { DELIVERY_SYSTEMS, type DeliverySystem } from '../../../machines/orderLifecycle';
import { orderingWindows } from '../../../domain/schedule';
import { addDays, dayKey } from '../../../domain/time';
import { earliestOrderTime, ORDER_AHEAD_DAYS, slotOf } from '../../../domain/orderTime';
import { hasRoom, slotLoadsOfDay, slotSettingsOf } from '../../orders/slots';

const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });
/** A pattern, not a union of literals: the gateway reads a union as JSON, a pattern as String. */
const Mode = Type.Unsafe<DeliverySystem>(Type.String({ pattern: `^(${DELIVERY_SYSTEMS.join('|')})$`, description: "'pickup', 'carService' or 'delivery'." }));
const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: "'YYYY-MM-DD' on Kuwait's calendar: today up to 7 days ahead (default today)." });

export const OrderSlot = Obj('OrderSlot', {
  start: Type.String({ description: 'ISO; send it as the order\'s scheduledFor.' }),
  end: Type.String(),
  state: Type.String({ description: "'free' | 'full' | 'closed'" }),
  /** Orders in it (every status but rejected), and places left (null: no limit). */
  taken: Type.Integer(),
  left: Type.Union([Type.Integer(), Type.Null()]),
});
export const OrderSlots = Obj('OrderSlots', {
  branchId: Type.Integer(),
  mode: Type.String(),
  day: Type.String(),
  slotMinutes: Type.Integer(),
  maxOrders: Type.Union([Type.Integer(), Type.Null()]),
  slots: Type.Array(OrderSlot),
});

/** A branch's slots of one mode and day that an order may still be for (from now + its preparation time), with their state. */
async function orderSlotsOf(db: Db | Tx, branchId: number, mode: DeliverySystem, day: string | undefined, opts: { fromNow: boolean }) {
  const [branch] = await db.select().from(branches).where(eq(branches.id, branchId));
  if (!branch) throw notFound('Branch');
  const now = new Date();
  const today = dayKey(now);
  const asked = day ?? today;
  if (asked < today || asked > addDays(today, ORDER_AHEAD_DAYS)) throw badRequest(`Please ask for a day from ${today} to ${addDays(today, ORDER_AHEAD_DAYS)}.`);
  const schedule = await db.select().from(branchSchedules).where(eq(branchSchedules.branchId, branchId));
  const { slotMinutes, maxOrders } = slotSettingsOf(branch, mode);
  const earliest = earliestOrderTime(now, branch.preparationMinutes);
  const loads = await slotLoadsOfDay(db, branchId, mode, asked, slotMinutes, orderingWindows(schedule, branch));
  // The shop is offered times an order may be for; the console also sees the slot running now.
  const from = opts.fromNow ? slotOf(now, slotMinutes).start : earliest;
  return {
    branchId, mode, day: asked, slotMinutes, maxOrders,
    slots: loads.filter((l) => l.start >= from).map((l) => ({
      start: l.start.toISOString(), end: l.end.toISOString(),
      state: l.closed ? 'closed' : hasRoom(l, maxOrders) ? 'free' : 'full',
      taken: l.taken, left: maxOrders === null ? null : Math.max(0, maxOrders - l.taken),
    })),
  };
}

/**
 * Capacity per time slot (issue 25): the shop's read of a day's slots, and the console's close
 * and reopen of a slot in a rush (capability orders.operate: the branch user at the counter does
 * it, as accepting and rejecting; audited as 'OrderSlot').
 */
export function registerOrderSlots(app: FastifyInstance, ctx: AppContext) {
  service(app, ctx, 'Store', [
    route({
      method: 'GET', name: 'GetOrderSlots', access: 'public',
      summary: "A branch's time slots for one mode and day (today up to 7 days ahead) inside its online-ordering hours, from now + its preparation time: free, full or closed. Send a free slot's `start` as the order's `scheduledFor`.",
      query: Obj('GetOrderSlotsQuery', { branchId: Id, mode: Mode, day: Type.Optional(Day) }),
      result: OrderSlots,
      handler: ({ query, ctx }) => orderSlotsOf(ctx.db, query.branchId, query.mode, query.day, { fromNow: false }),
    }),
  ]);
  service(app, ctx, 'Branch', [
    route({
      method: 'GET', name: 'GetOrderSlotLoads', access: 'orders.view',
      summary: "A branch's slots of one mode and day from the one running now, with the orders in each (the order screens' load line).",
      query: Obj('GetOrderSlotLoadsQuery', { branchId: Id, mode: Mode, day: Type.Optional(Day) }),
      result: OrderSlots,
      async handler({ query, caller, ctx }) {
        if (!(await placeInScope(ctx.db, caller, 'branch', query.branchId))) throw unknownPlace('branch', query.branchId);
        return orderSlotsOf(ctx.db, query.branchId, query.mode, query.day, { fromNow: true });
      },
    }),
    route({
      method: 'POST', name: 'SetOrderSlotClosed', access: 'orders.operate',
      summary: 'Closes a time slot of a branch and mode to new orders (a rush), or opens it again. `slotStart` is the slot\'s start as GetOrderSlots gives it. Orders already in it stay.',
      body: Obj('SetOrderSlotClosedInput', { branchId: Id, mode: Mode, slotStart: Type.String({ format: 'date-time', maxLength: 40 }), closed: Type.Boolean() }),
      result: Type.Boolean(),
      async handler({ body, caller, ctx }) {
        if (!(await placeInScope(ctx.db, caller, 'branch', body.branchId))) throw unknownPlace('branch', body.branchId);
        const [branch] = await ctx.db.select().from(branches).where(eq(branches.id, body.branchId));
        const start = new Date(body.slotStart);
        const { slotMinutes } = slotSettingsOf(branch, body.mode);
        if (Number.isNaN(start.getTime()) || slotOf(start, slotMinutes).start.getTime() !== start.getTime()) {
          throw badRequest(`This is not the start of one of the branch's ${slotMinutes}-minute slots.`, [{ message: 'Not the start of a slot.', members: ['slotStart'] }]);
        }
        const key = and(eq(orderSlots.branchId, body.branchId), eq(orderSlots.mode, body.mode), eq(orderSlots.slotStart, start));
        await ctx.db.transaction(async (tx) => {
          const [before] = await tx.select().from(orderSlots).where(key);
          const [after] = await tx.insert(orderSlots).values({ branchId: body.branchId, mode: body.mode, slotStart: start, closed: body.closed })
            .onConflictDoUpdate({ target: [orderSlots.branchId, orderSlots.mode, orderSlots.slotStart], set: { closed: body.closed, updatedAt: new Date() } })
            .returning();
          const shown = (r: typeof after | undefined) => r && { branchId: r.branchId, mode: r.mode, slotStart: r.slotStart.toISOString(), closed: r.closed };
          await appendAudit(tx, caller, { action: before ? 'update' : 'create', resource: 'OrderSlot', rowId: after.id, scopeId: body.branchId, before: shown(before) ?? null, after: shown(after)! });
        });
        return body.closed;
      },
    }),
  ]);
}
