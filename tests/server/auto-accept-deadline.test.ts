import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import { branches, notifications, orders, printJobs } from '../../server/db/schema';
import { rejectLateOrders } from '../../server/orders/deadline';
import { transitionOrder } from '../../server/orders/transition';
import { acceptWaitingOrders } from '../../server/services/operations/autoAccept';
import { NOT_ACCEPTED_IN_TIME } from '../../machines/orderLifecycle';
import { ACCEPTANCE_DEADLINE } from '../../domain/orderSettings';
import { countRows } from '../support/server';
import { insertOrder, readOrder } from '../support/orders';
import { seededMenu } from '../support/shopMenu';
import { cloudPrntPrinter } from '../support/simulatedPrinter';
import { useServer } from '../support/harness';

/**
 * Issue 25, per branch: auto-accept (off by default; a new order is accepted at once through the
 * lifecycle, as a click, and its ticket prints) and the acceptance deadline as a setting.
 */
const BRANCH = '/api/services/app/Branch';
const STORE = '/api/services/app/Store';
let menu: Awaited<ReturnType<typeof seededMenu>>;
const token: Record<string, string> = {};

const server = useServer();
beforeAll(async () => {
  menu = await seededMenu(server);
  for (const who of ['admin', 'brandmanager', 'branchuser', 'customer']) token[who] = await server.api.login(who);
});

const ops = () => ({ db: server.database.db, events: server.events });
const updateBranch = (body: Record<string, unknown>, who = 'brandmanager') => server.api.put(`${BRANCH}/Update`, { token: token[who], body });
const branchRow = async (id: number) => (await server.database.db.select().from(branches).where(eq(branches.id, id)))[0];
const placedAgo = (ids: number[], minutes: number) => server.database.db.update(orders)
  .set({ createdAt: sql`now() - make_interval(mins => ${minutes})` }).where(inArray(orders.id, ids));

