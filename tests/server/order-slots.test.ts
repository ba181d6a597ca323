import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { auditLog, branchSchedules, orders, orderSlots } from '../../server/db/schema';
import { rejectLateOrders } from '../../server/orders/deadline';
import { fireDueOrders } from '../../server/orders/fire';
import { addDays, dayKey, fromZoneInput } from '../../domain/time';
import { orderTimeOf, scheduledForProblem, slotOf, slotsOfDay } from '../../domain/orderTime';
import { dailyWindows } from '../../domain/schedule';
import { countRows } from '../support/server';
import { sendOrderEvent } from '../support/orders';
import { seededMenu } from '../support/shopMenu';
import { useServer } from '../support/harness';
import { ticketFor } from '../../server/printing/ticket';

/**
 * Issue 25: the order's time (scheduledFor, domain/orderTime.ts) and capacity per time slot
 * (server/orders/slots.ts): the 400s write nothing, a slot never takes more than its maximum even
 * with 50 placements at once, a refusal names the next free slot and that slot takes the order,
 * a rejected order frees its place, a closed slot refuses.
 */
const BRANCH = '/api/services/app/Branch';
const STORE = '/api/services/app/Store';
const AR = { 'accept-language': 'ar' };
let menu: Awaited<ReturnType<typeof seededMenu>>;
const token: Record<string, string> = {};

const server = useServer();
beforeAll(async () => {
  menu = await seededMenu(server);
  for (const who of ['admin', 'brandmanager', 'branchuser', 'customer']) token[who] = await server.api.login(who);
});

/** A moment on Kuwait's clock, `days` after today: at('10:15', 1) is tomorrow at 10:15 in Kuwait. */
const at = (clock: string, days = 1) => fromZoneInput(`${addDays(dayKey(new Date()), days)}T${clock}`)!;
const order = (extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) => server.api.post(`${STORE}/SaveNewOrderVS1`, {
  token: token.customer, headers: { 'idempotency-key': randomUUID(), ...headers },
  body: { brandId: 7, paymentSystem: 2, deliveryOptions: { branchId: 1, isPickup: true }, products: [{ productId: menu.product('Espresso'), quantity: 1 }], ...extra },
});
const updateBranch = (body: Record<string, unknown>) => server.api.put(`${BRANCH}/Update`, { token: token.brandmanager, body: { id: 1, ...body } });
const inSlot = async (start: string) => (await server.database.db.select({ n: sql<number>`count(*)::int` }).from(orders)
  .where(and(eq(orders.branchId, 1), eq(orders.deliverySystem, 'pickup'), eq(orders.orderTime, new Date(start)), sql`${orders.status} <> 'rejected'`)))[0].n;

describe("the order's time (domain/orderTime.ts)", () => {
  it('is the time asked for, or placement plus the preparation minutes; a slot starts on the slot grid from Kuwait midnight', () => {
    const placed = new Date('2026-11-28T06:00:00Z');
    expect(orderTimeOf({ scheduledFor: null }, placed, 15).toISOString()).toBe('2026-11-28T06:15:00.000Z');
    const asked = new Date('2026-11-29T07:00:00Z');
    expect(orderTimeOf({ scheduledFor: asked }, placed, 15)).toBe(asked);
    // 09:07 in Kuwait (06:07 UTC) is in the 09:00–09:15 slot; 20-minute slots: 09:00–09:20.
    expect(slotOf(new Date('2026-11-28T06:07:00Z'), 15)).toEqual({ start: new Date('2026-11-28T06:00:00Z'), end: new Date('2026-11-28T06:15:00Z') });
    expect(slotOf(new Date('2026-11-28T06:27:00Z'), 20).start.toISOString()).toBe('2026-11-28T06:20:00.000Z');
    // A length that does not divide the day: the last slot ends at midnight.
    expect(slotOf(new Date('2026-11-28T20:57:00Z'), 7)).toEqual({ start: new Date('2026-11-28T20:55:00Z'), end: new Date('2026-11-28T21:00:00Z') });
    expect(slotsOfDay('2026-11-28', 30, dailyWindows('08:00', '10:00')).map((s) => s.start.toISOString()))
      .toEqual(['2026-11-28T05:00:00.000Z', '2026-11-28T05:30:00.000Z', '2026-11-28T06:00:00.000Z', '2026-11-28T06:30:00.000Z']);
  });

  it('is valid from now + preparation, up to 7 days ahead on Kuwait\'s calendar, inside the schedule', () => {
    const now = new Date('2026-11-27T21:00:00Z'); // Saturday 00:00 in Kuwait
    const allDay = dailyWindows('00:00', '23:59');
    expect(scheduledForProblem(new Date('2026-11-27T21:10:00Z'), now, 15, allDay)).toBe('tooSoon');
    expect(scheduledForProblem(new Date('2026-11-27T21:15:00Z'), now, 15, allDay)).toBeNull();
    expect(scheduledForProblem(new Date('2026-12-05T20:59:00Z'), now, 15, allDay)).toBeNull(); // day 7, 23:59
    expect(scheduledForProblem(new Date('2026-12-05T21:00:00Z'), now, 15, allDay)).toBe('tooFar'); // day 8, 00:00
    expect(scheduledForProblem(new Date('2026-11-28T09:00:00Z'), now, 15, dailyWindows('07:00', '11:00'))).toBe('closed');
  });
});

