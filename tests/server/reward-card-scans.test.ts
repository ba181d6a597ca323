import { beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { countRows } from '../support/server';
import { callerTokens, expectCall, type Who } from '../support/adminMatrix';
import { useServer } from '../support/harness';
import * as t from '../../server/db/schema';
import type { Db } from '../../server/db/client';

/**
 * Reward card scans (docs/decisions.md "Reward card scans"): recording a scan, reading a
 * customer's scans and a place's scans, and the four scan statistics, with exact figures on known
 * scans. The seed's demo scans and demo subscribers are removed first, so every figure below is from this file's rows.
 * Kuwait is UTC+3 all year: each UTC time names its Kuwait day.
 */
let token: Record<Who, string | undefined>;
const db = () => server.database.db as unknown as Db;
const as = (who: Who) => ({ token: token[who] });
const SCANS = '/api/services/app/RewardCardScans';
const STAT = '/api/services/app/Statistic';
const NOVEMBER = { fromDate: '2026-11-01T00:00:00Z', toDate: '2026-12-01T00:00:00Z' };
const LONG_AGO = new Date('2026-01-01T00:00:00Z');
let A: number, B: number, C: number, D: number, E: number;

const server = useServer();
beforeAll(async () => {
  token = await callerTokens(server);
  // The demo scans and the demo subscribers' empty wallets (server/db/demoScans.ts) go; Sara's wallet, with its ledger rows, stays.
  await db().execute(sql`delete from reward_card_scans`);
  await db().execute(sql`delete from customer_wallets w where not exists (select 1 from wallet_ledger l where l.user_id = w.user_id and l.brand_id = w.brand_id)`);
  // Sara (the seeded customer, a wallet in brand 7) had her account before the periods below.
  await db().update(t.users).set({ createdAt: LONG_AGO }).where(eq(t.users.id, 5));
  const people = [
    { name: 'Scan Aisha', gender: 'female', birthDate: '2005-06-01' }, // 21 on 2026-11-30: 18-23
    { name: 'Scan Bader', gender: 'M', birthDate: '1996-12-15' }, //     29 on 2026-11-30: 24-30
    { name: 'Scan Czar', gender: 'male', birthDate: '1980-01-01' }, //   46: 46+
    { name: 'Scan Dalal', gender: null, birthDate: null }, //            a wallet in brand 7, never scanned
    { name: 'Scan Eman', gender: 'female', birthDate: '1990-11-30' }, // scans at brand 8 only
  ];
  const rows = await db().insert(t.users).values(people.map((p, i) => ({
    userName: `scan-${i}`, fullName: p.name, role: 'CUSTOMER', passwordHash: '!', phoneNumber: `+9656200000${i}`,
    gender: p.gender, birthDate: p.birthDate, createdAt: LONG_AGO,
  }))).returning({ id: t.users.id });
  [A, B, C, D, E] = rows.map((r) => r.id);
  await db().insert(t.customerWallets).values({ userId: D, brandId: 7 });
  const scan = (userId: number, branchId: number, at: string, scanType = 'reward') =>
    ({ userId, brandId: branchId === 1 ? 7 : 8, branchId, scanType, createdAt: new Date(at), scannedBy: 4 });
  await db().insert(t.rewardCardScans).values([
    scan(A, 1, '2026-10-15T08:00:00Z'), //                  before November
    scan(A, 1, '2026-11-02T06:00:00Z'), //                  Kuwait 2026-11-02
    scan(B, 1, '2026-11-03T21:30:00Z', 'redemption'), //    Kuwait 2026-11-04 00:30
    scan(B, 1, '2026-11-05T10:00:00Z'), //                  Kuwait 2026-11-05
    scan(C, 1, '2026-11-05T12:00:00Z'), //                  Kuwait 2026-11-05
    scan(C, 1, '2026-12-02T09:00:00Z'), //                  after November
    scan(E, 2, '2026-11-05T09:00:00Z'), //                  brand 8
  ]);
}, 120_000);

const bands = (s: { ageBands: { band: string; customers: number }[] }) => Object.fromEntries(s.ageBands.map((b) => [b.band, b.customers]));

describe('Statistic: reward card scans, exact figures', () => {
  it('GetCustomerRewardCardScanStatisticByDates: November at brand 7', async () => {
    const res = await server.api.get(`${STAT}/GetCustomerRewardCardScanStatisticByDates`, { ...as('brandmanager'), query: { brandId: 7, ...NOVEMBER } });
    expect(res.status, JSON.stringify(res.body.error)).toBe(200);
    const s = res.body.result;
    // scanned A, B, C; not scanned Sara and Dalal (wallets); A and B scanned more than once by the end, C once
    expect(s).toMatchObject({
      brandId: 7, customers: 5, scanned: 3, notScanned: 2, newCustomers: 1, returnedCustomers: 2,
      male: 2, female: 1, genderNotGiven: 0, scans: 4, rewardScans: 3, redemptionScans: 1,
    });
    expect(bands(s)).toEqual({ '18-23': 1, '24-30': 1, '31-45': 0, '46+': 1, 'Under 18': 0, 'Not given': 0 });
    expect(s.ageBands.map((b: { band: string }) => b.band)).toEqual(['18-23', '24-30', '31-45', '46+', 'Under 18', 'Not given']);
    expect(s.byDate).toEqual([
      { date: '2026-11-02', scans: 1, rewardScans: 1, redemptionScans: 0, customers: 1 },
      { date: '2026-11-04', scans: 1, rewardScans: 0, redemptionScans: 1, customers: 1 },
      { date: '2026-11-05', scans: 2, rewardScans: 2, redemptionScans: 0, customers: 2 },
    ]);
  });

  it('the period ends before its end moment; a birthday on the last day counts', async () => {
    const res = await server.api.get(`${STAT}/GetCustomerRewardCardScanStatisticByDates`, { ...as('admin'), query: { brandId: 8, fromDate: '2026-11-05T09:00:00Z', toDate: '2026-11-30T21:00:00Z' } });
    // Eman, born 1990-11-30, is 36 on the period's last Kuwait day (2026-11-30)
    expect(res.body.result).toMatchObject({ scanned: 1, newCustomers: 1, female: 1, scans: 1 });
    expect(bands(res.body.result)['31-45']).toBe(1);
    const before = await server.api.get(`${STAT}/GetCustomerRewardCardScanStatisticByDates`, { ...as('admin'), query: { brandId: 8, fromDate: '2026-11-01T00:00:00Z', toDate: '2026-11-05T09:00:00Z' } });
    expect(before.body.result).toMatchObject({ scanned: 0, notScanned: 1, customers: 1, scans: 0, byDate: [] });
  });

  it('GetCustomerRewardCardScanStatistic: all time at brand 7', async () => {
    const res = await server.api.get(`${STAT}/GetCustomerRewardCardScanStatistic`, { ...as('companyadmin'), query: { brandId: 7 } });
    expect(res.status).toBe(200);
    const s = res.body.result;
    expect(s).toMatchObject({ customers: 5, scanned: 3, notScanned: 2, newCustomers: 0, returnedCustomers: 3, male: 2, female: 1, scans: 6, rewardScans: 5, redemptionScans: 1 });
    expect(s.ageBands.reduce((n: number, b: { customers: number }) => n + b.customers, 0)).toBe(3);
    expect(s.byDate.map((d: { date: string }) => d.date)).toEqual(['2026-10-15', '2026-11-02', '2026-11-04', '2026-11-05', '2026-12-02']);
  });

  it("GetCustomerProfileStats: the brand's customers by gender and age band", async () => {
    const res = await server.api.get(`${STAT}/GetCustomerProfileStats`, { ...as('brandmanager'), query: { brandId: 7 } });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ brandId: 7, customers: 5, male: 2, female: 1, genderNotGiven: 2 });
    expect(bands(res.body.result)).toMatchObject({ '18-23': 1, '24-30': 1, '46+': 1, 'Not given': 2 });
  });

  it('GetRewardCardsScansStatistic: per branch of the caller\'s places', async () => {
    const admin = await server.api.get(`${STAT}/GetRewardCardsScansStatistic`, { ...as('admin'), query: NOVEMBER });
    expect(admin.status).toBe(200);
    expect(admin.body.result).toMatchObject({ scans: 5, rewardScans: 4, redemptionScans: 1, customers: 4 });
    expect(admin.body.result.byBranch.map((b: { branchId: number; scans: number }) => [b.branchId, b.scans])).toEqual([[1, 4], [2, 1], [3, 0]]);
    const company = await server.api.get(`${STAT}/GetRewardCardsScansStatistic`, as('companyadmin'));
    expect(company.body.result).toMatchObject({ scans: 6, customers: 3 });
    expect(company.body.result.byBranch).toEqual([{ branchId: 1, branchName: 'Salmiya', brandId: 7, brandName: 'Mango Coffee', scans: 6, rewardScans: 5, redemptionScans: 1, customers: 3 }]);
    const dune = await server.api.get(`${STAT}/GetRewardCardsScansStatistic`, { ...as('admin'), query: { brandId: 8 } });
    expect(dune.body.result.byBranch.map((b: { branchId: number }) => b.branchId)).toEqual([2, 3]);
  });
});

