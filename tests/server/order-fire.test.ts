import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { branches, orders, printJobs } from '../../server/db/schema';
import { orderJobs, rejectLateOrders } from '../../server/orders/deadline';
import { fireDueOrders } from '../../server/orders/fire';
import type { OrderEvent } from '../../server/events/orderEvents';
import { NOT_ACCEPTED_IN_TIME } from '../../machines/orderLifecycle';
import { addDays, dayKey } from '../../domain/time';
import { readOrder, sendOrderEvent } from '../support/orders';
import { seededMenu } from '../support/shopMenu';
import { useServer } from '../support/harness';

/**
 * Issue 25, "order for later", the kitchen half: an order whose fire time (its chosen time less the
 * branch's preparation minutes) is ahead is placed `scheduled`: not on the kitchen's lists, no alert,
 * no ticket, no auto-accept, no deadline. The job runner fires it once at its fire time (scheduled →
 * pending, `order.fired` on the feed), and the acceptance deadline counts from then.
 */
const API = '/api/services/app';
const STORE = `${API}/Store`;
let menu: Awaited<ReturnType<typeof seededMenu>>;
const token: Record<string, string> = {};
const server = useServer();
const heard: OrderEvent[] = [];
beforeAll(async () => {
  menu = await seededMenu(server);
  for (const who of ['admin', 'brandmanager', 'branchuser', 'customer']) token[who] = await server.api.login(who);
  server.events.subscribe((e) => heard.push(e));
});

const ops = () => ({ db: server.database.db, events: server.events });
const eventsOf = (id: number) => heard.filter((e) => e.orderId === id).map((e) => e.type);
const preparation = async () => (await server.database.db.select({ m: branches.preparationMinutes }).from(branches).where(eq(branches.id, 1)))[0].m;

/** The free pickup slots of tomorrow at Salmiya (branch 1), as the shop offers them. */
async function tomorrowsSlots(): Promise<string[]> {
  const res = await server.api.get(`${STORE}/GetOrderSlots`, { query: { branchId: 1, mode: 'pickup', day: addDays(dayKey(new Date()), 1) } });
  return (res.body.result.slots as { start: string; state: string }[]).filter((s) => s.state === 'free').map((s) => s.start);
}