describe('order for later', () => {
  it('refuses a time too soon, too far, outside the schedule or not a time with a 400 (English and Arabic) and writes nothing', async () => {
    const before = await countRows(server, 'orders');
    const tooSoon = await order({ scheduledFor: new Date(Date.now() + 5 * 60_000).toISOString() });
    expect(tooSoon.status).toBe(400);
    expect(tooSoon.body.error!.message).toMatch(/^Please choose a time from .*\d\d:\d\d on: the branch needs that long to prepare an order\.$/);
    const tooFar = await order({ scheduledFor: at('10:00', 8) }, AR);
    expect(tooFar.status).toBe(400);
    expect(tooFar.body.error!.message).toBe('يرجى اختيار وقت خلال الأيام السبعة القادمة.');
    // Tomorrow the branch takes online orders 08:00–12:00 only.
    const weekday = new Date(at('12:00')).getUTCDay();
    await server.database.db.update(branchSchedules).set({ openTime: '08:00', closeTime: '12:00' })
      .where(and(eq(branchSchedules.branchId, 1), eq(branchSchedules.dayOfWeek, weekday)));
    try {
      const closed = await order({ scheduledFor: at('13:00') });
      expect(closed.status).toBe(400);
      expect(closed.body.error!.message).toBe('The branch does not take online orders at that time. Please choose a time within its opening hours.');
      expect((await server.api.post(`${STORE}/QuoteOrder`, { token: token.customer, body: { brandId: 7, deliveryOptions: { branchId: 1, isPickup: true }, products: [{ productId: menu.product('Espresso'), quantity: 1 }], scheduledFor: at('13:00') } })).status).toBe(400);
      const slots = await server.api.get(`${STORE}/GetOrderSlots`, { query: { branchId: 1, mode: 'pickup', day: addDays(dayKey(new Date()), 1) } });
      expect(slots.status).toBe(200);
      expect(slots.body.result.slots).toHaveLength(16); // 08:00 … 11:45
      expect(slots.body.result.slots[0]).toMatchObject({ start: at('08:00'), state: 'free', left: null });
    } finally {
      await server.database.db.update(branchSchedules).set({ openTime: '00:00', closeTime: '23:59' }).where(eq(branchSchedules.branchId, 1));
    }
    expect((await order({ scheduledFor: 'tomorrow' })).status).toBe(400);
    expect(await countRows(server, 'orders')).toBe(before);
  });

  it('keeps the time asked for on the order, for the tracker and the board', async () => {
    const placed = await order({ scheduledFor: at('09:00', 2) });
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    const { orderId, ohash } = placed.body.result;
    const detail = await server.api.get(`${STORE}/GetOrderDetail`, { query: { orderId, ohash } });
    expect(detail.body.result).toMatchObject({ scheduledFor: at('09:00', 2), readyEstimateAt: at('09:00', 2) });
    const [row] = await server.database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(row.orderTime?.toISOString()).toBe(at('09:00', 2));
    // The kitchen's ticket names the day and time (day/month, Kuwait's clock) instead of ASAP.
    const ticket = await ticketFor(server.database.db, orderId, { productTypeIds: [], language: 'en' }, 'ticket');
    const dayMonth = addDays(dayKey(new Date()), 2).slice(5).split('-').reverse().join('/');
    expect(ticket!.lines[2].text).toMatch(new RegExp(`^For ${dayMonth} 09:00 · Placed \\d\\d:\\d\\d$`));
    const asap = await order();
    const [asapRow] = await server.database.db.select().from(orders).where(eq(orders.id, asap.body.result.orderId));
    expect(asapRow.scheduledFor).toBeNull();
    // As soon as possible: for its placement plus the branch's 15 minutes.
    expect(asapRow.orderTime!.getTime() - asapRow.createdAt.getTime()).toBeGreaterThan(14 * 60_000);
    expect(asapRow.orderTime!.getTime() - asapRow.createdAt.getTime()).toBeLessThan(16 * 60_000);
    const board = await server.api.get(`${STORE}/GetUserOrdersAsBranchUser`, { token: token.branchuser, query: { SkipCount: 0, MaxResultCount: 50 } });
    const mine = board.body.result.data.find((o: { id: number }) => o.id === orderId);
    expect(mine?.scheduledFor, JSON.stringify(board.body).slice(0, 300)).toBe(at('09:00', 2));
  });
});

