import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { countRows } from '../support/server';
import {
  BRANCH, EVENT_ACTOR, insertOrder, reachableOrderStates, readOrder, REFUND, sendOrderEvent, STAFF_EVENT_TYPES, STORE, useOrderCallers, type OrderCaller, type TestOrderInput,
} from '../support/orders';
import { useServer } from '../support/harness';
import { branches, refundRequests } from '../../server/db/schema';
import { transitionOrder } from '../../server/orders/transition';
import { forgetCallerHere } from '../../server/auth/callers';
import {
  isRepeat, nextOrderState, ORDER_STATUS_TYPES, type DeliverySystem, type OrderLifecycleEvent,
} from '../../machines/orderLifecycle';

/** The order lifecycle on the server; who may call what: orders-access.test.ts. */
type Who = OrderCaller;
/** A branch of brand 7 used only by the list tests, so their counts are exact. */
let listBranchId: number;

const server = useServer();
const { token, get } = useOrderCallers(server);
beforeAll(async () => {
  const [list] = await server.database.db.insert(branches).values({ brandId: 7, name: 'List tests' }).returning();
  listBranchId = list.id;
});

// ─── the lifecycle on the server ─────────────────────────────────────────────
describe('every (state, event) the machine refuses is refused by the server, nothing written', () => {
  const systems: DeliverySystem[] = ['pickup', 'carService', 'delivery'];
  const cases = systems.flatMap((deliverySystem) =>
    reachableOrderStates(deliverySystem).flatMap((state) =>
      STAFF_EVENT_TYPES
        .filter((type) => {
          const row = { ...state, deliverySystem };
          return !nextOrderState(row, { type } as OrderLifecycleEvent) && !isRepeat(row, { type } as OrderLifecycleEvent);
        })
        .map((type) => [deliverySystem, `${state.status}/${state.arrival}/${state.payment}/${state.refund}/${state.isViewed ? 'read' : 'unread'}`, type, state] as const)));

  it('covers a real number of refusals', () => {
    expect(cases.length).toBeGreaterThan(100);
  });

  it.each(cases)('%s %s: %s → 409', async (deliverySystem, _label, type, state) => {
    const order = await insertOrder(server, { deliverySystem, ...state } as TestOrderInput);
    const requests = await countRows(server, 'refund_requests');
    const res = await sendOrderEvent(server.api, type, order.id, token[EVENT_ACTOR[type]]!);
    expect(res.status, JSON.stringify(res.body.error)).toBe(409);
    expect(res.body.error!.message).toMatch(new RegExp(`^Order #${order.id} cannot be `));
    expect(await readOrder(server, order.id)).toEqual(order);
    expect(await countRows(server, 'refund_requests')).toBe(requests);
  });

  it('explains the refusal', async () => {
    const order = await insertOrder(server, { status: 'closed' });
    const res = await sendOrderEvent(server.api, 'order.accept', order.id, token.branchuser!);
    expect(res.body.error!.message).toBe(`Order #${order.id} cannot be accepted: it is closed`);
  });

  it('refuses moving back to pending, and unknown statuses with a 400', async () => {
    const order = await insertOrder(server, { status: 'accepted' });
    const back = await server.api.put(`${STORE}/UpdateOrderStatus`, { token: token.branchuser, body: { orderId: order.id, status: 'pending' } });
    expect(back.status).toBe(409);
    const unknown = await server.api.put(`${STORE}/UpdateOrderStatus`, { token: token.branchuser, body: { orderId: order.id, status: 'cooking' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error!.message).toContain('Unknown order status "cooking"');
    expect(await readOrder(server, order.id)).toEqual(order);
  });

  it('takes the status by name or by id of GetOrderStatusTypes', async () => {
    const types = (await get(`${STORE}/GetOrderStatusTypes`, 'none')).body.result;
    // Ready came last (issue 11), then scheduled (issue 25), so the legacy ids keep their statuses.
    expect(types.map((t: { name: string }) => t.name)).toEqual(['pending', 'accepted', 'rejected', 'closed', 'ready', 'scheduled']);
    expect(types.map((t: { name: string }) => t.name)).toEqual(ORDER_STATUS_TYPES.map((t) => t.name));
    const order = await insertOrder(server);
    const rejected = types.find((t: { name: string }) => t.name === 'rejected');
    const res = await server.api.put(`${STORE}/UpdateOrderStatus`, { token: token.branchuser, body: { orderId: order.id, status: rejected.id, reason: 'Item sold out' } });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ id: order.id, status: 'rejected', version: 1 });
  });
});

