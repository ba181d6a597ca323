import { beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { insertOrder } from '../support/orders';
import { useServer } from '../support/harness';
import { branches, brands, companies, products } from '../../server/db/schema';

/**
 * What the order boards and the dashboard show by name (issue 11): each staff order row carries
 * its branch's and brand's names and a line of what to make; User/Get answers the user's company,
 * brand and branch names (the dashboard showed '#1', '#7').
 */
let seaFront: { id: number; name: string };
let brand7: string;
let company1: string;
const server = useServer();
beforeAll(async () => {
  const [branch] = await server.database.db.insert(branches).values({ brandId: 7, name: 'Sea Front' }).returning();
  seaFront = { id: branch.id, name: branch.name };
  [{ name: brand7 }] = await server.database.db.select({ name: brands.name }).from(brands).where(eq(brands.id, 7));
  [{ name: company1 }] = await server.database.db.select({ name: companies.name }).from(companies).where(eq(companies.id, 1));
});

const LIST = '/api/services/app/Store/GetUserOrdersAsBranchUser';

describe('staff order rows', () => {
  it('carry the branch and brand names and the items with quantities and options', async () => {
    const [first] = await server.database.db.select({ id: products.id }).from(products).where(eq(products.brandId, 7)).orderBy(products.id).limit(1);
    const order = await insertOrder(server, { branchId: seaFront.id, items: [{ productId: first.id, quantity: 2 }] });
    const options = JSON.stringify([{ id: 1, name: 'Large', price: 0.2, quantity: 1 }, { id: 2, name: 'Oat milk', price: 0.1, quantity: 1 }]);
    await server.database.db.execute(sql`update order_items set name = 'Latte', options = ${options}::jsonb where order_id = ${order.id}`);
    const token = await server.api.login('companyadmin');
    const res = await server.api.get(LIST, { token, query: { SkipCount: 0, MaxResultCount: 10, BranchId: seaFront.id } });
    expect(res.status).toBe(200);
    expect(res.body.result.data).toEqual([expect.objectContaining({
      id: order.id, branchId: seaFront.id, branchName: 'Sea Front', brandId: 7, brandName: brand7, itemsCount: 2, itemsText: '2× Latte (Large, Oat milk)',
    })]);
  });

  it('an order of several lines lists them in order; one without options has no brackets', async () => {
    const two = await server.database.db.select({ id: products.id }).from(products).where(eq(products.brandId, 7)).orderBy(products.id).limit(2);
    const order = await insertOrder(server, { items: [{ productId: two[0].id, quantity: 1 }, { productId: two[1].id, quantity: 3 }] });
    const token = await server.api.login('branchuser');
    const res = await server.api.get(LIST, { token, query: { SkipCount: 0, MaxResultCount: 1, Search: `#${order.id}` } });
    expect(res.body.result.data[0].itemsText).toBe(`1× Product ${two[0].id} · 3× Product ${two[1].id}`);
    expect(res.body.result.data[0].branchName).not.toBe('');
  });

  it('a status change answers the same row shape, names included', async () => {
    const order = await insertOrder(server, { branchId: seaFront.id });
    const token = await server.api.login('brandmanager');
    const res = await server.api.put('/api/services/app/Store/UpdateOrderStatus', { token, body: { orderId: order.id, status: 'accepted' } });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ id: order.id, status: 'accepted', branchName: 'Sea Front', brandName: brand7 });
  });
});

describe('User/Get', () => {
  it('answers the names of a company admin\'s company, and a brand manager\'s company and brand', async () => {
    const admin = await server.api.get('/api/services/app/User/Get', { token: await server.api.login('companyadmin'), query: { Id: 2 } });
    expect(admin.status).toBe(200);
    expect(admin.body.result).toMatchObject({ companyId: 1, companyName: company1, brandName: null, branchName: null });
    const manager = await server.api.get('/api/services/app/User/Get', { token: await server.api.login('brandmanager'), query: { Id: 3 } });
    expect(manager.body.result).toMatchObject({ companyName: company1, brandId: 7, brandName: brand7, branchName: null });
  });

  it('names the branch user\'s branch', async () => {
    const [branch] = await server.database.db.select({ name: branches.name }).from(branches).where(eq(branches.id, 1));
    const res = await server.api.get('/api/services/app/User/Get', { token: await server.api.login('branchuser'), query: { Id: 4 } });
    expect(res.body.result).toMatchObject({ branchId: 1, branchName: branch.name, brandName: brand7, companyName: company1 });
  });
});
