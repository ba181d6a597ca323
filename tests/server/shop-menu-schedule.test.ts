import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { seededMenu } from '../support/shopMenu';
import { callerTokens, type Who } from '../support/adminMatrix';
import { useServer } from '../support/harness';
import * as t from '../../server/db/schema';
import { localDayAndMinutes, orderingStatus } from '../../domain/schedule';
import { ORDER_TEXT } from '../../server/services/store/planOrder';

/**
 * Issue 24: a branch closed for online orders looked open until the last tap, because the picker
 * showed the branch's open/close hours while the order check read its online-ordering schedule.
 * The shop's branch calls now answer, from that same schedule, whether the branch takes online
 * orders now and when that changes; an order agrees with them.
 */
const SCHEDULE = '/api/services/app/BranchOnlineOrderingSchedule';
const SAVE = '/api/services/app/Store/SaveNewOrderVS1';
const MINUTE = 60_000;

let token: Record<Who, string | undefined>;
let customer: string;
let menu: Awaited<ReturnType<typeof seededMenu>>;
let keys = 0;

const server = useServer();
beforeAll(async () => {
  token = await callerTokens(server);
  customer = await server.api.login('customer');
  menu = await seededMenu(server);
});

/** Kuwait's midnight today, `days` later, plus `hhmm`, as an ISO time (Kuwait is UTC+3, no daylight saving). */
function kuwait(days: number, hhmm: string) {
  const now = new Date();
  const { minutes } = localDayAndMinutes(now);
  const midnight = now.getTime() - (now.getTime() % MINUTE) - minutes * MINUTE;
  const [h, m] = hhmm.split(':').map(Number);
  return new Date(midnight + (days * 24 * 60 + h * 60 + m) * MINUTE).toISOString();
}

