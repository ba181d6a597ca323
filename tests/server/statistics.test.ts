import { beforeAll, describe, expect, it } from 'vitest';
import { countRows } from '../support/server';
import { CALLERS, callerTokens, expectCall, type Who } from '../support/adminMatrix';
import { useServer } from '../support/harness';
import * as t from '../../server/db/schema';
import { GUEST_USER_ID } from '../../domain/constants';

/**
 * Statistic (SPEC.md 7 Statistics, 6 "statistics depend on role"): known orders and customers,
 * then the exact figures. Kuwait is UTC+3 all year, so each UTC time below names its Kuwait cell.
 */
const STAT = '/api/services/app/Statistic';
let token: Record<Who, string | undefined>;
const as = (who: Who) => ({ token: token[who] });

const server = useServer();
beforeAll(async () => {
  token = await callerTokens(server);
  const db = server.database.db;
  expect(await countRows(server, 'orders'), 'the seed has no orders').toBe(0);
  const [c1, c2, c3] = await db.insert(t.users).values(['Hessa', 'Yousef', 'Mariam'].map((name, i) => ({
    userName: `stat-customer-${i}`, fullName: name, role: 'CUSTOMER', passwordHash: '!', phoneNumber: `+9655999000${i}`,
  }))).returning({ id: t.users.id });
  const order = (n: number, branchId: number, userId: number, at: string, total: string, extra: Partial<typeof t.orders.$inferInsert> = {}) => ({
    orderNumber: `S-${n}`, brandId: branchId === 1 ? 7 : 8, branchId, userId, deliverySystem: 'pickup', paymentSystemId: 2,
    ohash: `stat-${n}`, total, subtotal: total, payment: 'paid', status: 'closed', createdAt: new Date(at), ...extra,
  });
  const saved = await db.insert(t.orders).values([
    order(1, 1, c1.id, '2026-11-01T06:15:00Z', '2.500'), //                           Sun 09:15 Kuwait
    order(2, 1, c1.id, '2026-11-01T06:45:00Z', '1.000', { refund: 'approved', status: 'rejected' }), // Sun 09:45, refunded: no revenue
    order(3, 1, c2.id, '2026-11-02T21:30:00Z', '3.000', { payment: 'unpaid', status: 'pending' }), //   Tue 00:30 (Mon in UTC), unpaid
    order(4, 2, c3.id, '2026-11-05T10:00:00Z', '4.250'), //                           Thu 13:00
    order(5, 3, GUEST_USER_ID, '2026-11-05T10:20:00Z', '1.750'), //                   Thu 13:20, a guest: no customer
    order(6, 3, c2.id, '2026-10-20T08:00:00Z', '2.000'), //                           Tue 11:00, before November
    order(7, 2, c2.id, '2026-11-06T20:59:00Z', '1.500'), //                           Fri 23:59
  ]).returning({ id: t.orders.id, orderNumber: t.orders.orderNumber });
  // S-2's money was given back (server/payments/refunds.ts): revenue is what was captured less what went back.
  await db.insert(t.refunds).values({
    orderId: saved.find((o) => o.orderNumber === 'S-2')!.id, provider: 'cash', amount: '1.000', currency: 'KD', cause: 'rejected', status: 'refunded', refundedAt: new Date(),
  });
}, 120_000);

const NOVEMBER = { fromDate: '2026-11-01T00:00:00Z', toDate: '2026-12-01T00:00:00Z' };
const cellsOf = (stat: { ordersByWeekdayHour: { weekday: number; hour: number; orders: number }[] }) =>
  Object.fromEntries(stat.ordersByWeekdayHour.map((c) => [`${c.weekday}@${c.hour}`, c.orders]));
const branchesOf = (stat: { revenueByBranch: { branchId: number; orders: number; revenue: number }[] }) =>
  stat.revenueByBranch.map((b) => [b.branchId, b.orders, b.revenue]);