describe('Statistic: reward card scans, bad input and scope', () => {
  const calls = ['GetCustomerRewardCardScanStatistic', 'GetCustomerRewardCardScanStatisticByDates', 'GetCustomerProfileStats', 'GetRewardCardsScansStatistic'];
  const ok = (call: string, brandId: unknown) => (call === 'GetCustomerRewardCardScanStatisticByDates' ? { brandId, ...NOVEMBER } : { brandId });
  it.each([
    ['no brand', 'GetCustomerRewardCardScanStatistic', {}],
    ['a brand that is not a number', 'GetCustomerProfileStats', { brandId: 'seven' }],
    ['an unknown brand', 'GetCustomerRewardCardScanStatistic', { brandId: 999 }],
    ['an unknown brand (per branch)', 'GetRewardCardsScansStatistic', { brandId: 999 }],
    ['ByDates without dates', 'GetCustomerRewardCardScanStatisticByDates', { brandId: 7 }],
    ['dates reversed', 'GetCustomerRewardCardScanStatisticByDates', { brandId: 7, fromDate: NOVEMBER.toDate, toDate: NOVEMBER.fromDate }],
    ['a date that is not one', 'GetRewardCardsScansStatistic', { fromDate: 'yesterday' }],
  ])('%s is a 400', async (_what, call, query) => {
    const res = await server.api.get(`${STAT}/${call}`, { ...as('admin'), query });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error?.message).toBeTruthy();
  });

  it('the scope matrix: each role its own brands; 401 and 403 before any complaint about the query', async () => {
    const expected: Record<Who, [number, number]> = {
      admin: [200, 200], companyadmin: [200, 400], brandmanager: [200, 400], branchuser: [403, 403], customer: [403, 403], anonymous: [401, 401],
    };
    for (const call of calls) {
      for (const [who, [mine, other]] of Object.entries(expected) as [Who, [number, number]][]) {
        expect((await server.api.get(`${STAT}/${call}`, { ...as(who), query: ok(call, 7) })).status, `${call} ${who} brand 7`).toBe(mine);
        expect((await server.api.get(`${STAT}/${call}`, { ...as(who), query: ok(call, 8) })).status, `${call} ${who} brand 8`).toBe(other);
      }
      expect((await server.api.get(`${STAT}/${call}`, { ...as('anonymous'), query: { brandId: 'x', fromDate: 'y' } })).status).toBe(401);
      expect((await server.api.get(`${STAT}/${call}`, { ...as('branchuser'), query: { brandId: 'x', fromDate: 'y' } })).status).toBe(403);
    }
  });

  it('a stored birth date that is no real day is counted, never a 500', async () => {
    const [odd] = await db().insert(t.users).values({ userName: 'scan-odd', fullName: 'Scan Odd', role: 'CUSTOMER', passwordHash: '!', birthDate: '1999-02-31', gender: ' FEMALE ', createdAt: LONG_AGO }).returning();
    await db().insert(t.rewardCardScans).values({ userId: odd.id, brandId: 8, branchId: 3, scanType: 'reward', createdAt: new Date('2026-11-10T10:00:00Z') });
    const res = await server.api.get(`${STAT}/GetCustomerRewardCardScanStatisticByDates`, { ...as('admin'), query: { brandId: 8, ...NOVEMBER } });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ scanned: 2, female: 2 });
    expect(bands(res.body.result)).toMatchObject({ '24-30': 1, '31-45': 1 });
    await db().execute(sql`delete from reward_card_scans where user_id = ${odd.id}`);
  });
});

