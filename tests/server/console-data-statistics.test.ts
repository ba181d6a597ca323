import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { insertOrder } from '../support/orders';
import { refunds } from '../../server/db/schema';
import { DEMO_SCAN_CUSTOMERS } from '../../server/db/demoScans';

/**
 * Issue 23, "Numbers that add up" (the server half of the dashboard): the registered customers of
 * a scope beside the customers who ordered ("Customers 0" while 28 exist), and figures narrowed to
 * one branch of the scope (the dashboard's branch filter). Fails before: no registeredCustomers,
 * and branchId was ignored (the figures stayed the whole scope's).
 */
let server: TestServer;
const STAT = '/api/services/app/Statistic';
const token: Record<string, string> = {};
const get = (who: string, name: string, query: Record<string, unknown> = {}) => server.api.get(`${STAT}/${name}`, { token: token[who], query });

beforeAll(async () => {
  server = await startTestServer();
  for (const who of ['admin', 'companyadmin', 'brandmanager', 'branchuser']) token[who] = await server.api.login(who);
  const day = (n: number) => new Date(Date.now() - n * 86_400_000);
  // Branch 1 (brand 7): two cash orders collected at close, one of them refunded in cash (handed back).
  await insertOrder(server, { branchId: 1, status: 'closed', payment: 'paid', paidAt: day(2), createdAt: day(2), total: '2.500' });
  const refunded = await insertOrder(server, { branchId: 1, status: 'closed', payment: 'paid', paidAt: day(1), createdAt: day(1), total: '1.500', refund: 'approved' });
  await server.database.db.insert(refunds).values({ orderId: refunded.id, provider: 'cash', amount: '1.500', currency: 'KD', cause: 'refundRequest', status: 'refunded', refundedAt: day(1) });
  // Branches 2 and 3 (brand 8): one paid order each, one refund still owed at branch 3.
  await insertOrder(server, { brandId: 8, branchId: 2, status: 'closed', payment: 'paid', paidAt: day(3), createdAt: day(3), total: '4.000' });
  const owed = await insertOrder(server, { brandId: 8, branchId: 3, userId: 18, status: 'closed', payment: 'paid', paidAt: day(3), createdAt: day(3), total: '3.000', refund: 'approved' });
  await server.database.db.insert(refunds).values({ orderId: owed.id, provider: 'cash', amount: '3.000', currency: 'KD', cause: 'refundRequest', status: 'owed' });
}, 120_000);
afterAll(async () => { await server?.close(); });

describe('Statistic: what is counted', () => {
  it('registeredCustomers counts the scope\'s customers as the Customers screen does; customers counts those who ordered', async () => {
    const general = (await get('admin', 'GetGeneralStatistic')).body.result;
    // the demo customer and the reward card customers; the guest is not a customer
    expect(general.registeredCustomers).toBe(1 + DEMO_SCAN_CUSTOMERS.length);
    expect(general.customers).toBe(1);
    // the Customers screen's own count, for each role and its scope
    const screen = async (who: string) => (await server.api.get('/api/services/app/Customer/GetCustomersAccessibleForCurrentUser', { token: token[who], query: { MaxResultCount: 1 } })).body.result.totalCount;
    expect(general.registeredCustomers).toBe(await screen('admin'));
    const brand = (await get('brandmanager', 'GetStatisticByBrand', { brandId: 7 })).body.result;
    expect(brand.registeredCustomers).toBe(await screen('brandmanager'));
    expect((await get('companyadmin', 'GetStatisticByCompany')).body.result.registeredCustomers).toBe(await screen('companyadmin'));
    const brand7 = DEMO_SCAN_CUSTOMERS.filter((c) => c.brands.includes(7)).length + 1;
    expect(brand.registeredCustomers).toBe(brand7);
    const brand8 = (await get('admin', 'GetStatisticByBrand', { brandId: 8 })).body.result;
    expect(brand8.registeredCustomers).toBe(DEMO_SCAN_CUSTOMERS.filter((c) => c.brands.includes(8)).length + 1);
  });

  it('revenue is the payments recorded less completed refunds, with refunded and refundsDue beside it', async () => {
    const general = (await get('admin', 'GetGeneralStatistic')).body.result;
    expect(general).toMatchObject({ orders: 4, revenue: 11 - 1.5, refunded: 1.5, refundsDue: 3 });
  });
});

describe('Statistic: one branch of the scope', () => {
  it('branchId narrows every figure to that branch', async () => {
    const b3 = (await get('admin', 'GetGeneralStatistic', { branchId: 3 })).body.result;
    expect(b3).toMatchObject({ companies: 1, brands: 1, branches: 1, orders: 1, revenue: 3, refunded: 0, refundsDue: 3, customers: 0 });
    expect(b3.revenueByBranch.map((b: { branchId: number }) => b.branchId)).toEqual([3]);
    const b1 = (await get('brandmanager', 'GetStatisticByBrand', { brandId: 7, branchId: 1 })).body.result;
    expect(b1).toMatchObject({ orders: 2, revenue: 2.5, refunded: 1.5, customers: 1, returningCustomers: 1 });
    const company = (await get('companyadmin', 'GetStatisticByCompany', { branchId: 1 })).body.result;
    expect(company.orders).toBe(2);
    // a period and a branch together
    const lastDay = (await get('brandmanager', 'GetStatisticByBrand', { brandId: 7, branchId: 1, fromDate: new Date(Date.now() - 1.5 * 86_400_000).toISOString() })).body.result;
    expect(lastDay).toMatchObject({ orders: 1, newCustomers: 0, returningCustomers: 1 });
  });

  it('a branch outside the scope or the brand asked for is refused like an unknown one; 401 and 403 first', async () => {
    for (const [who, name, query] of [
      ['brandmanager', 'GetStatisticByBrand', { brandId: 7, branchId: 2 }],
      ['companyadmin', 'GetStatisticByCompany', { branchId: 2 }],
      ['admin', 'GetStatisticByBrand', { brandId: 7, branchId: 3 }],
      ['admin', 'GetGeneralStatistic', { branchId: 999 }],
    ] as const) {
      const res = await get(who, name, query);
      expect(res.status, `${who} ${name} ${JSON.stringify(query)}`).toBe(400);
      expect(res.body.error?.validationErrors?.[0]?.members).toEqual(['branchId']);
    }
    expect((await server.api.get(`${STAT}/GetGeneralStatistic`, { query: { branchId: 'x' } })).status).toBe(401);
    expect((await get('branchuser', 'GetStatisticByBrand', { brandId: 7, branchId: 'x' })).status).toBe(403);
  });
});