describe('capacity per time slot', () => {
  it('takes exactly 10 of 50 orders placed at once in a slot for 10, offers the next free slot to the other 40, and that slot takes the order', async () => {
    expect((await updateBranch({ pickupSlotMax: 10 })).status).toBe(200);
    const slot = at('10:00');
    const answers = await Promise.all(Array.from({ length: 50 }, () => order({ scheduledFor: slot })));
    const placed = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 409);
    expect(placed).toHaveLength(10);
    expect(refused).toHaveLength(40);
    for (const r of refused) {
      expect(r.body.error!.message).toMatch(/^This time is full\. The next free time is (\w{3} )?10:15\.$/);
      expect(r.body.error!.details).toBe(at('10:15'));
    }
    expect(await inSlot(slot)).toBe(10);
    // The quote refuses too, with the same offer, and writes nothing.
    const quote = await server.api.post(`${STORE}/QuoteOrder`, { token: token.customer, body: { brandId: 7, deliveryOptions: { branchId: 1, isPickup: true }, products: [{ productId: menu.product('Espresso'), quantity: 1 }], scheduledFor: slot } });
    expect([quote.status, quote.body.error!.details]).toEqual([409, at('10:15')]);
    // In Arabic.
    expect((await order({ scheduledFor: slot }, AR)).body.error!.message).toMatch(/^هذا الوقت ممتلئ\. أقرب وقت متاح هو (\w{3} )?10:15\.$/);
    // The offered slot takes the order.
    expect((await order({ scheduledFor: refused[0].body.error!.details })).status).toBe(200);
    const day = await server.api.get(`${STORE}/GetOrderSlots`, { query: { branchId: 1, mode: 'pickup', day: addDays(dayKey(new Date()), 1) } });
    const state = (start: string) => day.body.result.slots.find((s: { start: string }) => s.start === start);
    expect(state(slot)).toMatchObject({ state: 'full', taken: 10, left: 0 });
    expect(state(at('10:15'))).toMatchObject({ state: 'free', taken: 1, left: 9 });
    // Car service has its own slots: no limit there.
    expect((await order({ scheduledFor: slot, deliveryOptions: { branchId: 1, isCarService: true }, carDetails: 'White Lexus 12345' })).status).toBe(200);

    // A rejected order frees its place: one more fits, then the slot is full again.
    const rejected = await sendOrderEvent(server.api, 'order.reject', placed[0].body.result.orderId, token.branchuser);
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
    expect(await inSlot(slot)).toBe(9);
    expect((await order({ scheduledFor: slot })).status).toBe(200);
    expect((await order({ scheduledFor: slot })).status).toBe(409);
    expect(await inSlot(slot)).toBe(10);
  }, 120_000);

  it('refuses a full slot for an order "as soon as possible" too, offering a later slot', async () => {
    expect((await updateBranch({ pickupSlotMax: 1 })).status).toBe(200);
    const first = await order();
    const second = await order();
    // Two orders a minute apart may fall either side of a slot's end: at most one per slot.
    if (first.status === 200 && second.status === 200) {
      const rows = await server.database.db.select({ t: orders.orderTime }).from(orders).where(sql`${orders.id} in (${first.body.result.orderId}, ${second.body.result.orderId})`);
      expect(slotOf(rows[0].t!, 15).start).not.toEqual(slotOf(rows[1].t!, 15).start);
    } else {
      const refused = first.status === 409 ? first : second;
      expect(refused.status).toBe(409);
      expect(new Date(refused.body.error!.details!).getTime()).toBeGreaterThan(Date.now() + 15 * 60_000);
    }
    expect((await updateBranch({ pickupSlotMax: null })).status).toBe(200);
  });

  it('a closed slot refuses orders until it is opened again; closing is audited and needs orders.operate', async () => {
    const slot = at('11:30');
    const close = (who: string | undefined, body: unknown) => server.api.post(`${BRANCH}/SetOrderSlotClosed`, { token: who && token[who], body });
    // 401 and 403 come before any complaint about the body.
    expect((await close(undefined, { nonsense: true })).status).toBe(401);
    expect((await close('customer', { nonsense: true })).status).toBe(403);
    expect((await server.api.get(`${BRANCH}/GetOrderSlotLoads`, { token: token.customer, query: { branchId: 'x' } })).status).toBe(403);
    expect((await server.api.get(`${STORE}/GetOrderSlots`, { query: { branchId: 1, mode: 'boat' } })).status).toBe(400);
    expect((await close('branchuser', { branchId: 1, mode: 'pickup', slotStart: at('11:37'), closed: true })).status).toBe(400);
    expect((await close('branchuser', { branchId: 2, mode: 'pickup', slotStart: slot, closed: true })).status).toBe(400);
    expect((await close('branchuser', { branchId: 1, mode: 'pickup', slotStart: slot, closed: true })).status).toBe(200);

    const refused = await order({ scheduledFor: slot });
    expect(refused.status).toBe(409);
    expect(refused.body.error!.message).toMatch(/^This time is closed for orders\. The next free time is (\w{3} )?11:45\.$/);
    expect(refused.body.error!.details).toBe(at('11:45'));
    const loads = await server.api.get(`${BRANCH}/GetOrderSlotLoads`, { token: token.branchuser, query: { branchId: 1, mode: 'pickup', day: addDays(dayKey(new Date()), 1) } });
    expect(loads.body.result.slots.find((s: { start: string }) => s.start === slot)).toMatchObject({ state: 'closed' });

    expect((await close('branchuser', { branchId: 1, mode: 'pickup', slotStart: slot, closed: false })).status).toBe(200);
    expect((await order({ scheduledFor: slot })).status).toBe(200);
    const audit = await server.database.db.select().from(auditLog).where(eq(auditLog.resource, 'OrderSlot'));
    expect(audit.map((a) => [a.action, (a.after as { closed: boolean }).closed])).toEqual([['create', true], ['update', false]]);
  });

  it('the capacity settings go through Branch/Update within their ranges', async () => {
    for (const bad of [{ pickupSlotMinutes: 4 }, { deliverySlotMinutes: 121 }, { carServiceSlotMax: 0 }, { inProgressMax: -1 }]) {
      expect((await updateBranch(bad)).status, JSON.stringify(bad)).toBe(400);
    }
    const res = await updateBranch({ deliverySlotMinutes: 30, inProgressMax: 40 });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ pickupSlotMinutes: 15, deliverySlotMinutes: 30, deliverySlotMax: null, inProgressMax: 40 });
    expect((await updateBranch({ inProgressMax: null })).body.result.inProgressMax).toBeNull();
  });
});