/** A customer's cash pickup order at branch 1, for `scheduledFor` (or as soon as possible). */
async function placeOrder(scheduledFor?: string) {
  const res = await server.api.post(`${STORE}/SaveNewOrderVS1`, {
    token: token.customer, headers: { 'idempotency-key': randomUUID() },
    body: {
      brandId: 7, paymentSystem: 2, deliveryOptions: { branchId: 1, isPickup: true },
      products: [{ productId: menu.product('Espresso'), quantity: 1 }], ...(scheduledFor ? { scheduledFor } : {}),
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result.orderId as number;
}
const listIds = async (method: string, query: Record<string, unknown> = {}) =>
  ((await server.api.get(`${STORE}/${method}`, { token: token.branchuser, query: { MaxResultCount: 100, ...query } })).body.result.data as { id: number }[]).map((o) => o.id);
/** The moment its fire time has come: the chosen time less the branch's preparation minutes. */
const fireTime = async (id: number) => new Date((await readOrder(server, id)).scheduledFor!.getTime() - (await preparation()) * 60_000);

describe('an order for later', () => {
  it('is placed scheduled: off the kitchen\'s current lists, no alert, no ticket, not auto-accepted, never rejected for waiting', async () => {
    expect((await server.api.put(`${API}/Branch/Update`, { token: token.brandmanager, body: { id: 1, autoAccept: true } })).status).toBe(200);
    await server.api.post(`${API}/Printer/Create`, { token: token.brandmanager, body: { branchId: 1, name: 'Bar', protocol: 'starCloudPrnt' } });
    const [slot] = await tomorrowsSlots();
    const id = await placeOrder(slot);
    const asap = await placeOrder();
    await new Promise((r) => setTimeout(r, 300)); // the auto-accept event path had its chance
    const row = await readOrder(server, id);
    expect(row).toMatchObject({ status: 'scheduled', firedAt: null, version: 0 });
    expect(row.scheduledFor!.toISOString()).toBe(slot);
    expect(eventsOf(id)).toEqual(['order.scheduled']);
    expect(eventsOf(asap)[0]).toBe('order.created');
    // The kitchen's current lists leave it out; the list of all orders shows it, and the counts know it.
    expect(await listIds('GetCurrentUserOrdersAsBranchUser')).not.toContain(id);
    expect(await listIds('GetCurrentPickUpUserOrdersAsBranchUser')).not.toContain(id);
    expect(await listIds('GetCurrentUserOrdersAsBranchUser')).toContain(asap);
    const all = await server.api.get(`${STORE}/GetUserOrdersAsBranchUser`, { token: token.branchuser, query: { MaxResultCount: 100, Status: 'scheduled', IncludeCounts: true } });
    expect(all.body.result.data.map((o: { id: number }) => o.id)).toContain(id);
    expect(all.body.result.data.find((o: { id: number }) => o.id === id)).toMatchObject({ status: 'scheduled', scheduledFor: slot });
    expect(all.body.result.counts.scheduled).toBeGreaterThanOrEqual(1);
    // No ticket, and the timed round (auto-accept, the deadline an hour from now) leaves it alone.
    expect(await server.database.db.select().from(printJobs).where(eq(printJobs.orderId, id))).toEqual([]);
    await server.database.db.update(orders).set({ createdAt: sql`now() - interval '2 hours'` }).where(eq(orders.id, id));
    for (const job of orderJobs(ops())) await job.run(new Date());
    expect(await readOrder(server, id)).toMatchObject({ status: 'scheduled', version: 0 });
    // Staff cannot accept it before it reaches the kitchen.
    const accept = await sendOrderEvent(server.api, 'order.accept', id, token.branchuser);
    expect(accept.status).toBe(409);
    expect(accept.body.error.message).toBe(`Order #${id} cannot be accepted: it is scheduled`);
  });

  it('is fired once at its fire time, even by two runners at once; then the auto-accepting branch accepts it and prints its ticket', async () => {
    const [, slot] = await tomorrowsSlots();
    const id = await placeOrder(slot);
    const at = await fireTime(id);
    // A minute before its fire time nothing happens.
    expect(await fireDueOrders(ops(), new Date(at.getTime() - 60_000))).not.toContain(id);
    expect((await readOrder(server, id)).status).toBe('scheduled');
    const rounds = await Promise.all([fireDueOrders(ops(), at), fireDueOrders(ops(), at)]);
    expect(rounds.flat().filter((x) => x === id)).toEqual([id]);
    const fired = await readOrder(server, id);
    expect(fired.firedAt).not.toBeNull();
    expect(eventsOf(id).filter((e) => e === 'order.fired')).toHaveLength(1);
    // The same round's auto-accept takes it as a new order: accepted, one ticket.
    const accept = orderJobs(ops()).find((j) => j.name === 'auto-accept')!;
    await accept.run(new Date());
    expect(await readOrder(server, id)).toMatchObject({ status: 'accepted' });
    expect(await server.database.db.select().from(printJobs).where(eq(printJobs.orderId, id))).toHaveLength(1);
    expect((await server.api.put(`${API}/Branch/Update`, { token: token.brandmanager, body: { id: 1, autoAccept: false } })).status).toBe(200);
  });

  it('counts the acceptance deadline from its fire time, not from its placement', async () => {
    const [, , slot] = await tomorrowsSlots();
    const id = await placeOrder(slot);
    // Placed two hours ago; it reaches the kitchen now.
    await server.database.db.update(orders).set({ createdAt: sql`now() - interval '2 hours'` }).where(eq(orders.id, id));
    expect(await rejectLateOrders(ops())).not.toContain(id);
    expect(await fireDueOrders(ops(), await fireTime(id))).toEqual([id]);
    expect((await readOrder(server, id)).status).toBe('pending');
    expect(await rejectLateOrders(ops())).not.toContain(id);
    expect((await readOrder(server, id)).status).toBe('pending');
    // Its branch's deadline (10 minutes) after it fired, it is rejected like any order nobody took.
    expect(await rejectLateOrders(ops(), new Date(Date.now() + 11 * 60_000))).toContain(id);
    expect(await readOrder(server, id)).toMatchObject({ status: 'rejected', statusReason: NOT_ACCEPTED_IN_TIME });
  });

  it('may be rejected by the branch before it fires, with a reason; it then never fires', async () => {
    const [, , , slot] = await tomorrowsSlots();
    const id = await placeOrder(slot);
    const noReason = await server.api.put(`${STORE}/UpdateOrderStatus`, { token: token.branchuser, body: { orderId: id, status: 'rejected' } });
    expect(noReason.status).toBe(400);
    const res = await server.api.put(`${STORE}/UpdateOrderStatus`, { token: token.branchuser, body: { orderId: id, status: 'rejected', reason: 'Closing soon' } });
    expect(res.status, JSON.stringify(res.body.error)).toBe(200);
    expect(await readOrder(server, id)).toMatchObject({ status: 'rejected', statusReason: 'Closing soon' });
    expect(await fireDueOrders(ops(), await fireTime(id))).not.toContain(id);
    expect(eventsOf(id)).not.toContain('order.fired');
  });

  it('fires earlier when the branch raises its preparation time (the fire time is read when the runner looks)', async () => {
    const [, , , , slot] = await tomorrowsSlots();
    const id = await placeOrder(slot);
    const before = await preparation();
    // Its chosen time is now 30 minutes away (moved in the database): not due with 15 minutes' preparation, due with 45.
    await server.database.db.update(orders).set({ scheduledFor: sql`now() + interval '30 minutes'` }).where(eq(orders.id, id));
    try {
      await server.database.db.update(branches).set({ preparationMinutes: 15 }).where(eq(branches.id, 1));
      expect(await fireDueOrders(ops())).not.toContain(id);
      await server.database.db.update(branches).set({ preparationMinutes: 45 }).where(eq(branches.id, 1));
      expect(await fireDueOrders(ops())).toEqual([id]);
    } finally {
      await server.database.db.update(branches).set({ preparationMinutes: before }).where(eq(branches.id, 1));
    }
  });
});
