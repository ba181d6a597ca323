import { beforeAll, describe, expect, it } from 'vitest';
import { countRows } from '../support/server';
import { callerTokens, expectCall, type Who } from '../support/adminMatrix';
import { useServer } from '../support/harness';
import * as t from '../../server/db/schema';
import { GUEST_USER_ID } from '../../domain/constants';

/**
 * PaymentDashboard (SPEC.md 7 "Notifications and payments", 2.2 /payment-history and
 * /Balance-Enquiry): known paid and unpaid orders, card payments and SMS codes, then the exact rows
 * and figures each role gets.
 */
const PD = '/api/services/app/PaymentDashboard';
const HISTORY = `${PD}/GetBrandCustomerPaymentsHistoryAccessibleForCurrentUser`;
let token: Record<Who, string | undefined>;
const as = (who: Who) => ({ token: token[who] });
const idsOf = (res: { body: { result: { data: { orderNumber: string }[] } } }) => res.body.result.data.map((r) => r.orderNumber);

const server = useServer();
beforeAll(async () => {
  token = await callerTokens(server);
  const db = server.database.db;
  expect(await countRows(server, 'orders'), 'the seed has no orders').toBe(0);
  const [hessa, yousef] = await db.insert(t.users).values(['Hessa Al-Sabah', 'Yousef'].map((name, i) => ({
    userName: `pay-customer-${i}`, fullName: name, role: 'CUSTOMER', passwordHash: '!', phoneNumber: `+9655888000${i}`,
  }))).returning({ id: t.users.id });
  const order = (n: number, branchId: number, userId: number, paidAt: string | null, total: string, paymentSystemId: number, extra: Partial<typeof t.orders.$inferInsert> = {}) => ({
    orderNumber: `P-${n}`, brandId: branchId === 1 ? 7 : 8, branchId, userId, deliverySystem: 'pickup', paymentSystemId,
    ohash: `pay-${n}`, total, subtotal: total, payment: paidAt ? 'paid' : 'unpaid', paidAt: paidAt ? new Date(paidAt) : null,
    status: 'closed', createdAt: new Date(paidAt ?? '2026-11-10T08:00:00Z'), ...extra,
  });
  const saved = await db.insert(t.orders).values([
    order(1, 1, hessa.id, '2026-11-01T06:15:00Z', '2.500', 3), //  card, brand 7
    order(2, 1, yousef.id, '2026-11-03T09:00:00Z', '1.000', 2), // cash, brand 7
    order(3, 1, hessa.id, '2026-11-04T09:00:00Z', '4.000', 3, { refund: 'approved', status: 'rejected' }), // card, refunded
    order(4, 1, yousef.id, null, '9.000', 3, { status: 'pending' }), //  card attempt never paid: not a payment
    order(5, 2, GUEST_USER_ID, '2026-11-05T10:00:00Z', '3.250', 1, { guestCustomerName: 'Walk-in Noura', guestPhoneNumber: '+96551112222' }), // KNET, brand 8
    order(6, 3, hessa.id, '2026-11-06T10:00:00Z', '0.750', 2), //  cash, brand 8
  ]).returning({ id: t.orders.id, orderNumber: t.orders.orderNumber, total: t.orders.total });
  const sandbox = (o: { id: number; total: string }, status: string) =>
    ({ orderId: o.id, provider: 'sandbox', amount: o.total, status, providerRef: `sbx-test-${o.id}-${status}` });
  const paid = await db.insert(t.payments).values([
    sandbox(saved[0], 'paid'), sandbox(saved[2], 'paid'), sandbox(saved[3], 'cancelled'), sandbox(saved[4], 'paid'),
    { orderId: saved[1].id, provider: 'cash', amount: saved[1].total, status: 'pending', providerRef: `cash-test-${saved[1].id}` },
  ]).returning({ id: t.payments.id });
  // P-3's money given back by the provider (server/payments/refunds.ts): what Balance Enquiry takes off.
  await db.insert(t.refunds).values({
    orderId: saved[2].id, paymentId: paid[1].id, provider: 'sandbox', amount: '4.000', currency: 'KD', cause: 'rejected', status: 'refunded', refundedAt: new Date(),
  });
  const old = new Date(Date.now() - 40 * 24 * 3600 * 1000);
  await db.insert(t.smsOutbox).values([
    { phoneNumber: '+96550000001', purpose: 'register', code: '1111', expiresAt: new Date(Date.now() + 60_000) },
    { phoneNumber: '+96550000002', purpose: 'reset', code: '2222', expiresAt: new Date(Date.now() + 60_000) },
    { phoneNumber: '+96550000003', purpose: 'register', code: '3333', expiresAt: old, createdAt: old },
  ]);
}, 120_000);

