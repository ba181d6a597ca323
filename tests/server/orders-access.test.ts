import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { countRows } from '../support/server';
import { BRANCH, insertOrder, readOrder, REFUND, sendOrderEvent, STORE, useOrderCallers, type OrderCaller } from '../support/orders';
import { useServer } from '../support/harness';
import { branches } from '../../server/db/schema';

/** The orders API's authorisation matrix and scope; the lifecycle itself: orders.test.ts. */
type Who = OrderCaller;
/** A second branch of brand 7, so a branch user's scope is narrower than their brand manager's. */
let otherBranchId: number;

const server = useServer();
const { token, get } = useOrderCallers(server);
beforeAll(async () => {
  const [other] = await server.database.db.insert(branches).values({ brandId: 7, name: 'Hawally' }).returning();
  otherBranchId = other.id;
});

// ─── the authorisation matrix ────────────────────────────────────────────────
const STAFF_VIEW = { admin: 200, companyadmin: 200, brandmanager: 200, branchuser: 200, customer: 403, none: 401 };
const UNPAID = { admin: 200, companyadmin: 200, brandmanager: 200, branchuser: 403, customer: 403, none: 401 };
const BRANCH_ONLY = { admin: 403, companyadmin: 403, brandmanager: 403, branchuser: 200, customer: 403, none: 401 };
const MANAGERS = { admin: 200, companyadmin: 200, brandmanager: 200, branchuser: 403, customer: 403, none: 401 };
const PUBLIC = { admin: 200, companyadmin: 200, brandmanager: 200, branchuser: 200, customer: 200, none: 200 };

const READS: [string, Record<Who, number>, Record<string, unknown>?][] = [
  ['Store/GetUserOrdersAsBranchUser', STAFF_VIEW],
  ['Store/GetUnPaidUserOrdersAsBranchUser', UNPAID],
  ['Store/GetCurrentUserOrdersAsBranchUser', STAFF_VIEW],
  ['Store/GetCurrentDriveThruUserOrdersAsBranchUser', BRANCH_ONLY],
  ['Store/GetCurrentPickUpUserOrdersAsBranchUser', BRANCH_ONLY],
  ['Store/GetPendingdStatusOrdersHistory', STAFF_VIEW],
  ['Store/GetAcceptedStatusOrdersHistory', STAFF_VIEW],
  ['Store/GetRejectedStatusOrdersHistory', STAFF_VIEW],
  ['Store/GetCloseddStatusOrdersHistory', STAFF_VIEW],
  ['Store/GetOrdersCountByArrivedStatus', STAFF_VIEW],
  ['Store/GetOrdersCountByServedStatus', STAFF_VIEW],
  ['Store/GetOrdersCountByNoShowStatus', STAFF_VIEW],
  ['Store/GetOrderStatusTypes', PUBLIC],
  ['Refund/GetRefundOrderRequest', STAFF_VIEW],
  ['Branch/GetIsbusy', BRANCH_ONLY],
  ['Branch/GetById', PUBLIC, { branchId: 1 }],
];

describe('authorisation of the reads', () => {
  const rows = READS.flatMap(([call, expected, query]) => (Object.keys(expected) as Who[]).map((who) => [call, who, expected[who], query] as const));
  it.each(rows)('%s as %s → %i', async (call, who, status, query) => {
    const res = await get(`/api/services/app/${call}`, who, query);
    expect(res.status).toBe(status);
    expect(res.body.success).toBe(status === 200);
    if (status === 401) expect(res.body.unAuthorizedRequest).toBe(true);
  });
});

/** A mutation of the matrix: how to make an order it applies to, and the call itself. */
interface Mutation {
  name: string;
  expected: Record<Who, number>;
  prepare: () => Promise<number>;
  call: (who: Who, orderId: number) => Promise<{ status: number; body: any }>;
}

const paidWithRequest = async () => {
  const o = await insertOrder(server, { payment: 'paid' });
  const res = await sendOrderEvent(server.api, 'order.requestRefund', o.id, token.branchuser!);
  expect(res.status).toBe(200);
  return o.id;
};