/** A registered customer's order from the shop, at branch 1 (brand 7); cash at the branch unless a card method is given. */
async function shopOrder(paymentSystem = 2) {
  const res = await server.api.post(`${STORE}/SaveNewOrderVS1`, {
    token: token.customer, headers: { 'idempotency-key': randomUUID() },
    body: { brandId: 7, paymentSystem, deliveryOptions: { branchId: 1, isPickup: true }, products: [{ productId: menu.product('Espresso'), quantity: 1 }] },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result.orderId as number;
}
async function waitForStatus(id: number, status: string, ms = 20_000) {
  const t0 = Date.now();
  let row = await readOrder(server, id);
  while (row.status !== status && Date.now() - t0 < ms) {
    await new Promise((r) => setTimeout(r, 50));
    row = await readOrder(server, id);
  }
  return row;
}

describe('the branch settings', () => {
  it('default to auto-accept off and a 10-minute deadline; the deadline takes 3 to 30 minutes, anything else is a 400 that writes nothing', async () => {
    const list = await server.api.get(`${BRANCH}/GetBranchesForCurrentUser`, { token: token.brandmanager, query: { SkipCount: 0, MaxResultCount: 10 } });
    expect(list.body.result.data[0]).toMatchObject({ autoAccept: false, acceptanceDeadlineMinutes: 10 });
    expect(ACCEPTANCE_DEADLINE).toEqual({ min: 3, max: 30, default: 10 });
    for (const minutes of [2, 31, 0, 7.5, -1]) {
      const res = await updateBranch({ id: 1, acceptanceDeadlineMinutes: minutes });
      expect(res.status, String(minutes)).toBe(400);
    }
    expect(await branchRow(1)).toMatchObject({ acceptanceDeadlineMinutes: 10, autoAccept: false });
    // A branch user does not change the branch's settings.
    expect((await updateBranch({ id: 1, autoAccept: true }, 'branchuser')).status).toBe(403);
    // The database holds the range too.
    await expect(server.database.db.update(branches).set({ acceptanceDeadlineMinutes: 45 }).where(eq(branches.id, 1))).rejects.toThrow();
  });
});

describe('the acceptance deadline per branch', () => {
  it("rejects a pending order after its own branch's deadline, not another's", async () => {
    expect((await updateBranch({ id: 1, acceptanceDeadlineMinutes: 7 })).status).toBe(200);
    const salmiya = await insertOrder(server); // branch 1: 7 minutes
    const other = await insertOrder(server, { brandId: 8 }); // branch 2: the default 10
    const fresh = await insertOrder(server);
    await placedAgo([salmiya.id, other.id], 8);
    await placedAgo([fresh.id], 6);
    expect(await rejectLateOrders(ops())).toEqual([salmiya.id]);
    expect(await readOrder(server, salmiya.id)).toMatchObject({ status: 'rejected', statusReason: NOT_ACCEPTED_IN_TIME });
    expect(await readOrder(server, other.id)).toMatchObject({ status: 'pending' });
    expect(await readOrder(server, fresh.id)).toMatchObject({ status: 'pending' });
    await placedAgo([other.id], 11);
    expect(await rejectLateOrders(ops())).toEqual([other.id]);
    expect((await updateBranch({ id: 1, acceptanceDeadlineMinutes: 10 })).status).toBe(200);
    await placedAgo([fresh.id], 20); // out of the way of the tests below
    await rejectLateOrders(ops());
  });
});

describe('auto-accept', () => {
  it('is off by default: a new order waits for a click', async () => {
    const id = await shopOrder();
    await new Promise((r) => setTimeout(r, 500));
    expect(await readOrder(server, id)).toMatchObject({ status: 'pending', version: 0 });
    await rejectLateOrders(ops(), new Date(Date.now() + 60 * 60_000)); // out of the way
  });

  it("accepts a new order at once, as a click would: the machine's step, the customer's notice, one ticket for the branch's printer", async () => {
    expect((await updateBranch({ id: 1, autoAccept: true })).status).toBe(200);
    const printer = await server.api.post('/api/services/app/Printer/Create', { token: token.brandmanager, body: { branchId: 1, name: 'Bar', protocol: 'starCloudPrnt' } });
    const notices = await countRows(server, 'customer_notifications');
    const id = await shopOrder();
    const row = await waitForStatus(id, 'accepted');
    expect(row).toMatchObject({ status: 'accepted', version: 1 });
    expect(row.acceptedAt).not.toBeNull();
    expect(await countRows(server, 'customer_notifications')).toBe(notices + 1);
    const notice = await server.database.db.select({ status: notifications.orderStatus }).from(notifications).where(eq(notifications.orderId, id));
    expect(notice).toEqual([{ status: 'accepted' }]);
    // The ticket: exactly one job, and the simulated printer prints it once.
    expect(await server.database.db.select().from(printJobs).where(eq(printJobs.orderId, id))).toHaveLength(1);
    const sim = cloudPrntPrinter(`${server.url}${printer.body.result.path}`);
    expect(await sim.round()).not.toBeNull();
    expect(await sim.round()).toBeNull();
    expect(sim.received).toHaveLength(1);
    // The sweep finds nothing more to do, and a staff accept now is refused as for any accepted order.
    expect(await acceptWaitingOrders(ops())).toEqual([]);
    expect((await server.api.put(`${STORE}/UpdateOrderStatus`, { token: token.branchuser, body: { orderId: id, status: 'accepted' } })).status).toBe(409);
  });

  it('waits for a card payment: the order is accepted when it is paid, not before', async () => {
    const id = await shopOrder(3); // a card method, not paid yet
    await new Promise((r) => setTimeout(r, 500));
    expect(await readOrder(server, id)).toMatchObject({ status: 'pending', payment: 'unpaid' });
    await transitionOrder(ops(), id, { type: 'order.markPaid' }, null);
    expect(await waitForStatus(id, 'accepted')).toMatchObject({ status: 'accepted', payment: 'paid', version: 2 });
  });

  it('the timed round accepts what no event reached, before the deadline could reject it; each order once', async () => {
    const a = await insertOrder(server);
    const b = await insertOrder(server);
    await placedAgo([a.id, b.id], 30);
    const rounds = await Promise.all([acceptWaitingOrders(ops()), acceptWaitingOrders(ops())]);
    expect(rounds.flat().sort()).toEqual([a.id, b.id].sort());
    expect(await readOrder(server, a.id)).toMatchObject({ status: 'accepted', version: 1 });
    expect(await rejectLateOrders(ops())).toEqual([]);
    expect((await updateBranch({ id: 1, autoAccept: false })).status).toBe(200);
  });
});
