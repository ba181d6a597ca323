import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../server/db/client';
import { orderItems, orders, products } from '../../server/db/schema';
import type { RunningServer } from '../../server/start';

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
