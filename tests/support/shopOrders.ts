import { beforeAll, expect } from 'vitest';
import { eq } from 'drizzle-orm';
import { countRows, type TestServer } from './server';
import { seededMenu } from './shopMenu';
import { useServer } from './harness';
import * as t from '../../server/db/schema';
import { hashPassword } from '../../server/auth/password';

/**
 * The shop's placement (SaveNewOrderVS1) on a real server, as tests/server/shop-orders*.test.ts call
 * it: the demo menu's cart, a save with an idempotency key of its own, a refusal proved to write
 * nothing, and the callers (a customer, a guest, another customer). The callers are live bindings,
 * set once the file's server has started.
 */
export const SAVE = '/api/services/app/Store/SaveNewOrderVS1';
export const HISTORY = '/api/services/app/Store/GetCurrentCustomerOrdersHistory';
export const DETAIL = '/api/services/app/Store/GetOrderDetail';

export let menu: Awaited<ReturnType<typeof seededMenu>>;
export let customer: string;
export let guest: string;
export let otherCustomer: string;
let keySeq = 0;
let server: TestServer;
export const db = () => server.database.db;

/** The file's server, with the callers above signed in and user 'other' (Omar Other) added. */
export function useShopOrders(): TestServer {
  server = useServer();
  beforeAll(async () => {
    menu = await seededMenu(server);
    customer = await server.api.login('customer');
    guest = await server.api.guestToken();
    await db().insert(t.users).values({ userName: 'other', fullName: 'Omar Other', role: 'CUSTOMER', phoneNumber: '+96550000002', passwordHash: await hashPassword('123qwe') });
    otherCustomer = await server.api.login('other');
  });
  return server;
}

/** A pickup order of brand 7 branch 1 paid in cash: Cappuccino ×2 (Large, Oat, 2 extra shots) and a Pistachio Cookie: 5.250 KD. */
export function cart(overrides: Record<string, unknown> = {}, deliveryOptions: Record<string, unknown> = {}) {
  return {
    brandId: 7,
    paymentSystem: 2,
    deliveryOptions: { branchId: 1, isPickup: true, ...deliveryOptions },
    products: [
      {
        productId: menu.product('Cappuccino'), quantity: 2,
        additions: [
          { additionId: menu.option('Cappuccino', 'Size', 'Large') },
          { additionId: menu.option('Cappuccino', 'Milk', 'Oat') },
          { additionId: menu.option('Cappuccino', 'Additions', 'Extra shot'), quantity: 2 },
        ],
      },
      { productId: menu.product('Pistachio Cookie'), quantity: 1 },
    ],
    ...overrides,
  };
}

export const save = (token: string, body: unknown, key: string | null = `key-${++keySeq}`) =>
  server.api.post(SAVE, { token, body, headers: key ? { 'idempotency-key': key } : {} });

/** Runs a refused request and proves that nothing was written. */
export async function expectRefused(token: string, body: unknown, status: number, message: string | RegExp) {
  const tables = ['orders', 'order_items', 'payments', 'wallet_ledger'];
  const before = await Promise.all(tables.map((tb) => countRows(server, tb)));
  const res = await save(token, body);
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.success).toBe(false);
  if (typeof message === 'string') expect(res.body.error!.message).toBe(message);
  else expect(res.body.error!.message).toMatch(message);
  expect(await Promise.all(tables.map((tb) => countRows(server, tb)))).toEqual(before);
  return res;
}

export const orderRow = async (id: number) => (await db().select().from(t.orders).where(eq(t.orders.id, id)))[0];