const MUTATIONS: Mutation[] = [
  {
    name: 'Store/UpdateOrderStatus', expected: STAFF_VIEW, prepare: async () => (await insertOrder(server)).id,
    call: (who, orderId) => server.api.put(`${STORE}/UpdateOrderStatus`, { token: token[who], body: { orderId, status: 'accepted' } }),
  },
  {
    name: 'Store/UpdateOrderToPaidStatus', expected: STAFF_VIEW, prepare: async () => (await insertOrder(server)).id,
    call: (who, orderId) => server.api.put(`${STORE}/UpdateOrderToPaidStatus`, { token: token[who], body: { orderId } }),
  },
  {
    name: 'Store/UpdateOrderAsRead', expected: STAFF_VIEW, prepare: async () => (await insertOrder(server)).id,
    call: (who, orderId) => server.api.put(`${STORE}/UpdateOrderAsRead`, { token: token[who], query: { orderId } }),
  },
  {
    name: 'Store/CustomerServed', expected: STAFF_VIEW,
    prepare: async () => (await insertOrder(server, { deliverySystem: 'carService', status: 'accepted' })).id,
    call: (who, orderId) => server.api.post(`${STORE}/CustomerServed`, { token: token[who], body: { orderId } }),
  },
  {
    name: 'Store/CustomerNoShow', expected: STAFF_VIEW, prepare: async () => (await insertOrder(server, { status: 'accepted' })).id,
    call: (who, orderId) => server.api.post(`${STORE}/CustomerNoShow`, { token: token[who], body: { orderId, reason: 'Customer did not come' } }),
  },
  {
    name: 'Refund/InitiateRefundRequest', expected: STAFF_VIEW, prepare: async () => (await insertOrder(server, { payment: 'paid' })).id,
    call: (who, orderId) => server.api.post(`${REFUND}/InitiateRefundRequest`, { token: token[who], body: { orderId, reason: 'Cold coffee' } }),
  },
  {
    name: 'Refund/ApproveRefundRequest', expected: MANAGERS, prepare: paidWithRequest,
    call: (who, orderId) => server.api.post(`${REFUND}/ApproveRefundRequest`, { token: token[who], body: { orderId } }),
  },
];

describe('authorisation of the order changes (nothing written when refused)', () => {
  const rows = MUTATIONS.flatMap((m) => (Object.keys(m.expected) as Who[]).map((who) => [m.name, who, m.expected[who], m] as const));
  it.each(rows)('%s as %s → %i', async (_name, who, status, m) => {
    const orderId = await m.prepare();
    const before = await readOrder(server, orderId);
    const requests = await countRows(server, 'refund_requests');
    const res = await m.call(who, orderId);
    expect(res.status, JSON.stringify(res.body.error)).toBe(status);
    const after = await readOrder(server, orderId);
    if (status === 200) {
      expect(after.version).toBe(before.version + 1);
    } else {
      expect(after).toEqual(before);
      expect(await countRows(server, 'refund_requests')).toBe(requests);
    }
  });

  it.each([
    ['branchuser', 200], ['admin', 403], ['companyadmin', 403], ['brandmanager', 403], ['customer', 403], ['none', 401],
  ] as const)('Branch/UpdateIsbusy as %s → %i, stored in branches.is_busy', async (who, status) => {
    const res = await server.api.put(`${BRANCH}/UpdateIsbusy`, { token: token[who], query: { isBusy: true } });
    expect(res.status).toBe(status);
    const [branch] = await server.database.db.select().from(branches).where(eq(branches.id, 1));
    expect(branch.isBusy).toBe(status === 200);
    await server.database.db.update(branches).set({ isBusy: false }).where(eq(branches.id, 1));
  });
});