describe('Statistic: exact figures from known orders', () => {
  it('GetGeneralStatistic: every company, all time', async () => {
    const res = await server.api.get(`${STAT}/GetGeneralStatistic`, as('admin'));
    expect(res.status, JSON.stringify(res.body.error)).toBe(200);
    const s = res.body.result;
    expect(s).toMatchObject({ companies: 2, brands: 2, branches: 3, orders: 7, revenue: 12, customers: 3, newCustomers: 1, returningCustomers: 2 });
    expect(cellsOf(s)).toEqual({ '0@9': 2, '2@0': 1, '4@13': 2, '2@11': 1, '5@23': 1 });
    // by revenue: branch 2 (4.250 + 1.500), branch 3 (1.750 + 2.000), branch 1 (2.500 only: one refunded, one unpaid)
    expect(branchesOf(s)).toEqual([[2, 2, 5.75], [3, 2, 3.75], [1, 3, 2.5]]);
    expect(s.revenueByBranch[0]).toMatchObject({ branchName: 'Kuwait City', brandId: 8, brandName: 'Dune Bakery' });
  });

  it('GetStatisticByBrand: brand 7 only (a customer of another brand is new here)', async () => {
    const res = await server.api.get(`${STAT}/GetStatisticByBrand`, { ...as('brandmanager'), query: { brandId: 7 } });
    expect(res.status).toBe(200);
    const s = res.body.result;
    expect(s).toMatchObject({ companies: 1, brands: 1, branches: 1, orders: 3, revenue: 2.5, customers: 2, newCustomers: 1, returningCustomers: 1 });
    expect(cellsOf(s)).toEqual({ '0@9': 2, '2@0': 1 });
    expect(branchesOf(s)).toEqual([[1, 3, 2.5]]);
  });

  it('GetStatisticByCompany over November: an order before the period makes its customer returning, the guest is no customer', async () => {
    const res = await server.api.get(`${STAT}/GetStatisticByCompany`, { ...as('admin'), query: { companyId: 2, ...NOVEMBER } });
    expect(res.status).toBe(200);
    const s = res.body.result;
    expect(s).toMatchObject({ companies: 1, brands: 1, branches: 2, orders: 3, revenue: 7.5, customers: 2, newCustomers: 1, returningCustomers: 1 });
    expect(cellsOf(s)).toEqual({ '4@13': 2, '5@23': 1 });
    expect(branchesOf(s)).toEqual([[2, 2, 5.75], [3, 1, 1.75]]);
  });

  it("GetStatisticByCompany without a company: the company admin's own", async () => {
    const res = await server.api.get(`${STAT}/GetStatisticByCompany`, as('companyadmin'));
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ companies: 1, brands: 1, branches: 1, orders: 3, revenue: 2.5 });
  });

  it('the period ends before its end moment: an order at exactly toDate is left out', async () => {
    const res = await server.api.get(`${STAT}/GetStatisticByBrand`, { ...as('admin'), query: { brandId: 7, fromDate: '2026-11-01T06:15:00Z', toDate: '2026-11-01T06:45:00Z' } });
    expect(res.body.result).toMatchObject({ orders: 1, revenue: 2.5, customers: 1, newCustomers: 1, returningCustomers: 0 });
    expect(cellsOf(res.body.result)).toEqual({ '0@9': 1 });
  });

  it('GetAccesibleDepartmentsTree: the caller\'s companies, brands and branches', async () => {
    const admin = await server.api.get(`${STAT}/GetAccesibleDepartmentsTree`, as('admin'));
    expect(admin.body.result.map((c: { id: number }) => c.id).sort()).toEqual([1, 2]);
    const company = await server.api.get(`${STAT}/GetAccesibleDepartmentsTree`, as('companyadmin'));
    expect(company.body.result).toEqual([{ id: 1, name: 'Mango Hospitality', brands: [{ id: 7, name: 'Mango Coffee', branches: [{ id: 1, name: 'Salmiya' }] }] }]);
    const brand = await server.api.get(`${STAT}/GetAccesibleDepartmentsTree`, { ...as('brandmanager'), query: { brandId: 7 } });
    expect(brand.body.result).toEqual(company.body.result);
    const dune = await server.api.get(`${STAT}/GetAccesibleDepartmentsTree`, { ...as('admin'), query: { brandId: 8 } });
    expect(dune.body.result).toEqual([{ id: 2, name: 'Dune Foods', brands: [{ id: 8, name: 'Dune Bakery', branches: [{ id: 3, name: 'Jabriya' }, { id: 2, name: 'Kuwait City' }] }] }]);
  });
});

