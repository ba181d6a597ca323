import { eq } from 'drizzle-orm';
import { optionGroups, optionItems, products } from '../../server/db/schema';
import type { RunningServer } from '../../server/start';

/** Seeded menu ids by name, so shop tests read like the menu: product('Cappuccino'), option('Cappuccino', 'Size', 'Large'). */
export async function seededMenu(server: RunningServer) {
  const db = server.database.db;
  const productRows = await db.select().from(products);
  const optionRows = await db
    .select({ id: optionItems.id, name: optionItems.name, price: optionItems.price, group: optionGroups.name, groupId: optionGroups.id, productId: optionGroups.productId })
    .from(optionItems)
    .innerJoin(optionGroups, eq(optionGroups.id, optionItems.groupId));
  const product = (name: string, brandId = 7) => {
    const p = productRows.find((r) => r.name === name && r.brandId === brandId);
    if (!p) throw new Error(`no product ${name}`);
    return p.id;
  };
  const option = (productName: string, group: string, name: string, brandId = 7) => {
    const productId = product(productName, brandId);
    const o = optionRows.find((r) => r.productId === productId && r.group === group && r.name === name);
    if (!o) throw new Error(`no option ${productName}/${group}/${name}`);
    return o.id;
  };
  const group = (productName: string, name: string) => optionRows.find((r) => r.productId === product(productName) && r.group === name)!.groupId;
  return { product, option, group };
}