describe("the count kept on the slot's row (order_slots.taken)", () => {
  const ops = () => ({ db: server.database.db, events: server.events });
  const kept = async (start: string) => (await server.database.db.select({ taken: orderSlots.taken }).from(orderSlots)
    .where(and(eq(orderSlots.branchId, 1), eq(orderSlots.mode, 'pickup'), eq(orderSlots.slotStart, new Date(start)))))[0]?.taken;

  it('goes up with each placement and down with each rejection, by the branch or by the deadline', async () => {
    expect((await updateBranch({ pickupSlotMax: 3 })).status).toBe(200);
    const slot = at('15:00');
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await order({ scheduledFor: slot })).body.result.orderId);
    expect(await kept(slot)).toBe(3);
    expect((await order({ scheduledFor: slot })).status).toBe(409);
    expect(await kept(slot)).toBe(3);

    expect((await sendOrderEvent(server.api, 'order.reject', ids[0], token.branchuser)).status).toBe(200);
    expect(await kept(slot)).toBe(2);
    expect((await order({ scheduledFor: slot })).status).toBe(200);
    expect(await kept(slot)).toBe(3);

    // Fired at their fire time and never accepted: the deadline rejects them, and their places come back.
    const fireAt = new Date(new Date(slot).getTime() - 15 * 60_000);
    while ((await fireDueOrders(ops(), fireAt)).length) { /* every order for later due by then */ }
    expect(await rejectLateOrders(ops(), new Date(Date.now() + 11 * 60_000))).toEqual(expect.arrayContaining([ids[1], ids[2]]));
    expect(await kept(slot)).toBe(0);
    expect(await inSlot(slot)).toBe(0);
    expect((await order({ scheduledFor: slot })).status).toBe(200);
    expect(await kept(slot)).toBe(1);
  });

  it('stays exact with 50 placements at once and rejections among them, and the slot then fills to its maximum exactly', async () => {
    expect((await updateBranch({ pickupSlotMax: 30 })).status).toBe(200);
    const slot = at('16:00');
    const answers = await Promise.all(Array.from({ length: 50 }, async (_, i) => {
      const placed = await order({ scheduledFor: slot });
      // Every third order placed is rejected at once, while the others are still being placed.
      if (placed.status === 200 && i % 3 === 0) expect((await sendOrderEvent(server.api, 'order.reject', placed.body.result.orderId, token.branchuser)).status).toBe(200);
      return placed.status;
    }));
    expect(answers.every((s) => s === 200 || s === 409)).toBe(true);
    expect(await kept(slot)).toBe(await inSlot(slot));
    expect(await inSlot(slot)).toBeLessThanOrEqual(30);
    while ((await order({ scheduledFor: slot })).status === 200) { /* fill it */ }
    expect([await kept(slot), await inSlot(slot)]).toEqual([30, 30]);
  }, 120_000);

  it('is counted again from the orders when the slot length or the maximum changes', async () => {
    expect((await updateBranch({ pickupSlotMax: 2 })).status).toBe(200);
    expect((await order({ scheduledFor: at('17:00') })).status).toBe(200);
    expect((await order({ scheduledFor: at('17:15') })).status).toBe(200);
    expect(await kept(at('17:00'))).toBe(1);
    // 30-minute slots: 17:00–17:30 holds both orders, and its row's old count is not kept any more.
    expect((await updateBranch({ pickupSlotMinutes: 30, pickupSlotMax: 3 })).status).toBe(200);
    expect(await kept(at('17:00'))).toBeNull();
    expect((await order({ scheduledFor: at('17:00') })).status).toBe(200);
    expect(await kept(at('17:00'))).toBe(3);
    expect((await order({ scheduledFor: at('17:00') })).status).toBe(409);
    expect((await updateBranch({ pickupSlotMinutes: 15, pickupSlotMax: null })).status).toBe(200);
  });
});