describe('RewardCardScans: record a scan', () => {
  const record = (who: Who, body: unknown) => () => server.api.post(`${SCANS}/InsertUserRewardCardScan`, { ...as(who), body });

  it('a branch user records a scan at their branch once per key; a retry answers the first scan', async () => {
    const first = await expectCall(server, ['reward_card_scans'], 'record', 200, record('branchuser', { customerId: A, branchId: 1, scanType: 'reward', idempotencyKey: 'till-1' }));
    expect(first.body.result).toMatchObject({ recorded: true, scan: { customerId: A, customerName: 'Scan Aisha', gender: 'female', branchId: 1, brandId: 7, branchName: 'Salmiya', scanType: 'reward', scannedByName: 'Noura Branch' } });
    const n = await countRows(server, 'reward_card_scans');
    const again = await record('branchuser', { customerId: A, branchId: 1, scanType: 'reward', idempotencyKey: 'till-1' })();
    expect(again.body.result).toMatchObject({ recorded: false, scan: { id: first.body.result.scan.id } });
    expect(await countRows(server, 'reward_card_scans')).toBe(n);
    // the same key from another user is their own scan, never an answer with someone else's
    const other = await record('admin', { customerId: E, branchId: 2, scanType: 'reward', idempotencyKey: 'till-1' })();
    expect(other.body.result).toMatchObject({ recorded: true, scan: { customerId: E, branchId: 2 } });
    await db().execute(sql`delete from reward_card_scans where id in (${first.body.result.scan.id}, ${other.body.result.scan.id})`);
  });

  it('with the order being served: only this customer\'s order at this branch', async () => {
    const order = (userId: number, branchId: number) => ({
      orderNumber: `SC-${userId}-${branchId}`, brandId: branchId === 1 ? 7 : 8, branchId, userId, deliverySystem: 'pickup', paymentSystemId: 2, ohash: `scan-${userId}-${branchId}`, total: '1.000', subtotal: '1.000',
    });
    const [mine, other, elsewhere] = await db().insert(t.orders).values([order(B, 1), order(C, 1), order(B, 2)]).returning({ id: t.orders.id });
    const ok = await expectCall(server, ['reward_card_scans'], 'with order', 200, record('brandmanager', { customerId: B, branchId: 1, scanType: 'redemption', orderId: mine.id }));
    expect(ok.body.result.scan).toMatchObject({ orderId: mine.id, scanType: 'redemption' });
    await expectCall(server, ['reward_card_scans'], "another customer's order", 400, record('brandmanager', { customerId: B, branchId: 1, scanType: 'reward', orderId: other.id }));
    await expectCall(server, ['reward_card_scans'], 'an order at another branch', 400, record('admin', { customerId: B, branchId: 1, scanType: 'reward', orderId: elsewhere.id }));
    await db().execute(sql`delete from reward_card_scans where id = ${ok.body.result.scan.id}`);
    await db().execute(sql`delete from orders where id in (${mine.id}, ${other.id}, ${elsewhere.id})`);
  });

  it('bad input is a 400 or 404 and writes nothing', async () => {
    const cases: [string, number, Who, unknown][] = [
      ['an unknown scan type', 400, 'branchuser', { customerId: A, branchId: 1, scanType: 'visit' }],
      ['no branch', 400, 'branchuser', { customerId: A, scanType: 'reward' }],
      ['a branch id that is not one', 400, 'admin', { customerId: A, branchId: 'one', scanType: 'reward' }],
      ['an unknown branch', 400, 'admin', { customerId: A, branchId: 999, scanType: 'reward' }],
      ['an unknown customer', 404, 'admin', { customerId: 424242, branchId: 1, scanType: 'reward' }],
      ['a staff account as the customer', 404, 'admin', { customerId: 3, branchId: 1, scanType: 'reward' }],
      ['the shared guest', 404, 'admin', { customerId: 18, branchId: 1, scanType: 'reward' }],
      ['an empty key', 400, 'admin', { customerId: A, branchId: 1, scanType: 'reward', idempotencyKey: '' }],
    ];
    for (const [what, status, who, body] of cases) await expectCall(server, ['reward_card_scans'], what, status, record(who, body));
  });

  it('the scope matrix: a branch user at their branch, the others in their places; 401 and 403 before the body', async () => {
    const at2 = { customerId: A, branchId: 2, scanType: 'reward' };
    await expectCall(server, ['reward_card_scans'], 'branch user elsewhere', 400, record('branchuser', at2));
    await expectCall(server, ['reward_card_scans'], 'brand manager, other brand', 400, record('brandmanager', at2));
    await expectCall(server, ['reward_card_scans'], 'company admin, other company', 400, record('companyadmin', at2));
    await expectCall(server, ['reward_card_scans'], 'customer', 403, record('customer', at2));
    await expectCall(server, ['reward_card_scans'], 'anonymous', 401, record('anonymous', at2));
    await expectCall(server, ['reward_card_scans'], '403 before the body', 403, record('customer', { nonsense: true }));
    await expectCall(server, ['reward_card_scans'], '401 before the body', 401, record('anonymous', { nonsense: true }));
    // Anywhere, but only a customer of the branch's brand (issue 20): Eman scans at brand 8.
    const admin = await expectCall(server, ['reward_card_scans'], 'admin anywhere', 200, record('admin', { ...at2, customerId: E }));
    await expectCall(server, ['reward_card_scans'], "admin, not the brand's customer", 404, record('admin', at2));
    const company = await expectCall(server, ['reward_card_scans'], 'company admin at home', 200, record('companyadmin', { ...at2, branchId: 1 }));
    await db().execute(sql`delete from reward_card_scans where id in (${admin.body.result.scan.id}, ${company.body.result.scan.id})`);
  });
});