/** Branch 1's schedule replaced by these rows, through the console's calls (the catalog cache hears it). */
async function scheduleBranch1(rows: { dayOfWeek: number; openTime: string; closeTime: string }[]) {
  const old = await server.api.get(`${SCHEDULE}/GetBranchOnlineOrderingSchedule`, { token: token.admin, query: { branchId: 1 } });
  for (const row of old.body.result.data) {
    expect((await server.api.delete(`${SCHEDULE}/DeleteBranchOnlineOrderingSchedule`, { token: token.admin, query: { Id: row.id, BranchId: 1 } })).status).toBe(200);
  }
  for (const row of rows) {
    const res = await server.api.post(`${SCHEDULE}/CreateBranchOnlineOrderingcShedule`, { token: token.admin, body: { branchId: 1, ...row } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
}

/** Branch 1 as each of the shop's branch calls answers it. */
async function branch1() {
  const brands = await server.api.get('/api/services/app/Brand/GetBrandsForMangoCustomer');
  const ofBrand = await server.api.get('/api/services/app/Branch/GetBranchesForCustomer', { query: { brandId: 7 } });
  const byId = await server.api.get('/api/services/app/Branch/GetById', { query: { branchId: 1 } });
  const pick = (b: Record<string, unknown>) => ({ isOpenForOrders: b.isOpenForOrders, opensAt: b.opensAt, closesAt: b.closesAt });
  const answers = [
    pick(brands.body.result.find((b: any) => b.id === 7).branches.find((b: any) => b.id === 1)),
    pick(ofBrand.body.result.find((b: any) => b.id === 1)),
    pick(byId.body.result),
  ];
  expect(answers[1]).toEqual(answers[0]);
  expect(answers[2]).toEqual(answers[0]);
  return answers[0];
}

const order = () => server.api.post(SAVE, {
  token: customer,
  headers: { 'idempotency-key': `schedule-${++keys}` },
  body: { brandId: 7, paymentSystem: 2, deliveryOptions: { branchId: 1, isPickup: true }, products: [{ productId: menu.product('Pistachio Cookie'), quantity: 1 }] },
});

describe("the shop's branch calls tell the online-ordering schedule the order check enforces", () => {
  it('a branch closed today reads closed, with its next opening; the order is refused', async () => {
    const today = localDayAndMinutes(new Date()).dayOfWeek;
    await scheduleBranch1([{ dayOfWeek: (today + 1) % 7, openTime: '20:00', closeTime: '23:00' }]);
    // Its opening and closing hours (07:00–23:00 in the seed) would have said open all day.
    expect(await branch1()).toEqual({ isOpenForOrders: false, opensAt: kuwait(1, '20:00'), closesAt: null });
    const refused = await order();
    expect(refused.status).toBe(400);
    expect(refused.body.error?.message).toBe(ORDER_TEXT.closed);
  });

  it('an open branch reads open, with when it stops taking orders (an all-day today running into tomorrow)', async () => {
    const today = localDayAndMinutes(new Date()).dayOfWeek;
    await scheduleBranch1([
      { dayOfWeek: today, openTime: '00:00', closeTime: '23:59' },
      { dayOfWeek: (today + 1) % 7, openTime: '00:00', closeTime: '12:00' },
    ]);
    expect(await branch1()).toEqual({ isOpenForOrders: true, opensAt: null, closesAt: kuwait(1, '12:00') });
    const saved = await order();
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  });

  it("a branch without schedule rows follows its daily hours, as the order check does", async () => {
    await scheduleBranch1([]);
    const { minutes } = localDayAndMinutes(new Date());
    // Hours that have ended today (or, just after midnight, not begun): closed until tomorrow's opening.
    const [open, close] = minutes >= 60 ? ['00:00', '00:30'] : ['02:00', '03:00'];
    await server.database.db.update(t.branches).set({ openTime: open, closeTime: close }).where(eq(t.branches.id, 1));
    expect(await branch1()).toEqual({ isOpenForOrders: false, opensAt: minutes >= 60 ? kuwait(1, open) : kuwait(0, open), closesAt: null });
    expect((await order()).body.error?.message).toBe(ORDER_TEXT.closed);
  });
});

describe('orderingStatus (domain/schedule.ts)', () => {
  // 2024-01-06 is a Saturday; 12:34:56Z is 15:34 in Kuwait.
  const at = new Date('2024-01-06T12:34:56Z');
  const iso = (s: { isOpen: boolean; opensAt: Date | null; closesAt: Date | null }) =>
    ({ isOpen: s.isOpen, opensAt: s.opensAt?.toISOString() ?? null, closesAt: s.closesAt?.toISOString() ?? null });

  it('finds the next opening of a closed branch, today or later in the week', () => {
    expect(iso(orderingStatus([{ dayOfWeek: 6, openTime: '20:00', closeTime: '23:00' }], at))).toEqual({ isOpen: false, opensAt: '2024-01-06T17:00:00.000Z', closesAt: null });
    expect(iso(orderingStatus([{ dayOfWeek: 1, openTime: '10:00', closeTime: '10:00' }], at))).toEqual({ isOpen: false, opensAt: '2024-01-07T21:00:00.000Z', closesAt: null });
    expect(iso(orderingStatus([{ dayOfWeek: 6, openTime: '08:00', closeTime: '09:00' }], at))).toEqual({ isOpen: false, opensAt: '2024-01-13T05:00:00.000Z', closesAt: null });
    expect(iso(orderingStatus([], at))).toEqual({ isOpen: false, opensAt: null, closesAt: null });
  });

  it('finds the closing of an open branch past midnight and across back-to-back days', () => {
    expect(iso(orderingStatus([{ dayOfWeek: 5, openTime: '18:00', closeTime: '02:00' }], new Date('2024-01-05T22:30:00Z')))).toEqual({ isOpen: true, opensAt: null, closesAt: '2024-01-05T23:00:00.000Z' });
    expect(iso(orderingStatus([{ dayOfWeek: 6, openTime: '00:00', closeTime: '23:59' }, { dayOfWeek: 0, openTime: '00:00', closeTime: '12:00' }], at)))
      .toEqual({ isOpen: true, opensAt: null, closesAt: '2024-01-07T09:00:00.000Z' });
    expect(iso(orderingStatus([0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ dayOfWeek, openTime: '00:00', closeTime: '23:59' })), at))).toEqual({ isOpen: true, opensAt: null, closesAt: null });
  });
});
