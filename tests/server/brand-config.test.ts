import { beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { callerTokens, expectCall, snapshot, type Who } from '../support/adminMatrix';
import { useServer } from '../support/harness';
import * as t from '../../server/db/schema';
import { ORDER_TEXT } from '../../server/services/store/planOrder';

/**
 * Brand settings (SPEC.md 7 Configuration): BrandDeliveryFee, BrandPayment, BrandAddressFields,
 * and the shop following them: fees and taxes in a saved order's total, a method switched off
 * gone from checkout and refused by the server.
 */
const API = '/api/services/app';
let token: Record<Who, string | undefined>;
const as = (who: Who) => ({ token: token[who] });
const db = () => server.database.db;

/** Two areas of the Capital governorate (seed: both brands deliver everywhere). */
let area: number;
let otherArea: number;
let governorate: number;

const server = useServer();
beforeAll(async () => {
  token = await callerTokens(server);
  const areas = await db().select().from(t.deliveryAreas).orderBy(t.deliveryAreas.id);
  governorate = areas.find((a) => a.parentId === null)!.id;
  [area, otherArea] = areas.filter((a) => a.parentId === governorate).map((a) => a.id);
});

const guestOrder = async (body: Record<string, unknown>) => server.api.post(`${API}/Store/SaveNewOrderVS1`, {
  token: await server.api.guestToken(), headers: { 'idempotency-key': randomUUID() },
  body: {
    brandId: 7, paymentSystem: 2, guestCustomerName: 'Config Guest', guestPhoneNumber: '+96555512345',
    deliveryOptions: { branchId: 1, isPickup: true }, products: [{ productId: 1, quantity: 2 }], ...body,
  },
});
const deliveryTo = (areaId: number) => ({
  deliveryOptions: { branchId: 1, isHomeDeliver: true, isDeliveryNeed: true },
  customerDeliveryAddress: { regionId: governorate, areaId, block: '4', street: '12', house_no: '7' },
});

describe('BrandDeliveryFee: Create, Update, GetBrandDeliveryFeeListByBrandId, Delete (id)', () => {
  it('replaces an area fee, changes and deletes it, with history', async () => {
    const [seeded] = await db().select().from(t.brandDeliveryFees).where(and(eq(t.brandDeliveryFees.brandId, 7), eq(t.brandDeliveryFees.areaId, otherArea)));
    expect((await server.api.delete(`${API}/BrandDeliveryFee/Delete`, { ...as('companyadmin'), query: { id: seeded.id } })).body.result).toBe(true);
    // without a fee row the brand does not deliver there
    expect((await server.api.get(`${API}/BrandDeliveryFee/GetDeliveryFeeForOrderingCustomer`, { query: { BrandId: 7, AreaId: otherArea } })).status).toBe(400);

    const created = await server.api.post(`${API}/BrandDeliveryFee/Create`, { ...as('companyadmin'), body: { brandId: 7, areaId: otherArea, amount: 0.75 } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.result).toMatchObject({ brandId: 7, areaId: otherArea, amount: 0.75, freeAboveAmount: null });
    const id = created.body.result.id;
    const list = await server.api.get(`${API}/BrandDeliveryFee/GetBrandDeliveryFeeListByBrandId`, { ...as('companyadmin'), query: { brandId: 7, areaId: otherArea } });
    expect(list.body.result).toMatchObject({ totalCount: 1, data: [{ id, amount: 0.75 }] });

    const updated = await server.api.put(`${API}/BrandDeliveryFee/Update`, { ...as('companyadmin'), body: { id, amount: 1.125, freeAboveAmount: 20 } });
    expect(updated.body.result).toMatchObject({ id, amount: 1.125, freeAboveAmount: 20 });
    const quote = await server.api.get(`${API}/BrandDeliveryFee/GetDeliveryFeeForOrderingCustomer`, { query: { BrandId: 7, AreaId: otherArea, Amount: 5 } });
    expect(quote.body.result).toMatchObject({ deliveryFee: 1.125, freeAboveAmount: 20 });
    // null clears the free-delivery amount
    expect((await server.api.put(`${API}/BrandDeliveryFee/Update`, { ...as('companyadmin'), body: { id, freeAboveAmount: null } })).body.result.freeAboveAmount).toBeNull();

    const history = await server.api.get(`${API}/AuditLog/GetEntityHistory`, { ...as('companyadmin'), query: { resource: 'BrandDeliveryFee', id } });
    expect(history.body.result.data.map((h: { action: string }) => h.action)).toEqual(['update', 'update', 'create']);
  });

  it('refuses bad input with 400 naming the field, and writes nothing', async () => {
    const [fee7] = await db().select().from(t.brandDeliveryFees).where(and(eq(t.brandDeliveryFees.brandId, 7), eq(t.brandDeliveryFees.areaId, area)));
    const good = { brandId: 7, areaId: area, amount: 1 };
    const bad: [string, 'post' | 'put', Record<string, unknown>, string][] = [
      ['negative fee', 'post', { ...good, amount: -0.5 }, 'amount'],
      ['more than 3 decimals', 'post', { ...good, amount: 0.1234 }, 'amount'],
      ['fee as text', 'post', { ...good, amount: 'free' }, 'amount'],
      ['negative free-above', 'post', { ...good, freeAboveAmount: -1 }, 'freeAboveAmount'],
      ['unknown area', 'post', { ...good, areaId: 4242 }, 'areaId'],
      ['a governorate', 'post', { ...good, areaId: governorate }, 'areaId'],
      ['a second fee for the same area', 'post', good, 'areaId'],
      ['no area', 'post', { brandId: 7, amount: 1 }, 'areaId'],
      ['unknown brand', 'post', { ...good, brandId: 4242 }, 'brandId'],
      ['update onto an area that has a fee', 'put', { id: fee7.id, areaId: otherArea }, 'areaId'],
      ['update to a negative fee', 'put', { id: fee7.id, amount: -1 }, 'amount'],
      ['update onto an unknown area', 'put', { id: fee7.id, areaId: 4242 }, 'areaId'],
    ];
    for (const [what, verb, body, field] of bad) {
      const res = await expectCall(server, ['brand_delivery_fees'], what, 400,
        () => server.api[verb](`${API}/BrandDeliveryFee/${verb === 'post' ? 'Create' : 'Update'}`, { ...as('admin'), body }));
      expect(JSON.stringify(res.body.error?.validationErrors), what).toContain(field);
    }
    await expectCall(server, ['brand_delivery_fees'], 'delete unknown', 404, () => server.api.delete(`${API}/BrandDeliveryFee/Delete`, { ...as('admin'), query: { id: 424242 } }));
    await expectCall(server, ['brand_delivery_fees'], 'delete without id', 400, () => server.api.delete(`${API}/BrandDeliveryFee/Delete`, as('admin')));
  });
});

describe('BrandPayment: Create, Update, GetAllByBrandId, Delete (Id)', () => {
  it('switches a method off and on, removes and adds it back', async () => {
    const list = await server.api.get(`${API}/BrandPayment/GetAllByBrandId`, { ...as('companyadmin'), query: { brandId: 7 } });
    expect(list.body.result.data.map((p: { paymentSystemId: number }) => p.paymentSystemId)).toEqual([1, 2, 3]);
    const knet = list.body.result.data[0];
    expect((await server.api.put(`${API}/BrandPayment/Update`, { ...as('companyadmin'), body: { id: knet.id, isActive: false } })).body.result).toMatchObject({ id: knet.id, isActive: false });
    expect((await server.api.put(`${API}/BrandPayment/Update`, { ...as('companyadmin'), body: { id: knet.id, isActive: true } })).body.result.isActive).toBe(true);

    expect((await server.api.delete(`${API}/BrandPayment/Delete`, { ...as('companyadmin'), query: { Id: knet.id } })).body.result).toBe(true);
    const again = await server.api.post(`${API}/BrandPayment/Create`, { ...as('companyadmin'), body: { brandId: 7, paymentSystemId: 1 } });
    expect(again.body.result).toMatchObject({ brandId: 7, paymentSystemId: 1, isActive: true });

    const systems = await server.api.get(`${API}/BrandPayment/GetPaymentSystemsDictionary`, as('companyadmin'));
    expect(systems.body.result.map((s: { id: number; displayName: string }) => [s.id, s.displayName])).toEqual([[1, 'KNET'], [2, 'Cash at branch'], [3, 'VISA/MASTER'],
      // the gateways' methods (migration 0041_payment_inbox), offered by the shop only while their gateway is configured
      [4, 'KNET (MyFatoorah)'], [5, 'VISA/MASTER'], [6, 'KNET (Tap)'], [7, 'VISA/MASTER'],
      // the brand wallet (migration 0048_shop_close): Payment History filters by it; the shop offers it by balance, not as a brand's method
      [8, 'Wallet']]);
    // the method names are read wherever payments are (Payment History's filter), never by a branch user
    expect((await server.api.get(`${API}/BrandPayment/GetPaymentSystemsDictionary`, as('brandmanager'))).status).toBe(200);
    expect((await server.api.get(`${API}/BrandPayment/GetPaymentSystemsDictionary`, as('branchuser'))).status).toBe(403);
  });

  it('refuses bad input with 400 naming the field, and writes nothing', async () => {
    const [cash7] = await db().select().from(t.brandPayments).where(and(eq(t.brandPayments.brandId, 7), eq(t.brandPayments.paymentSystemId, 2)));
    const bad: [string, 'post' | 'put', Record<string, unknown>, string][] = [
      ['unknown payment system', 'post', { brandId: 7, paymentSystemId: 99 }, 'paymentSystemId'],
      ['a method the brand already has', 'post', { brandId: 7, paymentSystemId: 2 }, 'paymentSystemId'],
      ['no payment system', 'post', { brandId: 7 }, 'paymentSystemId'],
      ['switch as text', 'post', { brandId: 7, paymentSystemId: 1, isActive: 'sometimes' }, 'isActive'],
      ['update with a switch as a number', 'put', { id: cash7.id, isActive: 2 }, 'isActive'],
    ];
    for (const [what, verb, body, field] of bad) {
      const res = await expectCall(server, ['brand_payments'], what, 400,
        () => server.api[verb](`${API}/BrandPayment/${verb === 'post' ? 'Create' : 'Update'}`, { ...as('admin'), body }));
      expect(JSON.stringify(res.body.error?.validationErrors), what).toContain(field);
    }
    await expectCall(server, ['brand_payments'], 'delete unknown', 404, () => server.api.delete(`${API}/BrandPayment/Delete`, { ...as('admin'), query: { Id: 424242 } }));
  });
});

describe('BrandAddressFields: Create, Update, GetBrandAddressFieldsByBrandId', () => {
  it('sets how a brand asks for an optional address field', async () => {
    const created = await server.api.post(`${API}/BrandAddressFields/Create`, { ...as('companyadmin'), body: { brandId: 7, fieldName: 'floor', label: 'Floor number', isRequired: true, sortOrder: 2 } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.result).toMatchObject({ brandId: 7, fieldName: 'floor', label: 'Floor number', isRequired: true, isVisible: true, sortOrder: 2 });
    await server.api.post(`${API}/BrandAddressFields/Create`, { ...as('companyadmin'), body: { brandId: 7, fieldName: 'jadda', label: 'Jadda', sortOrder: 1 } });
    const list = await server.api.get(`${API}/BrandAddressFields/GetBrandAddressFieldsByBrandId`, { ...as('companyadmin'), query: { brandId: 7 } });
    expect(list.body.result.data.map((f: { fieldName: string }) => f.fieldName)).toEqual(['jadda', 'floor']);

    // its name never changes; hiding it first needs it not required
    const id = created.body.result.id;
    const hidden = await server.api.put(`${API}/BrandAddressFields/Update`, { ...as('companyadmin'), body: { id, fieldName: 'avenue', isRequired: false, isVisible: false } });
    expect(hidden.body.result).toMatchObject({ id, fieldName: 'floor', isRequired: false, isVisible: false });
  });

  it('refuses bad input with 400 naming the field, and writes nothing', async () => {
    const [floor] = await db().select().from(t.brandAddressFields).where(and(eq(t.brandAddressFields.brandId, 7), eq(t.brandAddressFields.fieldName, 'floor')));
    const bad: [string, 'post' | 'put', Record<string, unknown>, string][] = [
      ['a field the form does not have', 'post', { brandId: 7, fieldName: 'password', label: 'X' }, 'fieldName'],
      ['a field that is always required', 'post', { brandId: 7, fieldName: 'block', label: 'Block' }, 'fieldName'],
      ['blank label', 'post', { brandId: 7, fieldName: 'avenue', label: ' ' }, 'label'],
      ['required and hidden', 'post', { brandId: 7, fieldName: 'avenue', label: 'Avenue', isRequired: true, isVisible: false }, 'isRequired'],
      ['a field the brand already has', 'post', { brandId: 7, fieldName: 'jadda', label: 'Jadda again' }, 'fieldName'],
      ['negative order', 'post', { brandId: 7, fieldName: 'avenue', label: 'Avenue', sortOrder: -1 }, 'sortOrder'],
      ['update to required while hidden', 'put', { id: floor.id, isRequired: true }, 'isRequired'],
    ];
    for (const [what, verb, body, field] of bad) {
      const res = await expectCall(server, ['brand_address_fields'], what, 400,
        () => server.api[verb](`${API}/BrandAddressFields/${verb === 'post' ? 'Create' : 'Update'}`, { ...as('admin'), body }));
      expect(JSON.stringify(res.body.error?.validationErrors), what).toContain(field);
    }
  });
});

describe('scope: role × call for every brand setting (company 1 owns brand 7; brand 8 belongs to company 2)', () => {
  type Outcomes = { list: number; createOwn: number; createOther: number; updateOwn: number; updateOther: number; deleteOwn: number; deleteOther: number };
  const refused = (status: number): Outcomes => ({ list: status, createOwn: status, createOther: status, updateOwn: status, updateOther: status, deleteOwn: status, deleteOther: status });
  const MATRIX: [Who, Outcomes][] = [
    ['admin', { list: 200, createOwn: 200, createOther: 200, updateOwn: 200, updateOther: 200, deleteOwn: 200, deleteOther: 200 }],
    ['companyadmin', { list: 200, createOwn: 200, createOther: 400, updateOwn: 200, updateOther: 404, deleteOwn: 200, deleteOther: 404 }],
    // brand settings are the brand screens' (ADMIN, COMPANY_ADMIN: SPEC.md 2.2)
    ['brandmanager', refused(403)],
    ['branchuser', refused(403)],
    ['customer', refused(403)],
    ['anonymous', refused(401)],
  ];

  /** Each setting: its table, calls, a row each brand has, a free slot to create into, and a throwaway row to delete. */
  interface Setting {
    service: string; table: string; list: string; deleteParam?: string;
    create: (brandId: number) => Record<string, unknown>;
    update: (row: Record<string, unknown>) => Record<string, unknown>;
    fixture: (brandId: number) => Promise<Record<string, unknown>>;
    throwaway: (brandId: number) => Promise<number>;
    remove: (id: number) => Promise<void>;
  }
  let spareArea: number;
  const SETTINGS: Setting[] = [
    {
      service: 'BrandDeliveryFee', table: 'brand_delivery_fees', list: 'GetBrandDeliveryFeeListByBrandId', deleteParam: 'id',
      create: (brandId) => ({ brandId, areaId: spareArea, amount: 0.5 }),
      update: (row) => ({ id: row.id, amount: Number(row.amount) }),
      fixture: async (brandId) => (await db().select().from(t.brandDeliveryFees).where(and(eq(t.brandDeliveryFees.brandId, brandId), eq(t.brandDeliveryFees.areaId, area))))[0],
      throwaway: async (brandId) => (await db().insert(t.brandDeliveryFees).values({ brandId, areaId: spareArea, amount: '0.100' }).returning())[0].id,
      remove: async (id) => { await db().delete(t.brandDeliveryFees).where(eq(t.brandDeliveryFees.id, id)); },
    },
    {
      service: 'BrandPayment', table: 'brand_payments', list: 'GetAllByBrandId', deleteParam: 'Id',
      create: (brandId) => ({ brandId, paymentSystemId: 3 }),
      update: (row) => ({ id: row.id, isActive: row.isActive }),
      fixture: async (brandId) => (await db().select().from(t.brandPayments).where(and(eq(t.brandPayments.brandId, brandId), eq(t.brandPayments.paymentSystemId, 2))))[0],
      throwaway: async (brandId) => (await db().insert(t.brandPayments).values({ brandId, paymentSystemId: 3 }).returning())[0].id,
      remove: async (id) => { await db().delete(t.brandPayments).where(eq(t.brandPayments.id, id)); },
    },
    {
      service: 'BrandAddressFields', table: 'brand_address_fields', list: 'GetBrandAddressFieldsByBrandId',
      create: (brandId) => ({ brandId, fieldName: 'apartment', label: 'Flat' }),
      update: (row) => ({ id: row.id, label: row.label }),
      fixture: async (brandId) => (await db().select().from(t.brandAddressFields).where(and(eq(t.brandAddressFields.brandId, brandId), eq(t.brandAddressFields.fieldName, 'buildingNumber'))))[0],
      throwaway: async () => 0,
      remove: async (id) => { await db().delete(t.brandAddressFields).where(eq(t.brandAddressFields.id, id)); },
    },
  ];

  beforeAll(async () => {
    // a free slot for creates: no fee for spareArea, no card payment, no apartment field; a fixture row for each brand
    const areas = await db().select().from(t.deliveryAreas).orderBy(t.deliveryAreas.id);
    spareArea = areas.filter((a) => a.parentId !== null).at(-1)!.id;
    await db().delete(t.brandDeliveryFees).where(eq(t.brandDeliveryFees.areaId, spareArea));
    await db().delete(t.brandPayments).where(eq(t.brandPayments.paymentSystemId, 3));
    await db().insert(t.brandAddressFields).values([7, 8].map((brandId) => ({ brandId, fieldName: 'buildingNumber', label: 'Building' })));
  });

  for (const setting of SETTINGS) {
    it.each(MATRIX)(`${setting.service}: %s`, async (who, e) => {
      const url = (method: string) => `${API}/${setting.service}/${method}`;
      const tables = [setting.table];
      const list = await expectCall(server, tables, 'list', e.list, () => server.api.get(url(setting.list), { ...as(who), query: { MaxResultCount: 100 } }));
      if (list.status === 200) {
        const brands = [...new Set(list.body.result.data.map((r: { brandId: number }) => r.brandId))].sort();
        expect(brands).toEqual(who === 'admin' ? [7, 8] : [7]);
        expect((await server.api.get(url(setting.list), { ...as(who), query: { brandId: 8 } })).body.result.totalCount > 0).toBe(who === 'admin');
      }
      for (const [brandId, status] of [[7, e.createOwn], [8, e.createOther]] as const) {
        const res = await expectCall(server, tables, `create on brand ${brandId}`, status, () => server.api.post(url('Create'), { ...as(who), body: setting.create(brandId) }));
        if (res.status === 200) await setting.remove(res.body.result.id);
        if (status === 400) expect(res.body.error?.validationErrors?.[0].members).toEqual(['brandId']);
      }
      for (const [brandId, status] of [[7, e.updateOwn], [8, e.updateOther]] as const) {
        const row = await setting.fixture(brandId);
        await expectCall(server, tables, `update brand ${brandId}'s row`, status, () => server.api.put(url('Update'), { ...as(who), body: setting.update(row) }));
      }
      if (!setting.deleteParam) {
        expect((await server.api.delete(url('Delete'), { ...as('admin'), query: { Id: 1 } })).status).toBe(404); // no such call
        return;
      }
      for (const [brandId, status] of [[7, e.deleteOwn], [8, e.deleteOther]] as const) {
        const id = status === 200 ? await setting.throwaway(brandId) : Number((await setting.fixture(brandId)).id);
        await expectCall(server, tables, `delete brand ${brandId}'s row`, status, () => server.api.delete(url('Delete'), { ...as(who), query: { [setting.deleteParam!]: id } }));
      }
    });
  }
});

describe('the shop follows the brand settings', () => {
  it("a new tax and a new area fee are in a guest's delivery order total, computed by the server", async () => {
    const [product] = await db().select().from(t.products).where(eq(t.products.id, 1));
    const subtotal = Number(product.price) * 2;
    // the area's seeded fee is replaced by one the company admin sets, without free delivery
    const [seeded] = await db().select().from(t.brandDeliveryFees).where(and(eq(t.brandDeliveryFees.brandId, 7), eq(t.brandDeliveryFees.areaId, area)));
    await server.api.delete(`${API}/BrandDeliveryFee/Delete`, { ...as('companyadmin'), query: { id: seeded.id } });
    const fee = await server.api.post(`${API}/BrandDeliveryFee/Create`, { ...as('companyadmin'), body: { brandId: 7, areaId: area, amount: 1.25 } });
    expect(fee.status).toBe(200);
    const tax = await server.api.post(`${API}/Tax/Create`, { ...as('companyadmin'), body: { brandId: 7, name: 'Municipality', percent: 10 } });
    expect(tax.status).toBe(200);
    try {
      const res = await guestOrder({ ...deliveryTo(area), total: 0.001 });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const [order] = await db().select().from(t.orders).where(eq(t.orders.id, res.body.result.orderId));
      const expectedTax = Math.round(subtotal * 100) / 1000; // 10 %, in fils
      expect(order).toMatchObject({ deliverySystem: 'delivery', subtotal: subtotal.toFixed(3), tax: expectedTax.toFixed(3), deliveryFee: '1.250' });
      expect(order.total).toBe((subtotal + expectedTax + 1.25).toFixed(3));
      expect(res.body.result.total).toBeCloseTo(subtotal + expectedTax + 1.25, 3);
    } finally {
      await server.api.delete(`${API}/Tax/Delete`, { ...as('companyadmin'), query: { TaxId: tax.body.result.id } });
    }
  });

  it('a payment method switched off leaves checkout and is refused by the server; switched on, it is back', async () => {
    const methods = async () => (await server.api.get(`${API}/Store/GetStorePaymentSystemTypesForTopUpV2ForMangoes`, { query: { brandId: 7 } })).body.result
      .map((m: { paymentSystemId: number }) => m.paymentSystemId);
    expect(await methods()).toContain(2);
    const [cash] = await db().select().from(t.brandPayments).where(and(eq(t.brandPayments.brandId, 7), eq(t.brandPayments.paymentSystemId, 2)));
    expect((await server.api.put(`${API}/BrandPayment/Update`, { ...as('companyadmin'), body: { id: cash.id, isActive: false } })).status).toBe(200);
    try {
      expect(await methods()).not.toContain(2);
      const tables = ['orders', 'order_items', 'payments'];
      const before = await snapshot(server, tables);
      const res = await guestOrder({ paymentSystem: 2 });
      expect(res.status).toBe(400);
      expect(res.body.error?.message).toBe(ORDER_TEXT.paymentUnavailable);
      expect(await snapshot(server, tables)).toEqual(before);
    } finally {
      await server.api.put(`${API}/BrandPayment/Update`, { ...as('companyadmin'), body: { id: cash.id, isActive: true } });
    }
    expect(await methods()).toContain(2);
    expect((await guestOrder({ paymentSystem: 2 })).status).toBe(200);
  });

  it('a fee deleted by the console stops delivery to that area', async () => {
    const [fee] = await db().select().from(t.brandDeliveryFees).where(and(eq(t.brandDeliveryFees.brandId, 7), eq(t.brandDeliveryFees.areaId, area)));
    await server.api.delete(`${API}/BrandDeliveryFee/Delete`, { ...as('companyadmin'), query: { id: fee.id } });
    const tree = await server.api.get(`${API}/Country/GetDeliveryAreasTreeByBrandIdForShop`, { query: { brandId: 7 } });
    expect(tree.body.result.flatMap((r: { children: { id: number }[] }) => r.children.map((c) => c.id))).not.toContain(area);
    const res = await guestOrder(deliveryTo(area));
    expect(res.status).toBe(400);
    expect(res.body.error?.message).toBe('Sorry, we do not deliver to this area.');
  });
});

describe('Country/GetDeliveryAreasTree: every governorate with every area, for staff pickers', () => {
  it('lists areas the brand does not deliver to as well, and is for staff only', async () => {
    const res = await server.api.get(`${API}/Country/GetDeliveryAreasTree`, as('companyadmin'));
    expect(res.status).toBe(200);
    const areaIds = res.body.result.flatMap((r: { children: { id: number }[] }) => r.children.map((c) => c.id));
    expect(areaIds).toContain(area);
    expect(res.body.result[0]).toMatchObject({ id: governorate, children: expect.arrayContaining([expect.objectContaining({ id: area, parentId: governorate })]) });
    expect((await server.api.get(`${API}/Country/GetDeliveryAreasTree`, as('customer'))).status).toBe(403);
    expect((await server.api.get(`${API}/Country/GetDeliveryAreasTree`)).status).toBe(401);
  });
});
