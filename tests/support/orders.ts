import { randomBytes } from 'node:crypto';
import { beforeAll } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Db } from '../../server/db/client';
import { orderItems, orders, products } from '../../server/db/schema';
import type { RunningServer } from '../../server/start';
import type { TestServer } from './server';
import type { StaffOrderEventType } from '../../domain/permissions';
import {
  nextOrderState, ORDER_EVENT_TYPES, type DeliverySystem, type OrderLifecycleColumns, type OrderLifecycleEvent,
} from '../../machines/orderLifecycle';

export type TestOrder = typeof orders.$inferSelect;

export interface TestOrderInput extends Partial<typeof orders.$inferInsert> {
  /** Lines of the order; default one line of the brand's first product × 2. */
  items?: { productId: number; quantity: number; unitPrice?: string }[];
}

/**
 * Inserts an order straight into the database (branch 1 of brand 7, cash payment 2, customer 5
 * by default), with its items. The lifecycle columns can be set to any state.
 */
export async function insertOrder(server: RunningServer | { database: { db: Db } }, input: TestOrderInput = {}): Promise<TestOrder> {
  const db = server.database.db;
  const { items: given, ...columns } = input;
  const brandId = columns.brandId ?? 7;
  let items = given;
  if (!items) {
    const [first] = await db.select({ id: products.id }).from(products).where(eq(products.brandId, brandId)).orderBy(products.id).limit(1);
    items = [{ productId: first.id, quantity: 2 }];
  }
  const lines = items.map((i) => ({ ...i, unitPrice: i.unitPrice ?? '1.250' }));
  const subtotal = lines.reduce((sum, l) => sum + Math.round(Number(l.unitPrice) * 1000) * l.quantity, 0) / 1000;
  const [order] = await db.insert(orders).values({
    orderNumber: `T-${randomBytes(4).toString('hex').toUpperCase()}`,
    brandId,
    branchId: brandId === 7 ? 1 : 2,
    userId: 5,
    deliverySystem: 'pickup',
    paymentSystemId: 2,
    subtotal: subtotal.toFixed(3),
    total: subtotal.toFixed(3),
    ohash: randomBytes(16).toString('hex'),
    ...columns,
  }).returning();
  if (lines.length) {
    await db.insert(orderItems).values(lines.map((l) => ({
      orderId: order.id, productId: l.productId, name: `Product ${l.productId}`, quantity: l.quantity,
      unitPrice: l.unitPrice, lineTotal: (Math.round(Number(l.unitPrice) * 1000) * l.quantity / 1000).toFixed(3),
    })));
  }
  return order;
}

/** The order row as stored now. */
export async function readOrder(server: RunningServer, id: number): Promise<TestOrder> {
  const [row] = await server.database.db.select().from(orders).where(eq(orders.id, id));
  return row;
}

type Api = { put: CallFn; post: CallFn };
type CallFn = (url: string, opts?: { token?: string; body?: unknown; query?: Record<string, unknown> }) => Promise<{ status: number; body: any }>;

/** The events staff send through REST (every event but `order.fire`, which only the server's job runner sends). */
export const STAFF_EVENT_TYPES = ORDER_EVENT_TYPES.filter((t): t is StaffOrderEventType => t !== 'order.fire');

/** Which demo account performs each lifecycle event in tests (approving a refund needs a manager). */
export const EVENT_ACTOR: Record<StaffOrderEventType, 'branchuser' | 'brandmanager' | 'customer'> = {
  'order.accept': 'branchuser',
  'order.reject': 'branchuser',
  'order.ready': 'branchuser',
  'order.close': 'branchuser',
  'order.markPaid': 'branchuser',
  'order.arrive': 'customer',
  'order.serve': 'branchuser',
  'order.noShow': 'branchuser',
  'order.markRead': 'branchuser',
  'order.requestRefund': 'branchuser',
  'order.approveRefund': 'brandmanager',
};

/** Performs a lifecycle event through its real REST call. */
export function sendOrderEvent(api: Api, type: StaffOrderEventType, orderId: number, token: string) {
  const store = '/api/services/app/Store';
  switch (type) {
    case 'order.accept': return api.put(`${store}/UpdateOrderStatus`, { token, body: { orderId, status: 'accepted' } });
    case 'order.reject': return api.put(`${store}/UpdateOrderStatus`, { token, body: { orderId, status: 'rejected', reason: 'Item sold out' } });
    case 'order.ready': return api.put(`${store}/UpdateOrderStatus`, { token, body: { orderId, status: 'ready' } });
    case 'order.close': return api.put(`${store}/UpdateOrderStatus`, { token, body: { orderId, status: 'closed' } });
    case 'order.markPaid': return api.put(`${store}/UpdateOrderToPaidStatus`, { token, body: { orderId } });
    case 'order.markRead': return api.put(`${store}/UpdateOrderAsRead`, { token, query: { orderId } });
    case 'order.arrive': return api.post(`${store}/CustomerArrived`, { token, body: { orderId } });
    case 'order.serve': return api.post(`${store}/CustomerServed`, { token, body: { orderId } });
    case 'order.noShow': return api.post(`${store}/CustomerNoShow`, { token, body: { orderId, reason: 'Customer did not come' } });
    case 'order.requestRefund': return api.post('/api/services/app/Refund/InitiateRefundRequest', { token, body: { orderId, reason: 'Wrong drink' } });
    case 'order.approveRefund': return api.post('/api/services/app/Refund/ApproveRefundRequest', { token, body: { orderId } });
  }
}

/** Every lifecycle state an order of this delivery system can reach, as its columns (breadth-first over the machine). */
export function reachableOrderStates(deliverySystem: DeliverySystem, from: 'pending' | 'scheduled' = 'pending'): OrderLifecycleColumns[] {
  const start: OrderLifecycleColumns = { status: from, arrival: 'none', payment: 'unpaid', refund: 'none', isViewed: false };
  const seen = new Map<string, OrderLifecycleColumns>([[JSON.stringify(start), start]]);
  const queue = [start];
  while (queue.length) {
    const state = queue.shift()!;
    for (const type of ORDER_EVENT_TYPES) {
      const next = nextOrderState({ ...state, deliverySystem }, { type } as OrderLifecycleEvent);
      if (next && !seen.has(JSON.stringify(next))) {
        seen.set(JSON.stringify(next), next);
        queue.push(next);
      }
    }
  }
  return [...seen.values()];
}

// ─── shared by tests/server/orders.test.ts and orders-access.test.ts ────────
export const STORE = '/api/services/app/Store';
export const REFUND = '/api/services/app/Refund';
export const BRANCH = '/api/services/app/Branch';
const ORDER_CALLERS = ['admin', 'companyadmin', 'brandmanager', 'branchuser', 'customer'] as const;
export type OrderCaller = (typeof ORDER_CALLERS)[number] | 'none';

/** Each demo account signed in once for the file ('none': no token), after the server started; and a GET as one of them. */
export function useOrderCallers(server: TestServer) {
  const token: Record<OrderCaller, string | undefined> = {} as never;
  beforeAll(async () => {
    for (const u of ORDER_CALLERS) token[u] = await server.api.login(u);
    token.none = undefined;
  });
  const get = (path: string, who: OrderCaller, query?: Record<string, unknown>) => server.api.get(path, { token: token[who], query });
  return { token, get };
}