describe('RewardCardScans: read scans', () => {
  it("GetUserRewardCardScansInfoByCustomer: a customer's scans in the caller's places, with the demographics of each day", async () => {
    const res = await server.api.get(`${SCANS}/GetUserRewardCardScansInfoByCustomer`, { ...as('brandmanager'), query: { CustomerId: B } });
    expect(res.status, JSON.stringify(res.body.error)).toBe(200);
    const r = res.body.result;
    expect(r).toMatchObject({ totalCount: 2, rewardScans: 1, redemptionScans: 1, firstScanAt: '2026-11-03T21:30:00.000Z', lastScanAt: '2026-11-05T10:00:00.000Z' });
    expect(r.data.map((s: { scanType: string; gender: string; ageBand: string; branchName: string }) => [s.scanType, s.gender, s.ageBand, s.branchName]))
      .toEqual([['reward', 'male', '24-30', 'Salmiya'], ['redemption', 'male', '24-30', 'Salmiya']]);
    const page = await server.api.get(`${SCANS}/GetUserRewardCardScansInfoByCustomer`, { ...as('admin'), query: { CustomerId: B, SkipCount: 1, MaxResultCount: 1 } });
    expect(page.body.result.data.map((s: { scanType: string }) => s.scanType)).toEqual(['redemption']);
    expect(page.body.result.totalCount).toBe(2);
    const dated = await server.api.get(`${SCANS}/GetUserRewardCardScansInfoByCustomer`, { ...as('admin'), query: { CustomerId: C, FromDate: NOVEMBER.fromDate, ToDate: NOVEMBER.toDate } });
    expect(dated.body.result).toMatchObject({ totalCount: 1, data: [{ ageBand: '46+', createdAt: '2026-11-05T12:00:00.000Z' }] });
  });

  it('a customer only scanned at another brand is not the brand manager\'s; the admin sees them', async () => {
    expect((await server.api.get(`${SCANS}/GetUserRewardCardScansInfoByCustomer`, { ...as('brandmanager'), query: { CustomerId: E } })).status).toBe(404);
    expect((await server.api.get(`${SCANS}/GetUserRewardCardScansInfoByCustomer`, { ...as('admin'), query: { CustomerId: E } })).body.result.totalCount).toBe(1);
    expect((await server.api.get(`${SCANS}/GetUserRewardCardScansInfoByCustomer`, { ...as('branchuser'), query: { CustomerId: A } })).status).toBe(403);
    expect((await server.api.get(`${SCANS}/GetUserRewardCardScansInfoByCustomer`, { ...as('anonymous'), query: { CustomerId: 'x' } })).status).toBe(401);
    expect((await server.api.get(`${SCANS}/GetUserRewardCardScansInfoByCustomer`, { ...as('admin'), query: {} })).status).toBe(400);
    expect((await server.api.get(`${SCANS}/GetUserRewardCardScansInfoByCustomer`, { ...as('admin'), query: { CustomerId: 424242 } })).status).toBe(404);
    expect((await server.api.get(`${SCANS}/GetUserRewardCardScansInfoByCustomer`, { ...as('admin'), query: { CustomerId: A, FromDate: NOVEMBER.toDate, ToDate: NOVEMBER.fromDate } })).status).toBe(400);
  });

  it('a scan makes the customer one of the brand\'s: the customer list of a brand manager shows the scanned customers', async () => {
    const res = await server.api.get('/api/services/app/Customer/GetCustomersAccessibleForCurrentUser', { ...as('brandmanager'), query: { Search: 'Scan ', MaxResultCount: 50 } });
    expect(res.body.result.data.map((c: { fullName: string }) => c.fullName).sort()).toEqual(['Scan Aisha', 'Scan Bader', 'Scan Czar', 'Scan Dalal']);
  });

  it("GetUserRewardCardScansInfo: each caller their places' scans, with filters", async () => {
    const list = async (who: Who, query: Record<string, unknown> = {}) => {
      const res = await server.api.get(`${SCANS}/GetUserRewardCardScansInfo`, { ...as(who), query: { MaxResultCount: 100, ...query } });
      expect(res.status, `${who} ${JSON.stringify(res.body.error)}`).toBe(200);
      return res.body.result as { totalCount: number; data: { branchId: number; customerName: string; scanType: string }[] };
    };
    expect((await list('admin')).totalCount).toBe(7);
    expect((await list('companyadmin')).totalCount).toBe(6);
    expect((await list('brandmanager')).data.every((s) => s.branchId === 1)).toBe(true);
    expect((await list('branchuser')).totalCount).toBe(6);
    expect((await list('admin', { BrandId: 8 })).data.map((s) => s.customerName)).toEqual(['Scan Eman']);
    expect((await list('admin', { ScanType: 'redemption' })).data.map((s) => s.customerName)).toEqual(['Scan Bader']);
    expect((await list('brandmanager', { Search: 'czar', ...{ FromDate: NOVEMBER.fromDate, ToDate: NOVEMBER.toDate } })).totalCount).toBe(1);
    expect((await list('branchuser', { BrandId: 8 })).totalCount).toBe(0);
    expect((await server.api.get(`${SCANS}/GetUserRewardCardScansInfo`, { ...as('brandmanager'), query: { BrandId: 8 } })).status).toBe(400);
    expect((await server.api.get(`${SCANS}/GetUserRewardCardScansInfo`, { ...as('customer') })).status).toBe(403);
    expect((await server.api.get(`${SCANS}/GetUserRewardCardScansInfo`, { ...as('anonymous') })).status).toBe(401);
    expect((await server.api.get(`${SCANS}/GetUserRewardCardScansInfo`, { ...as('admin'), query: { ScanType: 'visit' } })).status).toBe(400);
  });
});