describe('concurrent changes of one order', () => {
  it('two accepts at once: exactly one wins, the other gets 409', async () => {
    const order = await insertOrder(server);
    const results = await Promise.all([
      server.api.put(`${STORE}/UpdateOrderStatus`, { token: token.branchuser, body: { orderId: order.id, status: 'accepted' } }),
      server.api.put(`${STORE}/UpdateOrderStatus`, { token: token.brandmanager, body: { orderId: order.id, status: 'accepted' } }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const row = await readOrder(server, order.id);
    expect(row).toMatchObject({ status: 'accepted', version: 1 });
  });

  it('accept and reject at once: one wins, the other gets 409, the row is the winner\'s', async () => {
    for (let i = 0; i < 5; i++) {
      const order = await insertOrder(server);
      const [accept, reject] = await Promise.all([
        server.api.put(`${STORE}/UpdateOrderStatus`, { token: token.branchuser, body: { orderId: order.id, status: 'accepted' } }),
        server.api.put(`${STORE}/UpdateOrderStatus`, { token: token.admin, body: { orderId: order.id, status: 'rejected', reason: 'Item sold out' } }),
      ]);
      expect([accept.status, reject.status].sort()).toEqual([200, 409]);
      const row = await readOrder(server, order.id);
      expect(row.status).toBe(accept.status === 200 ? 'accepted' : 'rejected');
      expect(row.version).toBe(1);
    }
  });

  it('a change based on a stale version is a 409, nothing written', async () => {
    const order = await insertOrder(server);
    await sendOrderEvent(server.api, 'order.markRead', order.id, token.branchuser!);
    const before = await readOrder(server, order.id);
    const res = await server.api.put(`${STORE}/UpdateOrderStatus`, { token: token.branchuser, body: { orderId: order.id, status: 'accepted', version: 0 } });
    expect(res.status).toBe(409);
    expect(res.body.error!.message).toContain('was changed by someone else');
    expect(await readOrder(server, order.id)).toEqual(before);
  });

  it('many changes of different kinds at once keep the version count exact', async () => {
    const order = await insertOrder(server, { deliverySystem: 'carService' });
    const calls = (['order.markRead', 'order.markPaid', 'order.accept', 'order.arrive'] as const)
      .map((type) => sendOrderEvent(server.api, type, order.id, token[EVENT_ACTOR[type]]!));
    const results = await Promise.all(calls);
    const won = results.filter((r) => r.status === 200).length;
    expect(results.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    expect((await readOrder(server, order.id)).version).toBe(won);
  });
});

describe('mark as paid is idempotent', () => {
  it('over REST: the second call answers the paid order and changes nothing', async () => {
    const order = await insertOrder(server);
    const first = await server.api.put(`${STORE}/UpdateOrderToPaidStatus`, { token: token.branchuser, body: { orderId: order.id } });
    expect(first.status).toBe(200);
    expect(first.body.result).toMatchObject({ payment: 'paid', version: 1 });
    const paid = await readOrder(server, order.id);
    expect(paid.paidAt).toBeInstanceOf(Date);
    const second = await server.api.put(`${STORE}/UpdateOrderToPaidStatus`, { token: token.brandmanager, body: { orderId: order.id } });
    expect(second.status).toBe(200);
    expect(second.body.result).toMatchObject({ payment: 'paid', version: 1 });
    expect(await readOrder(server, order.id)).toEqual(paid);
  });

  it('for the system (payment callback): changed once, then a no-op, one event published', async () => {
    const order = await insertOrder(server);
    const seen: number[] = [];
    const stop = server.events.subscribe((e) => { if (e.orderId === order.id) seen.push(e.orderId); });
    const ops = { db: server.database.db, events: server.events };
    const results = await Promise.all([1, 2, 3].map(() => transitionOrder(ops, order.id, { type: 'order.markPaid' }, null)));
    expect(results.filter((r) => r.changed)).toHaveLength(1);
    expect((await readOrder(server, order.id)).version).toBe(1);
    await new Promise((r) => setTimeout(r, 100));
    stop();
    expect(seen).toHaveLength(1);
  });

  it('marking read twice is a no-op too', async () => {
    const order = await insertOrder(server);
    await sendOrderEvent(server.api, 'order.markRead', order.id, token.branchuser!);
    const again = await sendOrderEvent(server.api, 'order.markRead', order.id, token.admin!);
    expect(again.status).toBe(200);
    expect((await readOrder(server, order.id)).version).toBe(1);
  });
});

// ─── the calls one by one ────────────────────────────────────────────────────
describe('lists', () => {
  const seeded: Record<string, number> = {};
  beforeAll(async () => {
    const mk = async (key: string, input: TestOrderInput) => { seeded[key] = (await insertOrder(server, { branchId: listBranchId, ...input })).id; };
    await mk('pendingPickup', { deliverySystem: 'pickup', userId: 18, guestCustomerName: 'Hessa Q', guestPhoneNumber: '+96599887766', total: '4.500', subtotal: '4.500' });
    await mk('acceptedCar', { deliverySystem: 'carService', status: 'accepted', payment: 'paid', total: '9.000', subtotal: '9.000' });
    await mk('arrivedCar', { deliverySystem: 'carService', status: 'pending', arrival: 'arrived', total: '1.000', subtotal: '1.000' });
    await mk('servedCar', { deliverySystem: 'carService', status: 'closed', arrival: 'served', payment: 'paid' });
    await mk('noShowPickup', { deliverySystem: 'pickup', status: 'closed', arrival: 'noShow' });
    await mk('rejectedDelivery', { deliverySystem: 'delivery', status: 'rejected', orderNumber: 'WEB-777001' });
    await mk('acceptedDelivery', { deliverySystem: 'delivery', status: 'accepted', payment: 'paid', items: [{ productId: 1, quantity: 3 }, { productId: 2, quantity: 1 }] });
  });
  const list = (call: string, who: Who = 'admin', query: Record<string, unknown> = {}) =>
    get(`${STORE}/${call}`, who, { BranchId: listBranchId, ...query });
  const ids = (res: { body: any }) => res.body.result.data.map((o: { id: number }) => o.id).sort((a: number, b: number) => a - b);
  const idsOf = (...keys: string[]) => keys.map((k) => seeded[k]).sort((a, b) => a - b);

  it('GetUserOrdersAsBranchUser: all orders, newest first, with every OrderRow field', async () => {
    const res = await list('GetUserOrdersAsBranchUser');
    expect(res.body.result.totalCount).toBe(7);
    const data = res.body.result.data;
    expect(data.map((o: { id: number }) => o.id)).toEqual([...data.map((o: { id: number }) => o.id)].sort((a: number, b: number) => b - a));
    const row = data.find((o: { id: number }) => o.id === seeded.pendingPickup);
    expect(row).toMatchObject({
      id: seeded.pendingPickup, status: 'pending', arrival: 'none', payment: 'unpaid', refund: 'none', isViewed: false, version: 0,
      deliverySystem: 'pickup', customerName: 'Hessa Q', customerPhone: '+96599887766', total: 4.5, subtotal: 4.5,
      branchId: listBranchId, brandId: 7, itemsCount: 2, orderNumber: expect.any(String), createdAt: expect.any(String),
    });
    const registered = data.find((o: { id: number }) => o.id === seeded.acceptedDelivery);
    expect(registered).toMatchObject({ customerName: 'Sara Customer', customerPhone: '+96550000001', itemsCount: 4 });
  });

  it.each([
    ['GetUnPaidUserOrdersAsBranchUser', ['pendingPickup', 'arrivedCar', 'noShowPickup', 'rejectedDelivery']],
    ['GetCurrentUserOrdersAsBranchUser', ['pendingPickup', 'acceptedCar', 'arrivedCar', 'acceptedDelivery']],
    ['GetPendingdStatusOrdersHistory', ['pendingPickup', 'arrivedCar']],
    ['GetAcceptedStatusOrdersHistory', ['acceptedCar', 'acceptedDelivery']],
    ['GetRejectedStatusOrdersHistory', ['rejectedDelivery']],
    ['GetCloseddStatusOrdersHistory', ['servedCar', 'noShowPickup']],
  ])('%s', async (call, keys) => {
    const res = await list(call);
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual(idsOf(...keys));
    expect(res.body.result.totalCount).toBe(keys.length);
  });

  it('the drive-thru and pick-up lists are the branch user\'s current orders of that kind', async () => {
    // Move the list branch's orders' view to the branch user by giving them that branch for a moment.
    const { users } = await import('../../server/db/schema');
    await server.database.db.update(users).set({ branchId: listBranchId }).where(eq(users.id, 4));
    forgetCallerHere(4); // A change by hand: the server's process hears it from the database (migration 0055) a moment later on PostgreSQL; tell it now, as the product's own writes do.
    try {
      expect(ids(await list('GetCurrentDriveThruUserOrdersAsBranchUser', 'branchuser'))).toEqual(idsOf('acceptedCar', 'arrivedCar'));
      expect(ids(await list('GetCurrentPickUpUserOrdersAsBranchUser', 'branchuser'))).toEqual(idsOf('pendingPickup'));
    } finally {
      await server.database.db.update(users).set({ branchId: 1 }).where(eq(users.id, 4));
      forgetCallerHere(4);
    }
  });

  it('counts by arrival: arrived (still open), served, no-show', async () => {
    expect((await list('GetOrdersCountByArrivedStatus')).body.result).toBe(1);
    expect((await list('GetOrdersCountByServedStatus')).body.result).toBe(1);
    expect((await list('GetOrdersCountByNoShowStatus')).body.result).toBe(1);
    expect((await list('GetOrdersCountByNoShowStatus', 'admin', { DeliverySystem: 'carService' })).body.result).toBe(0);
    expect((await list('GetOrdersCountByServedStatus', 'branchuser')).body.result).toBe(0);
  });

  it('status counts with IncludeCounts, whatever the status filter', async () => {
    const res = await list('GetPendingdStatusOrdersHistory', 'admin', { IncludeCounts: true });
    expect(res.body.result.counts).toEqual({ pending: 2, accepted: 2, ready: 0, rejected: 1, closed: 2, scheduled: 0 });
    expect((await list('GetUserOrdersAsBranchUser')).body.result.counts).toBeUndefined();
  });

  it('filters: status, payment, delivery system, search by number, phone, name, id', async () => {
    expect(ids(await list('GetUserOrdersAsBranchUser', 'admin', { Status: 'accepted', Payment: 'paid', DeliverySystem: 'carService' }))).toEqual(idsOf('acceptedCar'));
    expect(ids(await list('GetCurrentUserOrdersAsBranchUser', 'admin', { Status: 'closed' }))).toEqual([]);
    expect(ids(await list('GetUserOrdersAsBranchUser', 'admin', { Search: 'web-777' }))).toEqual(idsOf('rejectedDelivery'));
    expect(ids(await list('GetUserOrdersAsBranchUser', 'admin', { Search: '99887766' }))).toEqual(idsOf('pendingPickup'));
    expect(ids(await list('GetUserOrdersAsBranchUser', 'admin', { Search: 'hessa' }))).toEqual(idsOf('pendingPickup'));
    expect(ids(await list('GetUserOrdersAsBranchUser', 'admin', { Search: `#${seeded.servedCar}` }))).toEqual(idsOf('servedCar'));
    expect((await list('GetUserOrdersAsBranchUser', 'admin', { Search: 'sara' })).body.result.totalCount).toBe(6);
    expect((await list('GetUserOrdersAsBranchUser', 'admin', { Search: '100%_' })).body.result.totalCount).toBe(0);
  });

  it('CreatedAfterId: what a reconnecting console missed', async () => {
    const res = await list('GetUserOrdersAsBranchUser', 'admin', { CreatedAfterId: seeded.servedCar });
    expect(ids(res)).toEqual(idsOf('noShowPickup', 'rejectedDelivery', 'acceptedDelivery'));
  });

  it('sorting by a whitelisted column, asc or desc; anything else is a 400', async () => {
    const totals = async (Sorting: string) => (await list('GetUserOrdersAsBranchUser', 'admin', { Sorting })).body.result.data.map((o: { total: number }) => o.total);
    const asc = await totals('total asc');
    expect(asc).toEqual([...asc].sort((a: number, b: number) => a - b));
    const desc = await totals('total DESC');
    expect(desc).toEqual([...asc].reverse());
    const byStatus = (await list('GetUserOrdersAsBranchUser', 'admin', { Sorting: 'status' })).body.result.data.map((o: { status: string }) => o.status);
    expect(byStatus).toEqual([...byStatus].sort());
    expect((await list('GetUserOrdersAsBranchUser', 'admin', { Sorting: 'createdAt desc' })).status).toBe(200);
    for (const bad of ['ohash', 'total; drop table orders', 'id sideways']) {
      const res = await list('GetUserOrdersAsBranchUser', 'admin', { Sorting: bad });
      expect(res.status, bad).toBe(400);
      expect(res.body.error!.message).toContain('is not supported');
    }
  });

  it('pages with SkipCount and MaxResultCount, capped at 100', async () => {
    const page1 = await list('GetUserOrdersAsBranchUser', 'admin', { MaxResultCount: 3 });
    const page2 = await list('GetUserOrdersAsBranchUser', 'admin', { MaxResultCount: 3, SkipCount: 3 });
    expect(page1.body.result.data).toHaveLength(3);
    expect(page1.body.result.totalCount).toBe(7);
    expect(ids(page1).filter((id: number) => ids(page2).includes(id))).toEqual([]);
    const all = await get(`${STORE}/GetUserOrdersAsBranchUser`, 'admin', { MaxResultCount: 1000 });
    expect(all.status).toBe(200);
    expect(all.body.result.data.length).toBeLessThanOrEqual(100);
    const many = await countRows(server, 'orders');
    expect(all.body.result.data.length).toBe(Math.min(100, many));
    expect((await get(`${STORE}/GetUserOrdersAsBranchUser`, 'admin', { MaxResultCount: 0 })).status).toBe(400);
    expect((await get(`${STORE}/GetUserOrdersAsBranchUser`, 'admin', { SkipCount: -1 })).status).toBe(400);
  });
});

describe('the changes, one by one', () => {
  it('UpdateOrderStatus accepts, then closes; answers the order row', async () => {
    const order = await insertOrder(server);
    const accepted = await server.api.put(`${STORE}/UpdateOrderStatus`, { token: token.branchuser, body: { orderId: order.id, status: 'accepted' } });
    expect(accepted.body.result).toMatchObject({ id: order.id, status: 'accepted', version: 1 });
    const closed = await server.api.put(`${STORE}/UpdateOrderStatus`, { token: token.branchuser, body: { orderId: order.id, status: 'Closed' } });
    expect(closed.body.result).toMatchObject({ status: 'closed', version: 2 });
  });

  it('CustomerServed closes an accepted car-service order; CustomerNoShow closes a pending pickup order', async () => {
    const car = await insertOrder(server, { deliverySystem: 'carService', status: 'accepted' });
    expect((await sendOrderEvent(server.api, 'order.serve', car.id, token.branchuser!)).body.result).toMatchObject({ status: 'closed', arrival: 'served' });
    const pickup = await insertOrder(server);
    expect((await sendOrderEvent(server.api, 'order.noShow', pickup.id, token.branchuser!)).body.result).toMatchObject({ status: 'closed', arrival: 'noShow' });
  });

  it('CustomerArrived: the customer who ordered, not another customer; a guest needs the ohash', async () => {
    const car = await insertOrder(server, { deliverySystem: 'carService' });
    const guestOrder = await insertOrder(server, { deliverySystem: 'carService', userId: 18 });
    const guest = await server.api.guestToken();
    const stranger = await server.api.post(`${STORE}/CustomerArrived`, { token: guest, body: { orderId: car.id } });
    expect(stranger.status).toBe(404);
    const noHash = await server.api.post(`${STORE}/CustomerArrived`, { token: guest, body: { orderId: guestOrder.id } });
    expect(noHash.status).toBe(404);
    const withHash = await server.api.post(`${STORE}/CustomerArrived`, { token: guest, body: { orderId: guestOrder.id, ohash: guestOrder.ohash } });
    expect(withHash.body.result).toMatchObject({ arrival: 'arrived' });
    const own = await server.api.post(`${STORE}/CustomerArrived`, { token: token.customer, body: { orderId: car.id } });
    expect(own.body.result).toMatchObject({ id: car.id, arrival: 'arrived', status: 'pending' });
    expect((await server.api.post(`${STORE}/CustomerArrived`, { body: { orderId: car.id } })).status).toBe(401);
  });

  it('UpdateOrderAsRead takes orderId in the query or the body', async () => {
    const a = await insertOrder(server);
    const b = await insertOrder(server);
    expect((await server.api.put(`${STORE}/UpdateOrderAsRead`, { token: token.branchuser, query: { orderId: a.id } })).body.result.isViewed).toBe(true);
    expect((await server.api.put(`${STORE}/UpdateOrderAsRead`, { token: token.branchuser, body: { orderId: b.id } })).body.result.isViewed).toBe(true);
    const missing = await server.api.put(`${STORE}/UpdateOrderAsRead`, { token: token.branchuser });
    expect(missing.status).toBe(400);
    expect(missing.body.error!.validationErrors![0].members).toEqual(['orderId']);
  });

  it('refunds: only paid orders; amount at most the total; approved once, by a manager', async () => {
    const order = await insertOrder(server, { total: '5.000', subtotal: '5.000' });
    const unpaid = await server.api.post(`${REFUND}/InitiateRefundRequest`, { token: token.branchuser, body: { orderId: order.id, reason: 'Spilled' } });
    expect(unpaid.status).toBe(409);
    expect(unpaid.body.error!.message).toBe(`Order #${order.id} cannot be refunded: it is not paid`);
    await sendOrderEvent(server.api, 'order.markPaid', order.id, token.branchuser!);
    const paid = await readOrder(server, order.id);
    const requests = await countRows(server, 'refund_requests');
    const tooMuch = await server.api.post(`${REFUND}/InitiateRefundRequest`, { token: token.branchuser, body: { orderId: order.id, amount: 5.001, reason: 'Spilled' } });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.error!.validationErrors![0].members).toEqual(['amount']);
    expect(await readOrder(server, order.id)).toEqual(paid);
    expect(await countRows(server, 'refund_requests')).toBe(requests);
    const noReason = await server.api.post(`${REFUND}/InitiateRefundRequest`, { token: token.branchuser, body: { orderId: order.id, reason: '   ' } });
    expect(noReason.status).toBe(400);

    const asked = await server.api.post(`${REFUND}/InitiateRefundRequest`, { token: token.branchuser, body: { orderId: order.id, amount: 2.5, reason: 'Spilled' } });
    expect(asked.status).toBe(200);
    expect(asked.body.result).toMatchObject({ orderId: order.id, amount: 2.5, orderTotal: 5, status: 'requested', reason: 'Spilled', requestedBy: 4, requestedByName: 'Noura Branch', approvedBy: null });
    expect((await readOrder(server, order.id)).refund).toBe('requested');
    const twice = await server.api.post(`${REFUND}/InitiateRefundRequest`, { token: token.branchuser, body: { orderId: order.id, reason: 'Again' } });
    expect(twice.status).toBe(409);

    const listed = await get(`${REFUND}/GetRefundOrderRequest`, 'branchuser', { OrderId: order.id });
    expect(listed.body.result).toMatchObject({ totalCount: 1, data: [{ id: asked.body.result.id, status: 'requested' }] });

    expect((await server.api.post(`${REFUND}/ApproveRefundRequest`, { token: token.branchuser, body: { refundRequestId: asked.body.result.id } })).status).toBe(403);
    const approved = await server.api.post(`${REFUND}/ApproveRefundRequest`, { token: token.brandmanager, body: { refundRequestId: asked.body.result.id } });
    expect(approved.body.result).toMatchObject({ status: 'approved', approvedBy: 3, approvedAt: expect.any(String) });
    expect(await readOrder(server, order.id)).toMatchObject({ refund: 'approved', payment: 'paid' });
    const again = await server.api.post(`${REFUND}/ApproveRefundRequest`, { token: token.brandmanager, body: { refundRequestId: asked.body.result.id } });
    expect(again.status).toBe(409);
    expect((await get(`${REFUND}/GetRefundOrderRequest`, 'admin', { Status: 'approved', OrderId: order.id })).body.result.totalCount).toBe(1);
    const [row] = await server.database.db.select().from(refundRequests).where(eq(refundRequests.orderId, order.id));
    expect(row).toMatchObject({ amount: '2.500', status: 'approved', requestedBy: 4, approvedBy: 3 });
  });

  it('ApproveRefundRequest needs refundRequestId or orderId; an unknown request is a 404', async () => {
    expect((await server.api.post(`${REFUND}/ApproveRefundRequest`, { token: token.admin, body: {} })).status).toBe(400);
    expect((await server.api.post(`${REFUND}/ApproveRefundRequest`, { token: token.admin, body: { refundRequestId: 999999 } })).status).toBe(404);
  });

  it('Branch/GetById answers the public details; GetIsbusy and UpdateIsbusy work on the branch user\'s own branch', async () => {
    const info = await get(`${BRANCH}/GetById`, 'none', { branchId: 1 });
    expect(info.body.result).toMatchObject({ id: 1, brandId: 7, name: 'Salmiya', deliveryText: 'Delivery in 30–45 minutes', isBusy: false });
    expect((await get(`${BRANCH}/GetById`, 'none', { branchId: 9999 })).status).toBe(404);
    expect((await get(`${BRANCH}/GetIsbusy`, 'branchuser')).body.result).toBe(false);
    expect((await server.api.put(`${BRANCH}/UpdateIsbusy`, { token: token.branchuser, body: { isBusy: true } })).body.result).toBe(true);
    expect((await get(`${BRANCH}/GetIsbusy`, 'branchuser')).body.result).toBe(true);
    expect((await get(`${BRANCH}/GetById`, 'none', { branchId: 1 })).body.result.isBusy).toBe(true);
    expect((await server.api.put(`${BRANCH}/UpdateIsbusy`, { token: token.branchuser, query: { isBusy: false } })).body.result).toBe(false);
    const missing = await server.api.put(`${BRANCH}/UpdateIsbusy`, { token: token.branchuser });
    expect(missing.status).toBe(400);
    const [other] = await server.database.db.select().from(branches).where(eq(branches.id, 2));
    expect(other.isBusy).toBe(false);
  });

  it('a change publishes order.changed for the live feed', async () => {
    const order = await insertOrder(server);
    const seen: unknown[] = [];
    const stop = server.events.subscribe((e) => seen.push(e));
    await sendOrderEvent(server.api, 'order.accept', order.id, token.branchuser!);
    await new Promise((r) => setTimeout(r, 100));
    stop();
    expect(seen).toContainEqual(expect.objectContaining({ type: 'order.changed', orderId: order.id, branchId: 1, brandId: 7 }));
  });
});