// ─── scope ───────────────────────────────────────────────────────────────────
describe('scope: brand 8 (company 2) and a second branch of brand 7', () => {
  let dune: number;
  let hawally: number;
  beforeAll(async () => {
    dune = (await insertOrder(server, { brandId: 8, branchId: 2 })).id;
    hawally = (await insertOrder(server, { brandId: 7, branchId: otherBranchId })).id;
  });

  const sees = async (who: Who, orderId: number) => {
    const res = await get(`${STORE}/GetUserOrdersAsBranchUser`, who, { Search: String(orderId) });
    expect(res.status).toBe(200);
    return res.body.result.data.some((o: { id: number }) => o.id === orderId);
  };

  it.each([
    ['admin', true, true], ['companyadmin', false, true], ['brandmanager', false, true], ['branchuser', false, false],
  ] as const)('%s sees brand 8: %s, the other brand-7 branch: %s', async (who, seesDune, seesHawally) => {
    expect(await sees(who, dune)).toBe(seesDune);
    expect(await sees(who, hawally)).toBe(seesHawally);
  });

  it('a BranchId filter never widens the scope', async () => {
    const res = await get(`${STORE}/GetUserOrdersAsBranchUser`, 'brandmanager', { BranchId: 2 });
    expect(res.body.result).toMatchObject({ data: [], totalCount: 0 });
    const own = await get(`${STORE}/GetUserOrdersAsBranchUser`, 'branchuser', { BranchId: otherBranchId });
    expect(own.body.result.totalCount).toBe(0);
  });

  const changes: [string, (who: Who, id: number) => Promise<{ status: number }>][] = [
    ['UpdateOrderStatus', (who, orderId) => server.api.put(`${STORE}/UpdateOrderStatus`, { token: token[who], body: { orderId, status: 'accepted' } })],
    ['UpdateOrderToPaidStatus', (who, orderId) => server.api.put(`${STORE}/UpdateOrderToPaidStatus`, { token: token[who], body: { orderId } })],
    ['UpdateOrderAsRead', (who, orderId) => server.api.put(`${STORE}/UpdateOrderAsRead`, { token: token[who], query: { orderId } })],
    ['CustomerNoShow', (who, orderId) => server.api.post(`${STORE}/CustomerNoShow`, { token: token[who], body: { orderId, reason: 'Customer did not come' } })],
    ['InitiateRefundRequest', (who, orderId) => server.api.post(`${REFUND}/InitiateRefundRequest`, { token: token[who], body: { orderId, reason: 'x' } })],
    ['ApproveRefundRequest', (who, orderId) => server.api.post(`${REFUND}/ApproveRefundRequest`, { token: token[who], body: { orderId } })],
  ];
  const cases = changes.flatMap(([name, call]) => (['companyadmin', 'brandmanager', 'branchuser'] as const).map((who) => [name, who, call] as const));

  it.each(cases)('%s by %s on a brand-8 order → 404, nothing written', async (_name, who, call) => {
    const before = await readOrder(server, dune);
    const requests = await countRows(server, 'refund_requests');
    const res = await call(who, dune);
    expect(res.status === 404 || (who === 'branchuser' && _name === 'ApproveRefundRequest' && res.status === 403)).toBe(true);
    expect(await readOrder(server, dune)).toEqual(before);
    expect(await countRows(server, 'refund_requests')).toBe(requests);
  });

  it('the branch user cannot change an order of the other brand-7 branch; the brand manager can', async () => {
    const before = await readOrder(server, hawally);
    const refused = await server.api.put(`${STORE}/UpdateOrderStatus`, { token: token.branchuser, body: { orderId: hawally, status: 'accepted' } });
    expect(refused.status).toBe(404);
    expect(await readOrder(server, hawally)).toEqual(before);
    const ok = await server.api.put(`${STORE}/UpdateOrderStatus`, { token: token.brandmanager, body: { orderId: hawally, status: 'accepted' } });
    expect(ok.status).toBe(200);
  });

  it('refund requests are listed in scope only', async () => {
    const duneOrder = await insertOrder(server, { brandId: 8, branchId: 2, payment: 'paid' });
    expect((await sendOrderEvent(server.api, 'order.requestRefund', duneOrder.id, token.admin!)).status).toBe(200);
    const ids = async (who: Who) => (await get(`${REFUND}/GetRefundOrderRequest`, who, { MaxResultCount: 100 })).body.result.data.map((r: { orderId: number }) => r.orderId);
    expect(await ids('admin')).toContain(duneOrder.id);
    for (const who of ['companyadmin', 'brandmanager', 'branchuser'] as const) expect(await ids(who)).not.toContain(duneOrder.id);
  });

  it('404 for an order that does not exist', async () => {
    const res = await server.api.put(`${STORE}/UpdateOrderStatus`, { token: token.admin, body: { orderId: 99999999, status: 'accepted' } });
    expect(res.status).toBe(404);
  });
});

/** The `orders` rows of /work/shared/api-endpoints.tsv. */
const ORDERS_ROWS = `GET Branch/GetById|GET Branch/GetIsbusy|PUT Branch/UpdateIsbusy|GET Store/GetUserOrdersAsBranchUser
GET Store/GetUnPaidUserOrdersAsBranchUser|GET Store/GetCurrentUserOrdersAsBranchUser|GET Store/GetCurrentDriveThruUserOrdersAsBranchUser
GET Store/GetCurrentPickUpUserOrdersAsBranchUser|GET Store/GetOrderStatusTypes|GET Store/GetPendingdStatusOrdersHistory
GET Store/GetAcceptedStatusOrdersHistory|GET Store/GetRejectedStatusOrdersHistory|GET Store/GetCloseddStatusOrdersHistory
GET Store/GetOrdersCountByArrivedStatus|GET Store/GetOrdersCountByServedStatus|GET Store/GetOrdersCountByNoShowStatus
PUT Store/UpdateOrderStatus|PUT Store/UpdateOrderToPaidStatus|PUT Store/UpdateOrderAsRead|POST Store/CustomerServed
POST Store/CustomerNoShow|POST Refund/InitiateRefundRequest|POST Refund/ApproveRefundRequest|GET Refund/GetRefundOrderRequest`
  .split(/[|\n]/).map((r) => r.split(' ') as [string, string]);

it('mounts every orders row of api-endpoints.tsv with its verb', async () => {
  const doc = (await server.app.inject({ url: '/api/openapi.json' })).json();
  expect(ORDERS_ROWS).toHaveLength(24);
  const missing = ORDERS_ROWS.filter(([method, path]) => !doc.paths[`/api/services/app/${path}`]?.[method.toLowerCase()]);
  expect(missing).toEqual([]);
});