describe('GetBrandCustomerPaymentsHistoryAccessibleForCurrentUser', () => {
  it('ADMIN: every payment received, newest first, with method, brand, branch and customer; never-paid attempts are not payments', async () => {
    const res = await server.api.get(HISTORY, { ...as('admin'), query: { SkipCount: 0, MaxResultCount: 10 } });
    expect(res.status, JSON.stringify(res.body.error)).toBe(200);
    expect(idsOf(res)).toEqual(['P-6', 'P-5', 'P-3', 'P-2', 'P-1']);
    expect(res.body.result).toMatchObject({ totalCount: 5, totalAmount: 11.5 });
    expect(res.body.result.data[1]).toMatchObject({
      paidAt: '2026-11-05T10:00:00.000Z', amount: 3.25, currency: 'KD', paymentSystemId: 1, paymentSystemName: 'KNET',
      customerName: 'Walk-in Noura', phoneNumber: '+96551112222', isGuest: true, brandId: 8, brandName: 'Dune Bakery', branchId: 2, refund: 'none',
    });
    expect(res.body.result.data[2]).toMatchObject({ orderNumber: 'P-3', refund: 'approved', customerName: 'Hessa Al-Sabah', paymentSystemName: 'Tap Card' });
  });

  it('scoped by role: a company admin and a brand manager see their brand 7 only', async () => {
    for (const who of ['companyadmin', 'brandmanager'] as const) {
      const res = await server.api.get(HISTORY, { ...as(who), query: { SkipCount: 0, MaxResultCount: 10 } });
      expect(res.status, who).toBe(200);
      expect(idsOf(res), who).toEqual(['P-3', 'P-2', 'P-1']);
      expect(res.body.result.totalAmount, who).toBe(7.5);
    }
  });

  it('filters by dates, brand, branch, method and refund, and searches by name, phone and order number', async () => {
    const q = async (query: Record<string, unknown>) => idsOf(await server.api.get(HISTORY, { ...as('admin'), query: { SkipCount: 0, MaxResultCount: 10, ...query } }));
    expect(await q({ fromDate: '2026-11-03T09:00:00Z', toDate: '2026-11-05T10:00:00Z' })).toEqual(['P-3', 'P-2']);
    expect(await q({ brandId: 8 })).toEqual(['P-6', 'P-5']);
    expect(await q({ branchId: 3 })).toEqual(['P-6']);
    expect(await q({ paymentSystemId: 2 })).toEqual(['P-6', 'P-2']);
    expect(await q({ refund: 'approved' })).toEqual(['P-3']);
    expect(await q({ Search: 'hessa' })).toEqual(['P-6', 'P-3', 'P-1']);
    expect(await q({ Search: '5111 2222' })).toEqual(['P-5']);
    expect(await q({ Search: 'P-2' })).toEqual(['P-2']);
    expect(await q({ Sorting: 'amount desc' })).toEqual(['P-3', 'P-5', 'P-1', 'P-2', 'P-6']);
    expect(await q({ Sorting: 'paidAt asc', MaxResultCount: 2, SkipCount: 2 })).toEqual(['P-3', 'P-5']);
  });

  it('bad input is a clear 400; a brand outside the scope is refused like an unknown one', async () => {
    const bad = async (who: Who, query: Record<string, unknown>, text: RegExp) => {
      const res = await server.api.get(HISTORY, { ...as(who), query: { SkipCount: 0, MaxResultCount: 10, ...query } });
      expect(res.status, JSON.stringify(query)).toBe(400);
      // a schema complaint names the field in validationErrors, a rule's in the message too
      expect(`${res.body.error?.message} ${JSON.stringify(res.body.error?.validationErrors)}`).toMatch(text);
    };
    await bad('admin', { fromDate: '2026-11-05T00:00:00Z', toDate: '2026-11-01T00:00:00Z' }, /start date must come before/);
    await bad('admin', { fromDate: 'yesterday' }, /fromDate|date/i);
    await bad('admin', { Sorting: 'password desc' }, /Sorting/);
    await bad('admin', { refund: 'maybe' }, /refund/i);
    await bad('admin', { brandId: 999 }, /no brand 999/);
    await bad('brandmanager', { brandId: 8 }, /no brand 8/);
    await bad('companyadmin', { branchId: 2 }, /no branch 2/);
  });

  it('roles: only the three main roles; 401/403 before any complaint about the query', async () => {
    for (const [who, status] of [['anonymous', 401], ['customer', 403], ['branchuser', 403]] as const) {
      const res = await server.api.get(HISTORY, { ...as(who), query: { SkipCount: -5, Sorting: 'nope' } });
      expect(res.status, who).toBe(status);
    }
  });
});

