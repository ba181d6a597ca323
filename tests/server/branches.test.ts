import { beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { callerTokens, expectCall, snapshot, type Who } from '../support/adminMatrix';
import { useServer } from '../support/harness';
import * as t from '../../server/db/schema';
import { localDayAndMinutes } from '../../domain/schedule';
import { ORDER_TEXT } from '../../server/services/store/planOrder';

/** Branch administration (SPEC.md 7 Branch, Configuration: branch online-ordering schedule) and what the shop makes of it. */
const BRANCH = '/api/services/app/Branch';
const SCHEDULE = '/api/services/app/BranchOnlineOrderingSchedule';
const HISTORY = '/api/services/app/AuditLog/GetEntityHistory';

let token: Record<Who, string | undefined>;
const as = (who: Who) => ({ token: token[who] });
const db = () => server.database.db;
/** Today's weekday in Kuwait, and one that is surely not today. */
const today = () => localDayAndMinutes(new Date()).dayOfWeek;
const notToday = () => (today() + 3) % 7;

const server = useServer();
beforeAll(async () => {
  token = await callerTokens(server);
});

const branchRow = async (id: number) => (await db().select().from(t.branches).where(eq(t.branches.id, id)))[0];

describe('Branch: Create, Update, GetBranchesForCurrentUser', () => {
  it('creates a branch that the list, its history and the shop picker show at once, and changes it', async () => {
    const created = await server.api.post(`${BRANCH}/Create`, {
      ...as('companyadmin'),
      body: {
        brandId: 7, name: 'Shuwaikh Port', branchAddress: 'Block 2, Shuwaikh', branchPhoneNumber: '+965 2220 0009',
        openTime: '08:00', closeTime: '01:00', deliveryText: 'Delivery in 25 minutes', logoUrl: '/uploads/logo.png', latitude: 29.35, longitude: 47.93,
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const branch = created.body.result;
    expect(branch).toMatchObject({ brandId: 7, name: 'Shuwaikh Port', openTime: '08:00', closeTime: '01:00', isBusy: false, latitude: 29.35, logoUrl: '/uploads/logo.png' });

    const list = await server.api.get(`${BRANCH}/GetBranchesForCurrentUser`, { ...as('companyadmin'), query: { Search: 'shuwaikh' } });
    expect(list.body.result).toMatchObject({ totalCount: 1, data: [{ id: branch.id, name: 'Shuwaikh Port' }] });

    const picker = await server.api.get('/api/services/app/Brand/GetBrandsForMangoCustomer');
    const mango = picker.body.result.find((b: { id: number }) => b.id === 7);
    expect(mango.branches.map((b: { name: string }) => b.name)).toContain('Shuwaikh Port');
    const forCustomer = await server.api.get(`${BRANCH}/GetBranchesForCustomer`, { query: { brandId: 7 } });
    expect(forCustomer.body.result.map((b: { id: number }) => b.id)).toContain(branch.id);

    const updated = await server.api.put(`${BRANCH}/Update`, { ...as('brandmanager'), body: { id: branch.id, name: 'Shuwaikh Port 2', closeTime: '23:00', latitude: null, brandId: 8 } });
    expect(updated.status).toBe(200);
    // the brand never changes through Update
    expect(updated.body.result).toMatchObject({ brandId: 7, name: 'Shuwaikh Port 2', closeTime: '23:00', openTime: '08:00', latitude: null, longitude: 47.93 });

    const history = await server.api.get(HISTORY, { ...as('companyadmin'), query: { resource: 'Branch', id: branch.id } });
    expect(history.body.result.data.map((h: { action: string }) => h.action)).toEqual(['update', 'create']);
    expect((await server.api.get('/api/services/app/Branch/GetById', { query: { branchId: branch.id } })).body.result.name).toBe('Shuwaikh Port 2');
  });

  it('refuses bad input with 400 naming the field, and writes nothing', async () => {
    const good = { brandId: 7, name: 'X', openTime: '08:00', closeTime: '22:00' };
    const bad: [string, 'post' | 'put', Record<string, unknown>, string][] = [
      ['no name', 'post', { ...good, name: undefined }, 'name'],
      ['blank name', 'post', { ...good, name: '  ' }, 'name'],
      ['time without a leading zero', 'post', { ...good, openTime: '8:00' }, 'openTime'],
      ['hour 24', 'post', { ...good, closeTime: '24:00' }, 'closeTime'],
      ['minute 60', 'post', { ...good, closeTime: '12:60' }, 'closeTime'],
      ['a word for a time', 'post', { ...good, openTime: 'noon' }, 'openTime'],
      ['latitude out of range', 'post', { ...good, latitude: 91 }, 'latitude'],
      ['longitude as text', 'post', { ...good, longitude: 'east' }, 'longitude'],
      ['phone with letters', 'post', { ...good, branchPhoneNumber: 'call us' }, 'branchPhoneNumber'],
      ['script logo', 'post', { ...good, logoUrl: 'javascript:alert(1)' }, 'logoUrl'],
      ['unknown brand', 'post', { ...good, brandId: 4242 }, 'brandId'],
      ['update without id', 'put', { name: 'Y' }, 'id'],
      ['update to a bad time', 'put', { id: 1, openTime: '25:00' }, 'openTime'],
    ];
    for (const [what, verb, body, field] of bad) {
      const res = await expectCall(server, ['branches'], what, 400, () => server.api[verb](`${BRANCH}/${verb === 'post' ? 'Create' : 'Update'}`, { ...as('admin'), body }));
      expect(res.body.error?.validationErrors?.map((v: { members: string[] }) => v.members).flat().join(' ').toLowerCase(), what).toContain(field.toLowerCase());
    }
    await expectCall(server, ['branches'], 'unknown branch', 404, () => server.api.put(`${BRANCH}/Update`, { ...as('admin'), body: { id: 4242, name: 'Y' } }));
  });
});

describe('Branch scope: role × call (company 1 owns brand 7 and branch 1; brand 8 and branch 2 belong to company 2)', () => {
  const MATRIX: [Who, { list: number; create7: number; create8: number; update1: number; update2: number; groups1: number; groups2: number }][] = [
    ['admin', { list: 200, create7: 200, create8: 200, update1: 200, update2: 200, groups1: 200, groups2: 200 }],
    ['companyadmin', { list: 200, create7: 200, create8: 400, update1: 200, update2: 404, groups1: 200, groups2: 404 }],
    ['brandmanager', { list: 200, create7: 200, create8: 400, update1: 200, update2: 404, groups1: 200, groups2: 404 }],
    ['branchuser', { list: 403, create7: 403, create8: 403, update1: 403, update2: 403, groups1: 403, groups2: 403 }],
    ['customer', { list: 403, create7: 403, create8: 403, update1: 403, update2: 403, groups1: 403, groups2: 403 }],
    ['anonymous', { list: 401, create7: 401, create8: 401, update1: 401, update2: 401, groups1: 401, groups2: 401 }],
  ];

  it.each(MATRIX)('%s', async (who, expected) => {
    const list = await expectCall(server, ['branches'], 'list', expected.list, () => server.api.get(`${BRANCH}/GetBranchesForCurrentUser`, { ...as(who), query: { MaxResultCount: 100 } }));
    if (list.status === 200) {
      const brands = [...new Set(list.body.result.data.map((b: { brandId: number }) => b.brandId))].sort();
      expect(brands).toEqual(who === 'admin' ? [7, 8] : [7]);
      const other = await server.api.get(`${BRANCH}/GetBranchesForCurrentUser`, { ...as(who), query: { brandId: 8, id: 2 } });
      expect(other.body.result.totalCount).toBe(who === 'admin' ? 1 : 0);
    }
    for (const [brandId, status] of [[7, expected.create7], [8, expected.create8]] as const) {
      const res = await expectCall(server, ['branches'], `create on brand ${brandId}`, status,
        () => server.api.post(`${BRANCH}/Create`, { ...as(who), body: { brandId, name: `By ${who}` } }));
      if (res.status === 200) expect(res.body.result.brandId).toBe(brandId);
    }
    for (const [id, status] of [[1, expected.update1], [2, expected.update2]] as const) {
      const before = await branchRow(id);
      await expectCall(server, ['branches'], `update branch ${id}`, status,
        () => server.api.put(`${BRANCH}/Update`, { ...as(who), body: { id, deliveryText: before.deliveryText } }));
    }
    for (const [branchId, status] of [[1, expected.groups1], [2, expected.groups2]] as const) {
      await expectCall(server, ['customer_groups'], `groups of branch ${branchId}`, status,
        () => server.api.get(`${BRANCH}/GetBrandGroupsByBrachId`, { ...as(who), query: { branchId } }));
    }
  });
});

describe("Branch/GetBrandGroupsByBrachId: the customer groups of the branch's brand", () => {
  it("answers the brand's groups by name, never another brand's", async () => {
    await db().insert(t.customerGroups).values([
      { brandId: 7, name: 'Regulars', discountPercent: '10' },
      { brandId: 7, name: 'Baristas', discountPercent: '0', isPrivatePointsProgram: true },
      { brandId: 8, name: 'Dune VIP', discountPercent: '15' },
    ]);
    const res = await server.api.get(`${BRANCH}/GetBrandGroupsByBrachId`, { ...as('companyadmin'), query: { branchId: 1 } });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject([
      { brandId: 7, name: 'Baristas', discountPercent: 0, isPrivatePointsProgram: true },
      { brandId: 7, name: 'Regulars', discountPercent: 10, isPrivatePointsProgram: false },
    ]);
    expect((await server.api.get(`${BRANCH}/GetBrandGroupsByBrachId`, { ...as('admin'), query: { branchId: 3 } })).body.result.map((g: { name: string }) => g.name)).toEqual(['Dune VIP']);
    expect((await server.api.get(`${BRANCH}/GetBrandGroupsByBrachId`, { ...as('admin'), query: { branchId: 4242 } })).status).toBe(404);
    expect((await server.api.get(`${BRANCH}/GetBrandGroupsByBrachId`, { ...as('admin'), query: { branchId: 'one' } })).status).toBe(400);
  });
});

describe('BranchOnlineOrderingSchedule: Create (legacy spelling), Edit (POST), Get (branchId), Delete (Id, BranchId)', () => {
  let branchId: number;
  beforeAll(async () => {
    const res = await server.api.post(`${BRANCH}/Create`, { ...as('admin'), body: { brandId: 7, name: 'Schedule branch' } });
    branchId = res.body.result.id;
  });

  it('keeps one row per weekday, edits and deletes it, each with its history', async () => {
    const created = await server.api.post(`${SCHEDULE}/CreateBranchOnlineOrderingcShedule`, { ...as('brandmanager'), body: { branchId, dayOfWeek: 5, openTime: '14:00', closeTime: '02:00' } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.result).toMatchObject({ branchId, dayOfWeek: 5, openTime: '14:00', closeTime: '02:00' });
    const id = created.body.result.id as number;
    await server.api.post(`${SCHEDULE}/CreateBranchOnlineOrderingcShedule`, { ...as('brandmanager'), body: { branchId, dayOfWeek: 0, openTime: '07:00', closeTime: '22:00' } });

    const week = await server.api.get(`${SCHEDULE}/GetBranchOnlineOrderingSchedule`, { ...as('brandmanager'), query: { branchId } });
    expect(week.body.result.data.map((d: { dayOfWeek: number }) => d.dayOfWeek)).toEqual([0, 5]);

    const edited = await server.api.post(`${SCHEDULE}/EditBranchOnlineOrderingSchedule`, { ...as('companyadmin'), body: { id, dayOfWeek: 6, closeTime: '23:59' } });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.result).toMatchObject({ id, branchId, dayOfWeek: 6, openTime: '14:00', closeTime: '23:59' });

    // the id must belong to the branch named
    await expectCall(server, ['branch_schedules'], 'delete under another branch', 404,
      () => server.api.delete(`${SCHEDULE}/DeleteBranchOnlineOrderingSchedule`, { ...as('admin'), query: { Id: id, BranchId: 1 } }));
    const deleted = await server.api.delete(`${SCHEDULE}/DeleteBranchOnlineOrderingSchedule`, { ...as('companyadmin'), query: { Id: id, BranchId: branchId } });
    expect(deleted.status).toBe(200);
    expect((await server.api.get(`${SCHEDULE}/GetBranchOnlineOrderingSchedule`, { ...as('admin'), query: { branchId } })).body.result.totalCount).toBe(1);
    // the console's generic delete sends the id alone
    const sunday = (await server.api.get(`${SCHEDULE}/GetBranchOnlineOrderingSchedule`, { ...as('admin'), query: { branchId } })).body.result.data[0];
    expect((await server.api.delete(`${SCHEDULE}/DeleteBranchOnlineOrderingSchedule`, { ...as('brandmanager'), query: { Id: sunday.id } })).status).toBe(200);
    await server.api.post(`${SCHEDULE}/CreateBranchOnlineOrderingcShedule`, { ...as('admin'), body: { branchId, dayOfWeek: 0, openTime: '07:00', closeTime: '22:00' } });
    const history = await server.api.get(HISTORY, { ...as('companyadmin'), query: { resource: 'BranchOnlineOrderingSchedule', id } });
    expect(history.body.result.data.map((h: { action: string }) => h.action)).toEqual(['delete', 'update', 'create']);
  });

  it('refuses bad input with 400, and writes nothing', async () => {
    const monday = await server.api.post(`${SCHEDULE}/CreateBranchOnlineOrderingcShedule`, { ...as('admin'), body: { branchId, dayOfWeek: 1, openTime: '07:00', closeTime: '22:00' } });
    expect(monday.status).toBe(200);
    const good = { branchId, dayOfWeek: 2, openTime: '07:00', closeTime: '22:00' };
    const bad: [string, Record<string, unknown>, string][] = [
      ['weekday 7', { ...good, dayOfWeek: 7 }, 'dayOfWeek'],
      ['weekday -1', { ...good, dayOfWeek: -1 }, 'dayOfWeek'],
      ['weekday as a name', { ...good, dayOfWeek: 'Monday' }, 'dayOfWeek'],
      ['time not HH:MM', { ...good, openTime: '7am' }, 'openTime'],
      ['hour 24', { ...good, closeTime: '24:00' }, 'closeTime'],
      ['no close time', { ...good, closeTime: undefined }, 'closeTime'],
      ['a weekday the branch already has', { ...good, dayOfWeek: 1 }, 'dayOfWeek'],
      ['unknown branch', { ...good, branchId: 4242 }, 'branchId'],
    ];
    for (const [what, body, field] of bad) {
      const res = await expectCall(server, ['branch_schedules'], what, 400, () => server.api.post(`${SCHEDULE}/CreateBranchOnlineOrderingcShedule`, { ...as('admin'), body }));
      expect(JSON.stringify(res.body.error?.validationErrors), what).toContain(field);
    }
    // equal times are not a mistake: they mean all day (domain/schedule.ts)
    const allDay = await server.api.post(`${SCHEDULE}/CreateBranchOnlineOrderingcShedule`, { ...as('admin'), body: { ...good, dayOfWeek: 4, openTime: '09:00', closeTime: '09:00' } });
    expect(allDay.status).toBe(200);
    const sunday = (await db().select().from(t.branchSchedules).where(eq(t.branchSchedules.branchId, branchId))).find((d) => d.dayOfWeek === 0);
    expect(sunday).toBeDefined();
    await expectCall(server, ['branch_schedules'], 'edit onto a taken weekday', 400,
      () => server.api.post(`${SCHEDULE}/EditBranchOnlineOrderingSchedule`, { ...as('admin'), body: { id: sunday!.id, dayOfWeek: 1 } }));
    await expectCall(server, ['branch_schedules'], 'edit to a bad time', 400,
      () => server.api.post(`${SCHEDULE}/EditBranchOnlineOrderingSchedule`, { ...as('admin'), body: { id: sunday!.id, openTime: '7:00' } }));
    await expectCall(server, ['branch_schedules'], 'delete with BranchId as text', 400,
      () => server.api.delete(`${SCHEDULE}/DeleteBranchOnlineOrderingSchedule`, { ...as('admin'), query: { Id: sunday!.id, BranchId: 'this' } }));
    await expectCall(server, ['branch_schedules'], 'delete without Id', 400,
      () => server.api.delete(`${SCHEDULE}/DeleteBranchOnlineOrderingSchedule`, { ...as('admin'), query: { BranchId: branchId } }));
    await expectCall(server, ['branch_schedules'], 'edit an unknown day', 404,
      () => server.api.post(`${SCHEDULE}/EditBranchOnlineOrderingSchedule`, { ...as('admin'), body: { id: 424242, openTime: '07:00' } }));
  });

  it('scope: role × call on branch 1 (company 1, brand 7) and branch 2 (company 2)', async () => {
    const ownDay = (await db().select().from(t.branchSchedules).where(eq(t.branchSchedules.branchId, 1)))[0];
    const otherDay = (await db().select().from(t.branchSchedules).where(eq(t.branchSchedules.branchId, 2)))[0];
    const MATRIX: [Who, { list: number; createOwn: number; createOther: number; editOwn: number; editOther: number; deleteOther: number }][] = [
      ['admin', { list: 200, createOwn: 400, createOther: 400, editOwn: 200, editOther: 200, deleteOther: 200 }],
      ['companyadmin', { list: 200, createOwn: 400, createOther: 400, editOwn: 200, editOther: 404, deleteOther: 404 }],
      ['brandmanager', { list: 200, createOwn: 400, createOther: 400, editOwn: 200, editOther: 404, deleteOther: 404 }],
      ['branchuser', { list: 403, createOwn: 403, createOther: 403, editOwn: 403, editOther: 403, deleteOther: 403 }],
      ['customer', { list: 403, createOwn: 403, createOther: 403, editOwn: 403, editOther: 403, deleteOther: 403 }],
      ['anonymous', { list: 401, createOwn: 401, createOther: 401, editOwn: 401, editOther: 401, deleteOther: 401 }],
    ];
    const tables = ['branch_schedules'];
    for (const [who, e] of MATRIX) {
      const list = await expectCall(server, tables, `${who} list`, e.list, () => server.api.get(`${SCHEDULE}/GetBranchOnlineOrderingSchedule`, { ...as(who), query: { MaxResultCount: 100 } }));
      if (list.status === 200) {
        const seen = [...new Set(list.body.result.data.map((d: { branchId: number }) => d.branchId))];
        expect(seen.includes(2), who).toBe(who === 'admin');
        expect(seen.includes(1), who).toBe(true);
      }
      // branches 1 and 2 have every weekday (seed): a create the caller may make is still a duplicate (400),
      // one outside the scope is refused on the branch (400 naming branchId) before that
      for (const [id, status] of [[1, e.createOwn], [2, e.createOther]] as const) {
        const res = await expectCall(server, tables, `${who} create on branch ${id}`, status,
          () => server.api.post(`${SCHEDULE}/CreateBranchOnlineOrderingcShedule`, { ...as(who), body: { branchId: id, dayOfWeek: 3, openTime: '00:00', closeTime: '23:59' } }));
        if (status === 400) {
          const members = res.body.error!.validationErrors!.flatMap((v: { members: string[] }) => v.members);
          const ownsIt = who === 'admin' || id === 1;
          expect(members, `${who} create on branch ${id}`).toEqual([ownsIt ? 'dayOfWeek' : 'branchId']);
        }
      }
      for (const [day, status] of [[ownDay, e.editOwn], [otherDay, e.editOther]] as const) {
        await expectCall(server, tables, `${who} edit day ${day.id}`, status,
          () => server.api.post(`${SCHEDULE}/EditBranchOnlineOrderingSchedule`, { ...as(who), body: { id: day.id, openTime: day.openTime } }));
      }
      if (e.deleteOther !== 200) {
        await expectCall(server, tables, `${who} delete branch 2's day`, e.deleteOther,
          () => server.api.delete(`${SCHEDULE}/DeleteBranchOnlineOrderingSchedule`, { ...as(who), query: { Id: otherDay.id, BranchId: 2 } }));
      }
    }
    // admin may delete any branch's day (then it is put back)
    const res = await server.api.delete(`${SCHEDULE}/DeleteBranchOnlineOrderingSchedule`, { ...as('admin'), query: { Id: otherDay.id, BranchId: 2 } });
    expect(res.status).toBe(200);
    await db().insert(t.branchSchedules).values({ branchId: 2, dayOfWeek: otherDay.dayOfWeek, openTime: otherDay.openTime, closeTime: otherDay.closeTime });
  });
});

describe('the shop follows the schedule', () => {
  it('a branch closed today by its schedule refuses orders with a clear message; opened, it takes them', async () => {
    const branch = (await server.api.post(`${BRANCH}/Create`, { ...as('companyadmin'), body: { brandId: 7, name: 'Closed today', openTime: '00:00', closeTime: '23:59' } })).body.result;
    const guest = await server.api.guestToken();
    const order = () => server.api.post('/api/services/app/Store/SaveNewOrderVS1', {
      token: guest, headers: { 'idempotency-key': randomUUID() },
      body: { brandId: 7, paymentSystem: 2, guestCustomerName: 'Schedule Guest', guestPhoneNumber: '+96555512345', deliveryOptions: { branchId: branch.id, isPickup: true }, products: [{ productId: 1, quantity: 1 }] },
    });
    // Without a schedule the branch takes orders during its open/close times (here all day).
    expect((await order()).status).toBe(200);

    const day = await server.api.post(`${SCHEDULE}/CreateBranchOnlineOrderingcShedule`, { ...as('companyadmin'), body: { branchId: branch.id, dayOfWeek: notToday(), openTime: '00:00', closeTime: '23:59' } });
    expect(day.status).toBe(200);
    const before = await snapshot(server, ['orders', 'order_items', 'payments']);
    const refused = await order();
    expect(refused.status).toBe(400);
    expect(refused.body.error?.message).toBe(ORDER_TEXT.closed);
    expect(await snapshot(server, ['orders', 'order_items', 'payments'])).toEqual(before);

    await server.api.post(`${SCHEDULE}/EditBranchOnlineOrderingSchedule`, { ...as('companyadmin'), body: { id: day.body.result.id, dayOfWeek: today() } });
    const taken = await order();
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
    expect(taken.body.result.isSuccessed).toBe(true);
  });
});