describe('Statistic: bad input is a clear 400', () => {
  const cases: [string, string, Record<string, unknown>][] = [
    ['dates reversed', 'GetGeneralStatistic', { fromDate: '2026-11-30T00:00:00Z', toDate: '2026-11-01T00:00:00Z' }],
    ['dates equal', 'GetStatisticByBrand', { brandId: 7, fromDate: '2026-11-01T00:00:00Z', toDate: '2026-11-01T00:00:00Z' }],
    ['a date that is not one', 'GetGeneralStatistic', { fromDate: 'last week' }],
    ['an unknown brand', 'GetStatisticByBrand', { brandId: 999 }],
    ['no brand', 'GetStatisticByBrand', {}],
    ['a brand id that is not a number', 'GetStatisticByBrand', { brandId: 'seven' }],
    ['an unknown company', 'GetStatisticByCompany', { companyId: 999 }],
    ['an admin without a company', 'GetStatisticByCompany', {}],
    ['an unknown brand in the tree', 'GetAccesibleDepartmentsTree', { brandId: 999 }],
  ];
  for (const [what, call, query] of cases) {
    it(what, async () => {
      const res = await server.api.get(`${STAT}/${call}`, { ...as('admin'), query });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.error?.message).toBeTruthy();
    });
  }
  it('reversed dates name themselves', async () => {
    const res = await server.api.get(`${STAT}/GetGeneralStatistic`, { ...as('admin'), query: { fromDate: '2026-11-30T00:00:00Z', toDate: '2026-11-01T00:00:00Z' } });
    expect(res.body.error?.message).toBe('The start date must come before the end date.');
  });
});

describe('Statistic: the scope matrix (company 1 owns brand 7; brand 8 is company 2\'s)', () => {
  const calls: [string, string, Record<string, unknown>, Record<Who, number>][] = [
    ['general', 'GetGeneralStatistic', {}, { admin: 200, companyadmin: 403, brandmanager: 403, branchuser: 403, customer: 403, anonymous: 401 }],
    ['company 1', 'GetStatisticByCompany', { companyId: 1 }, { admin: 200, companyadmin: 200, brandmanager: 403, branchuser: 403, customer: 403, anonymous: 401 }],
    ['company 2', 'GetStatisticByCompany', { companyId: 2 }, { admin: 200, companyadmin: 400, brandmanager: 403, branchuser: 403, customer: 403, anonymous: 401 }],
    ['brand 7', 'GetStatisticByBrand', { brandId: 7 }, { admin: 200, companyadmin: 200, brandmanager: 200, branchuser: 403, customer: 403, anonymous: 401 }],
    ['brand 8', 'GetStatisticByBrand', { brandId: 8 }, { admin: 200, companyadmin: 400, brandmanager: 400, branchuser: 403, customer: 403, anonymous: 401 }],
    ['tree', 'GetAccesibleDepartmentsTree', {}, { admin: 200, companyadmin: 200, brandmanager: 200, branchuser: 403, customer: 403, anonymous: 401 }],
    ['tree of brand 8', 'GetAccesibleDepartmentsTree', { brandId: 8 }, { admin: 200, companyadmin: 400, brandmanager: 400, branchuser: 403, customer: 403, anonymous: 401 }],
  ];
  for (const who of CALLERS) {
    it(who, async () => {
      for (const [what, call, query, expected] of calls) {
        await expectCall(server, ['orders'], `${who} ${what}`, expected[who], () => server.api.get(`${STAT}/${call}`, { ...as(who), query }));
      }
    });
  }
  it('a refused caller is refused before the input is read: anonymous with reversed dates is a 401, a branch user a 403', async () => {
    const bad = { fromDate: '2026-11-30T00:00:00Z', toDate: '2026-11-01T00:00:00Z', brandId: 'x' };
    expect((await server.api.get(`${STAT}/GetStatisticByBrand`, { query: bad })).status).toBe(401);
    expect((await server.api.get(`${STAT}/GetStatisticByBrand`, { ...as('branchuser'), query: bad })).status).toBe(403);
  });
});
