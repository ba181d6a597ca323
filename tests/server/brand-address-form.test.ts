import { beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { callerTokens, snapshot, type Who } from '../support/adminMatrix';
import { useServer } from '../support/harness';
import * as t from '../../server/db/schema';

/**
 * The brand's address fields shape the shop's address form (issue 23; SPEC.md 7 BrandAddressFields):
 * the shop reads the brand's form (BrandAddressFields/GetAddressFormForShop, public), and the server
 * holds a saved address to the same brand's rule (domain/addressFields.ts missingAddressFields): a
 * required field left empty is a 400 in the ABP envelope naming the field, nothing written; given,
 * the address is saved. A brand with no rows keeps today's form.
 */
const API = '/api/services/app';
let token: Record<Who, string | undefined>;
let customerId: number;
let region: number;
let area: number;
const server = useServer();
const db = () => server.database.db;

beforeAll(async () => {
  token = await callerTokens(server);
  customerId = (await db().select().from(t.users).where(eq(t.users.userName, 'customer')))[0].id;
  const areas = await db().select().from(t.deliveryAreas).orderBy(t.deliveryAreas.id);
  region = areas.find((a) => a.parentId === null)!.id;
  area = areas.find((a) => a.parentId === region)!.id;
});

const form = async (brandId: number) =>
  (await server.api.get(`${API}/BrandAddressFields/GetAddressFormForShop`, { query: { brandId } })).body.result as { fieldName: string; label: string; isRequired: boolean }[];
const address = (extra: Record<string, unknown> = {}) => ({ userId: customerId, regionId: region, areaId: area, block: '4', street: '12', house_no: '7', ...extra });
const add = (body: Record<string, unknown>) => server.api.post(`${API}/CustomerDeliveryAddress/AddCustomerDeliveryAddress`, { token: token.customer, body });

describe("a brand's address fields shape the shop's address form and the saved address", () => {
  it('a brand with no rows keeps today\'s form: floor, jadda, additional info, none required', async () => {
    expect(await form(8)).toEqual([
      { fieldName: 'floor', label: 'Floor', isRequired: false },
      { fieldName: 'jadda', label: 'Jadda', isRequired: false },
      { fieldName: 'instructions', label: 'Additional info', isRequired: false },
    ]);
    expect((await add(address({ brandId: 8 }))).status).toBe(200);
  });

  it("refuses a brand's required field left empty (400, nothing written) and saves it when given", async () => {
    const create = (body: Record<string, unknown>) => server.api.post(`${API}/BrandAddressFields/Create`, { token: token.companyadmin, body: { brandId: 7, ...body } });
    expect((await create({ fieldName: 'buildingNumber', label: 'Building / tower', isRequired: true, sortOrder: 0 })).status).toBe(200);
    expect((await create({ fieldName: 'jadda', label: 'Jadda', isVisible: false, sortOrder: 5 })).status).toBe(200);
    expect(await form(7)).toEqual([
      { fieldName: 'buildingNumber', label: 'Building / tower', isRequired: true },
      { fieldName: 'floor', label: 'Floor', isRequired: false },
      { fieldName: 'instructions', label: 'Additional info', isRequired: false },
    ]);

    const before = await snapshot(server, ['customer_addresses']);
    for (const missing of [address({ brandId: 7 }), address({ brandId: 7, buildingNumber: '   ' })]) {
      const refused = await add(missing);
      expect(refused.status).toBe(400);
      expect(refused.body.success).toBe(false);
      expect(refused.body.error?.message).toBe('Validation Error');
      expect(refused.body.error?.validationErrors).toEqual([{ message: 'Building / tower is required', members: ['buildingNumber'] }]);
    }
    expect(await snapshot(server, ['customer_addresses'])).toEqual(before);

    const saved = await add(address({ brandId: 7, buildingNumber: 'Tower 2' }));
    expect(saved.status).toBe(200);
    expect(saved.body.result.buildingNumber).toBe('Tower 2');

    // Updating keeps the rule: emptying the brand's required field is refused, the row unchanged.
    const update = (extra: Record<string, unknown>) => server.api.put(`${API}/CustomerDeliveryAddress/UpdateCustomerDeliveryAddress`, { token: token.customer, body: address({ id: saved.body.result.id, brandId: 7, ...extra }) });
    const refused = await update({ buildingNumber: null, floor: '3' });
    expect(refused.status).toBe(400);
    expect(refused.body.error?.validationErrors).toEqual([{ message: 'Building / tower is required', members: ['buildingNumber'] }]);
    expect((await server.api.get(`${API}/CustomerDeliveryAddress/GetCustomerDeliveryAddressListByUserId`, { token: token.customer, query: { userId: customerId } }))
      .body.result.find((a: { id: number }) => a.id === saved.body.result.id)).toMatchObject({ buildingNumber: 'Tower 2', floor: null });

    // The other brand's form is its own.
    const forDune = await add(address({ brandId: 8 }));
    expect(forDune.status).toBe(200);

    // A saved address chosen at checkout is held to the order's brand as its fields are now: 400 naming them, no order.
    const orders = await snapshot(server, ['orders']);
    for (const call of ['SaveNewOrderVS1', 'QuoteOrder']) {
      const chosen = await server.api.post(`${API}/Store/${call}`, {
        token: token.customer, headers: { 'idempotency-key': randomUUID() },
        body: { brandId: 7, paymentSystem: 2, deliveryOptions: { branchId: 1, isHomeDeliver: true, isDeliveryNeed: true, deliveryAddressId: forDune.body.result.id }, products: [{ productId: 1, quantity: 1 }] },
      });
      expect(chosen.status, call).toBe(400);
      expect(chosen.body.error?.message).toBe('This address lacks what the brand asks for delivery. Please complete it in your addresses.');
      expect(chosen.body.error?.validationErrors).toEqual([{ message: 'Building / tower is required', members: ['buildingNumber'] }]);
    }
    expect(await snapshot(server, ['orders'])).toEqual(orders);

    // The guest's address typed at checkout is held to the order's brand.
    const guest = await server.api.post(`${API}/Store/SaveNewOrderVS1`, {
      token: await server.api.guestToken(), headers: { 'idempotency-key': randomUUID() },
      body: {
        brandId: 7, paymentSystem: 2, guestCustomerName: 'Form Guest', guestPhoneNumber: '+96555512346',
        deliveryOptions: { branchId: 1, isHomeDeliver: true, isDeliveryNeed: true }, products: [{ productId: 1, quantity: 1 }],
        customerDeliveryAddress: { regionId: region, areaId: area, block: '4', street: '12', house_no: '7' },
      },
    });
    expect(guest.status).toBe(400);
    expect(guest.body.error?.validationErrors).toEqual([{ message: 'Building / tower is required', members: ['buildingNumber'] }]);
  });

  it('the shop\'s form call is public and refuses a bad brand id with 400', async () => {
    const bad = await server.api.get(`${API}/BrandAddressFields/GetAddressFormForShop`, { query: { brandId: 'x' } });
    expect(bad.status).toBe(400);
    expect(bad.body.success).toBe(false);
  });
});