describe('Balance Enquiry', () => {
  it('BalanceEnquiryAsync: the outbox counts messages, the sandbox its card takings less refunds, average N/A', async () => {
    const res = await server.api.post(`${PD}/BalanceEnquiryAsync`, { ...as('admin'), body: {} });
    expect(res.status, JSON.stringify(res.body.error)).toBe(200);
    const [sms, pay] = res.body.result;
    expect(sms).toMatchObject({ provider: 'SMS', adapter: 'outbox', balance: null, total: 3, last30Days: 2, average: null });
    // sandbox paid: P-1 2.500 + P-3 4.000 (refunded: taken off) + P-5 3.250 = 5.750; the cancelled attempt and cash are not card takings
    expect(pay).toMatchObject({ provider: 'Payment', adapter: 'sandbox', balance: 5.75, total: 5.75, average: null });
    // The fixture's payment rows were written now (no paid_at), the refund given back now: all in the last 30 days.
    expect(pay.last30Days).toBeCloseTo(5.75, 3);
  });

  it("a company admin's takings are their company's; the e-mail account reports nothing sent", async () => {
    const res = await server.api.post(`${PD}/BalanceEnquiryAsync`, { ...as('companyadmin'), body: {} });
    expect(res.status).toBe(200);
    expect(res.body.result[1]).toMatchObject({ provider: 'Payment', balance: 2.5 });
    const mail = await server.api.post(`${PD}/BalanceEnquiryAsyncSendGrid`, { ...as('companyadmin'), body: {} });
    expect(mail.status).toBe(200);
    expect(mail.body.result).toEqual([expect.objectContaining({ provider: 'E-mail', balance: null, total: 0, average: null })]);
  });

  it('only ADMIN and COMPANY_ADMIN (SPEC.md 2.2); nothing is written', async () => {
    for (const [who, status] of [['anonymous', 401], ['customer', 403], ['branchuser', 403], ['brandmanager', 403]] as const) {
      for (const name of ['BalanceEnquiryAsync', 'BalanceEnquiryAsyncSendGrid']) {
        await expectCall(server, ['sms_outbox', 'payments'], `${who} ${name}`, status,
          () => server.api.post(`${PD}/${name}`, { ...as(who), body: {} }));
      }
    }
  });
});