describe('Store lists: the orders of one customer (the Orders tab of /customers/{id})', () => {
  it('CustomerId narrows the list to that customer\'s orders, inside the caller\'s scope', async () => {
    const order = (n: number, userId: number, branchId: number) => ({
      orderNumber: `SCO-${n}`, brandId: branchId === 1 ? 7 : 8, branchId, userId, deliverySystem: 'pickup', paymentSystemId: 2, ohash: `scan-order-${n}`, total: '1.000', subtotal: '1.000',
    });
    const made = await db().insert(t.orders).values([order(1, A, 1), order(2, A, 1), order(3, A, 2), order(4, B, 1)]).returning({ id: t.orders.id });
    const ids = async (who: Who, query: Record<string, unknown>) => {
      const res = await server.api.get('/api/services/app/Store/GetUserOrdersAsBranchUser', { ...as(who), query: { MaxResultCount: 100, ...query } });
      expect(res.status, JSON.stringify(res.body.error)).toBe(200);
      return (res.body.result.data as { id: number }[]).map((o) => o.id);
    };
    expect(await ids('admin', { CustomerId: A })).toEqual([made[2].id, made[1].id, made[0].id]);
    expect(await ids('brandmanager', { CustomerId: A })).toEqual([made[1].id, made[0].id]);
    expect(await ids('branchuser', { CustomerId: B })).toEqual([made[3].id]);
    expect(await ids('brandmanager', { CustomerId: E })).toEqual([]);
    expect((await server.api.get('/api/services/app/Store/GetUserOrdersAsBranchUser', { ...as('admin'), query: { CustomerId: 'a' } })).status).toBe(400);
    await db().execute(sql`delete from orders where id in (${sql.join(made.map((m) => sql`${m.id}`), sql`, `)})`);
  });
});
