import { beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { countRows } from '../support/server';
import { useServer } from '../support/harness';
import * as t from '../../server/db/schema';
import { hashPassword } from '../../server/auth/password';
import { TEXT } from '../../domain/constants';

const APP = '/api/services/app';
const REGISTER = `${APP}/Customer/RegistrateNewUnregisteredUser`;
const VALIDATE = `${APP}/Customer/ValidateNewUnregisteredUser`;
const COMPLETE = `${APP}/Customer/RegistrateUserFromMobileAppByPhone`;
const DETAILS = `${APP}/Customer/GetCurrentCustomerDetails`;
const UPDATE = `${APP}/Customer/UpdateCustomerDetails`;
const ADDR = `${APP}/CustomerDeliveryAddress`;

let customer: string;
let guest: string;
let other: string;
let otherId: number;
const db = () => server.database.db;

const server = useServer();
beforeAll(async () => {
  customer = await server.api.login('customer');
  guest = await server.api.guestToken();
  [{ id: otherId }] = await db().insert(t.users).values({ userName: 'other', fullName: 'Omar Other', role: 'CUSTOMER', phoneNumber: '+96550000002', passwordHash: await hashPassword('123qwe') }).returning();
  other = await server.api.login('other');
});

const latestCode = async (phone: string) => {
  const [row] = await db().select().from(t.smsOutbox)
    .where(and(eq(t.smsOutbox.phoneNumber, phone), eq(t.smsOutbox.purpose, 'register'))).orderBy(desc(t.smsOutbox.id)).limit(1);
  return row;
};

describe('registration by phone (three steps)', () => {
  const phone = '+96560000001';

  it('refuses an invalid or an already registered phone, and sends no code', async () => {
    const before = await countRows(server, 'sms_outbox');
    const bad = await server.api.post(REGISTER, { body: { phoneNumber: '12345' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error!.message).toBe(TEXT.guest.invalidPhone);
    const taken = await server.api.post(REGISTER, { body: { phoneNumber: '+965 5000 0001' } });
    expect(taken.status).toBe(400);
    expect(taken.body.error!.message).toBe('This phone number is already registered. Please log in.');
    const email = await server.api.post(REGISTER, { body: { phoneNumber: phone, email: 'ADMIN@brewops.test' } });
    expect(email.body.error!.message).toBe('This e-mail address is already registered.');
    expect(await countRows(server, 'sms_outbox')).toBe(before);
  });

  it('will not complete before the code is validated', async () => {
    const res = await server.api.post(COMPLETE, { body: { phoneNumber: phone, fullName: 'Nadia New', email: 'nadia@example.test', password: 'secret1' } });
    expect(res.status).toBe(400);
    expect(res.body.error!.message).toBe('Please verify your phone number with the SMS code first.');
  });

  it('sends a code, validates it once, creates the customer and logs it in', async () => {
    const sent = await server.api.post(REGISTER, { body: { phoneNumber: phone, email: 'nadia@example.test' } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const sms = await latestCode(phone);
    expect(sms).toMatchObject({ purpose: 'register', email: 'nadia@example.test' });
    expect(sms.code).toMatch(/^\d{6}$/);

    const wrong = await server.api.post(VALIDATE, { body: { phoneNumber: phone, email: 'nadia@example.test', validationCode: (Number(sms.code) + 1) % 1_000_000 } });
    expect(wrong.status).toBe(400);
    const ok = await server.api.post(VALIDATE, { body: { phoneNumber: phone, email: 'nadia@example.test', validationCode: Number(sms.code) } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.result).toBe(true);
    expect((await server.api.post(VALIDATE, { body: { phoneNumber: phone, validationCode: Number(sms.code) } })).status).toBe(400);

    const done = await server.api.post(COMPLETE, { body: { phoneNumber: phone, fullName: 'Nadia New', email: 'nadia@example.test', password: 'secret1' } });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const { accessToken, userId } = done.body.result;
    const me = await server.api.get('/api/services/app/User/Get', { token: accessToken, query: { Id: userId } });
    expect(me.body.result).toMatchObject({ fullName: 'Nadia New', phoneNumber: phone, emailAddress: 'nadia@example.test', roleNames: ['CUSTOMER'] });
    await server.api.login(phone, 'secret1');
    const details = await server.api.get(DETAILS, { token: accessToken });
    expect(details.body.result).toMatchObject({ id: userId, fullName: 'Nadia New', points: 0, isGuest: false });

    // The phone is registered now: no second account from the same validation, no new code.
    const again = await server.api.post(COMPLETE, { body: { phoneNumber: phone, fullName: 'Nadia Twice', password: 'secret2' } });
    expect(again.status).toBe(400);
    expect(again.body.error!.message).toBe('This phone number is already registered. Please log in.');
    expect((await server.api.post(REGISTER, { body: { phoneNumber: phone } })).status).toBe(400);
  });

  it('gets 429 on the 6th code sent and on the 6th wrong try', async () => {
    const phone2 = '+96560000002';
    const sends = [];
    for (let i = 0; i < 6; i++) sends.push((await server.api.post(REGISTER, { body: { phoneNumber: phone2 } })).status);
    expect(sends).toEqual([200, 200, 200, 200, 200, 429]);

    const { code } = await latestCode(phone2);
    const wrong = code === '000000' ? 1 : 0;
    const tries = [];
    for (let i = 0; i < 6; i++) tries.push((await server.api.post(VALIDATE, { body: { phoneNumber: phone2, validationCode: wrong } })).status);
    expect(tries).toEqual([400, 400, 400, 400, 400, 429]);
    expect((await server.api.post(VALIDATE, { body: { phoneNumber: phone2, validationCode: Number(code) } })).status).toBe(429);
  });

  it('validates its input', async () => {
    expect((await server.api.post(VALIDATE, { body: { phoneNumber: '+96560000003', validationCode: 'abc' } })).status).toBe(400);
    expect((await server.api.post(COMPLETE, { body: { phoneNumber: '+96560000003', fullName: 'X', password: '123' } })).status).toBe(400);
  });
});

describe('customer details', () => {
  it('reads the caller with the wallet of a brand', async () => {
    const res = await server.api.get(DETAILS, { token: customer, query: { brandId: 7 } });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ id: 5, fullName: 'Sara Customer', phoneNumber: '+96550000001', points: 120, brandId: 7 });
    expect((await server.api.get(DETAILS)).status).toBe(401);
    expect((await server.api.get(DETAILS, { token: await server.api.login('admin') })).status).toBe(403);
  });

  it('updates only the caller', async () => {
    const res = await server.api.put(UPDATE, { token: customer, body: { id: 5, fullName: 'Sara Q. Customer', gender: 'female', birthDate: '1990-04-01' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result).toMatchObject({ fullName: 'Sara Q. Customer', gender: 'female', birthDate: '1990-04-01', emailAddress: 'customer@brewops.test' });

    const foreign = await server.api.put(UPDATE, { token: customer, body: { id: otherId, fullName: 'Hacked' } });
    expect(foreign.status).toBe(403);
    const [them] = await db().select().from(t.users).where(eq(t.users.id, otherId));
    expect(them.fullName).toBe('Omar Other');

    const dup = await server.api.put(UPDATE, { token: customer, body: { emailAddress: 'admin@brewops.test' } });
    expect(dup.status).toBe(400);
    expect(dup.body.error!.message).toBe('This e-mail address is already registered.');
    expect((await server.api.put(UPDATE, { token: customer, body: { fullName: ' ' } })).body.error!.message).toBe(TEXT.guest.nameRequired);
    expect((await server.api.put(UPDATE, { token: guest, body: { fullName: 'Guest' } })).status).toBe(403);
  });
});

describe('Cars', () => {
  it('adds a car from query parameters and lists only the caller\'s cars', async () => {
    const res = await server.api.post(`${APP}/Cars/AddCustomerCar`, { token: customer, query: { carBrandId: 2, carColorId: 2, carTypeId: 1, plateNumber: ' 77-123 ', description: 'tinted' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result).toEqual({ id: expect.any(Number), userId: 5, carBrandId: 2, carBrandName: 'Nissan', carTypeId: 1, carTypeName: 'Sedan', carColorId: 2, carColorName: 'Black', plateNumber: '77-123', description: 'tinted' });
    const mine = await server.api.get(`${APP}/Cars/GetCustomerCars`, { token: customer });
    expect(mine.body.result.map((c: { id: number }) => c.id)).toContain(res.body.result.id);
    const theirs = await server.api.get(`${APP}/Cars/GetCustomerCars`, { token: other });
    expect(theirs.body.result).toEqual([]);
  });

  it('refuses unknown dictionary ids and a blank plate, writing nothing', async () => {
    const before = await countRows(server, 'customer_cars');
    const res = await server.api.post(`${APP}/Cars/AddCustomerCar`, { token: customer, query: { carBrandId: 999, carColorId: 1, carTypeId: 1, plateNumber: ' ' } });
    expect(res.status).toBe(400);
    expect(res.body.error!.validationErrors!.map((v) => v.members[0])).toEqual(['carBrandId', 'plateNumber']);
    expect((await server.api.post(`${APP}/Cars/AddCustomerCar`, { token: customer, query: { carBrandId: 1 } })).status).toBe(400);
    expect(await countRows(server, 'customer_cars')).toBe(before);
  });

  it('keeps no cars for the shared guest account', async () => {
    expect((await server.api.post(`${APP}/Cars/AddCustomerCar`, { token: guest, query: { carBrandId: 1, carColorId: 1, carTypeId: 1, plateNumber: '1' } })).status).toBe(403);
    expect((await server.api.get(`${APP}/Cars/GetCustomerCars`, { token: guest })).body.result).toEqual([]);
  });
});

describe('CustomerDeliveryAddress', () => {
  const valid = { regionId: 1, areaId: 2, region: 'ignored', area: 'ignored', block: '3', street: 'Gulf Road', house_no: '12', floor: '1', jadda: '4', instructions: 'Ring twice', latitude: 29.3, longitude: 48 };

  it('refuses a form with missing fields, in the spec\'s words', async () => {
    const before = await countRows(server, 'customer_addresses');
    const res = await server.api.post(`${ADDR}/AddCustomerDeliveryAddress`, { token: customer, body: {} });
    expect(res.status).toBe(400);
    expect(res.body.error!.message).toBe('Validation Error');
    expect(res.body.error!.validationErrors!.map((v) => v.message)).toEqual([
      'Reqion is required', 'Area is required', 'Block Number is required', 'Street Number is required', 'House Number is required',
    ]);
    const block = await server.api.post(`${ADDR}/AddCustomerDeliveryAddress`, { token: customer, body: { ...valid, block: '3a' } });
    expect(block.body.error!.validationErrors).toEqual([{ message: 'Block Number must contain digits only', members: ['block'] }]);
    const mismatch = await server.api.post(`${ADDR}/AddCustomerDeliveryAddress`, { token: customer, body: { ...valid, regionId: 2 } });
    expect(mismatch.body.error!.validationErrors!.map((v) => v.message)).toEqual(['Reqion is required', 'Area is required']);
    expect(await countRows(server, 'customer_addresses')).toBe(before);
  });

  it('adds, lists, updates and deletes the caller\'s own addresses', async () => {
    const added = await server.api.post(`${ADDR}/AddCustomerDeliveryAddress`, { token: customer, body: valid });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const a = added.body.result;
    expect(a).toMatchObject({ userId: 5, regionId: 1, areaId: 2, block: '3', street: 'Gulf Road', house_no: '12', floor: '1', jadda: '4', instructions: 'Ring twice', latitude: 29.3, longitude: 48 });
    expect(a.region).not.toBe('ignored');
    expect(a.area).not.toBe('ignored');

    const defaults = await server.api.post(`${ADDR}/AddCustomerDeliveryAddress`, { token: customer, body: { ...valid, latitude: null, longitude: undefined } });
    expect(defaults.body.result).toMatchObject({ latitude: 29.36, longitude: 47.98 });

    const list = await server.api.get(`${ADDR}/GetCustomerDeliveryAddressListByUserId`, { token: customer, query: { userId: 5 } });
    expect(list.body.result.map((x: { id: number }) => x.id)).toEqual([a.id, defaults.body.result.id]);

    const updated = await server.api.put(`${ADDR}/UpdateCustomerDeliveryAddress`, { token: customer, body: { ...valid, id: a.id, street: 'Arabian Gulf St' } });
    expect(updated.status).toBe(200);
    expect(updated.body.result).toMatchObject({ id: a.id, street: 'Arabian Gulf St' });
    const badUpdate = await server.api.put(`${ADDR}/UpdateCustomerDeliveryAddress`, { token: customer, body: { ...valid, id: a.id, house_no: '' } });
    expect(badUpdate.body.error!.validationErrors!.map((v) => v.message)).toEqual(['House Number is required']);

    expect((await server.api.delete(`${ADDR}/DeleteCustomerDeliveryAddressById`, { token: customer, query: { id: a.id } })).body.result).toBe(true);
    expect((await server.api.delete(`${ADDR}/DeleteCustomerDeliveryAddressById`, { token: customer, query: { id: a.id } })).status).toBe(404);
  });

  it("never reads or changes another customer's addresses (403 for their user id, 404 for their address)", async () => {
    const theirs = (await server.api.post(`${ADDR}/AddCustomerDeliveryAddress`, { token: other, body: valid })).body.result;
    const before = await db().select().from(t.customerAddresses).where(eq(t.customerAddresses.id, theirs.id));

    expect((await server.api.get(`${ADDR}/GetCustomerDeliveryAddressListByUserId`, { token: customer, query: { userId: otherId } })).status).toBe(403);
    expect((await server.api.post(`${ADDR}/AddCustomerDeliveryAddress`, { token: customer, body: { ...valid, userId: otherId } })).status).toBe(403);
    expect((await server.api.put(`${ADDR}/UpdateCustomerDeliveryAddress`, { token: customer, body: { ...valid, id: theirs.id, street: 'Mine now' } })).status).toBe(404);
    expect((await server.api.put(`${ADDR}/UpdateCustomerDeliveryAddress`, { token: customer, body: { ...valid, id: theirs.id, userId: otherId } })).status).toBe(403);
    expect((await server.api.delete(`${ADDR}/DeleteCustomerDeliveryAddressById`, { token: customer, query: { id: theirs.id } })).status).toBe(404);

    expect(await db().select().from(t.customerAddresses).where(eq(t.customerAddresses.id, theirs.id))).toEqual(before);
    expect((await server.api.get(`${ADDR}/GetCustomerDeliveryAddressListByUserId`, { token: customer, query: { userId: 5 } })).body.result
      .some((x: { id: number }) => x.id === theirs.id)).toBe(false);
  });

  it('stores nothing for the shared guest: its address comes back as the temporary address 10', async () => {
    const before = await countRows(server, 'customer_addresses');
    const added = await server.api.post(`${ADDR}/AddCustomerDeliveryAddress`, { token: guest, body: valid });
    expect(added.status).toBe(200);
    expect(added.body.result).toMatchObject({ id: 10, userId: 18, regionId: 1, areaId: 2, block: '3', street: 'Gulf Road', house_no: '12' });
    expect(await countRows(server, 'customer_addresses')).toBe(before);
    expect((await server.api.post(`${ADDR}/AddCustomerDeliveryAddress`, { token: guest, body: { ...valid, block: '' } })).status).toBe(400);
    expect((await server.api.get(`${ADDR}/GetCustomerDeliveryAddressListByUserId`, { token: guest, query: { userId: 18 } })).body.result).toEqual([]);
    expect((await server.api.put(`${ADDR}/UpdateCustomerDeliveryAddress`, { token: guest, body: { ...valid, id: added.body.result.id } })).status).toBe(403);
    expect((await server.api.delete(`${ADDR}/DeleteCustomerDeliveryAddressById`, { token: guest, query: { id: added.body.result.id } })).status).toBe(403);
    expect((await server.api.post(`${ADDR}/AddCustomerDeliveryAddress`, { body: valid })).status).toBe(401);
  });
});
