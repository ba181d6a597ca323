import { beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, sql } from 'drizzle-orm';
import { countRows } from '../support/server';
import { callerTokens, expectCall, type Who } from '../support/adminMatrix';
import { useServer } from '../support/harness';
import * as t from '../../server/db/schema';
import type { Db } from '../../server/db/client';
import { parsePhoneCsv } from '../../server/services/preInvitationLists/csv';

/**
 * Pre-invitation lists (PreInvitationLists/*), removing group members, staff registration
 * (Customer/Registrate) and the registration hook: an invited phone that registers joins its
 * list's group once, in the registration's transaction. Bad input and scope write nothing.
 */
let tokens: Record<Who, string | undefined>;
const db = () => server.database.db as unknown as Db;
const APP = '/api/services/app';
const PIL = `${APP}/PreInvitationLists`;
const TABLES = ['pre_invitations', 'users', 'customer_groups'] as const;
let group7: number;
let group8: number;

const server = useServer();
beforeAll(async () => {
  tokens = await callerTokens(server);
  [{ id: group7 }] = await db().insert(t.customerGroups).values({ brandId: 7, name: 'Invited friends' }).returning();
  [{ id: group8 }] = await db().insert(t.customerGroups).values({ brandId: 8, name: 'Dune friends' }).returning();
}, 120_000);

const members = async (groupId: number) =>
  (await db().select({ userId: t.customerGroupMembers.userId }).from(t.customerGroupMembers).where(eq(t.customerGroupMembers.groupId, groupId))).map((m) => m.userId).sort();
const entries = (groupId: number) => db().select().from(t.preInvitations).where(eq(t.preInvitations.groupId, groupId));
const post = (path: string, who: Who, body: unknown) => () => server.api.post(`${APP}/${path}`, { token: tokens[who], body });
const memberCount = () => countRows(server, 'customer_group_members');

/** The shop's three registration steps for a phone; answers the new user's id. */
async function registerInShop(phone: string, fullName: string) {
  expect((await server.api.post(`${APP}/Customer/RegistrateNewUnregisteredUser`, { body: { phoneNumber: phone } })).status).toBe(200);
  const [code] = await db().select().from(t.smsOutbox).where(and(eq(t.smsOutbox.phoneNumber, phone), eq(t.smsOutbox.purpose, 'register'))).orderBy(desc(t.smsOutbox.id)).limit(1);
  expect((await server.api.post(`${APP}/Customer/ValidateNewUnregisteredUser`, { body: { phoneNumber: phone, validationCode: Number(code.code) } })).status).toBe(200);
  const done = await server.api.post(`${APP}/Customer/RegistrateUserFromMobileAppByPhone`, { body: { phoneNumber: phone, fullName, password: 'secret1' } });
  expect(done.status, JSON.stringify(done.body.error)).toBe(200);
  return done.body.result.userId as number;
}

describe('the CSV reading', () => {
  it('takes a header, local numbers, 00 prefixes and quotes, counts a phone once and names bad lines', () => {
    const parsed = parsePhoneCsv('\uFEFFname,phone\r\nAli,"5000 1111"\r\n\r\nMona,+965 6000-2222\nHala,0096560002222\nBad,12ab\nNone,\n');
    expect(parsed.phones).toEqual(['+96550001111', '+96560002222']);
    expect(parsed.rows).toBe(5);
    expect(parsed.bad).toEqual([
      { line: 6, text: 'Bad,12ab', problem: 'is not a valid phone number' },
      { line: 7, text: 'None,', problem: 'has no phone number' },
    ]);
    expect(parsePhoneCsv('96550001111\n+96150001111').phones).toEqual(['+96550001111', '+96150001111']);
    expect(parsePhoneCsv('+97250001111').bad).toHaveLength(1); // not a supported country code
  });
});

describe('PreInvitationLists', () => {
  it('refuses an upload with a bad row, naming its line, and writes nothing; the corrected file is listed', async () => {
    const bad = await expectCall(server, TABLES, 'one bad row', 400, post('PreInvitationLists/UploadPreInvitationLists', 'brandmanager', {
      groupId: group7, content: 'phone\n+96570000001\n5000 0001\nnot a phone\n+96570000002\n',
    }));
    expect(bad.body.error!.message).toBe('Line 4 is not a valid phone number. Nothing was saved: correct the file and upload it again.');
    expect(bad.body.error!.validationErrors).toEqual([{ message: 'Line 4: "not a phone" is not a valid phone number.', members: ['content'] }]);
    expect(await memberCount()).toBe(0);

    // 5000 0001 is the seeded customer's phone (+96550000001): already registered, they join at once.
    const ok = await server.api.post(`${PIL}/UploadPreInvitationLists`, { token: tokens.brandmanager, body: {
      groupId: group7, fileName: 'invites.csv', content: 'phone\n+96570000001\n5000 0001\n+965 7000 0002\n+96570000001\n',
    } });
    expect(ok.status, JSON.stringify(ok.body.error)).toBe(200);
    expect(ok.body.result).toEqual({ groupId: group7, rows: 4, added: 3, alreadyListed: 0, joined: 1 });
    expect(await members(group7)).toEqual([5]);
    const listed = await entries(group7);
    expect(listed.map((e) => e.phoneNumber).sort()).toEqual(['+96550000001', '+96570000001', '+96570000002']);
    expect(listed.find((e) => e.phoneNumber === '+96550000001')!.joinedUserId).toBe(5);
    // Every new entry has its history.
    expect(Number((await db().select({ n: sql<number>`count(*)::int` }).from(t.auditLog).where(eq(t.auditLog.resource, 'PreInvitationLists')))[0].n)).toBe(3);

    const again = await server.api.post(`${PIL}/UploadPreInvitationLists`, { token: tokens.admin, body: { groupId: group7, content: '+96570000002\n+96570000003' } });
    expect(again.body.result).toMatchObject({ added: 1, alreadyListed: 1, joined: 0 });
  });

  it('lists, checks, adds, changes and deletes entries in the caller scope', async () => {
    const list = await server.api.get(`${PIL}/GetAllPreInvitationLists?groupId=${group7}&Sorting=phoneNumber asc&MaxResultCount=50`, { token: tokens.brandmanager });
    expect(list.status).toBe(200);
    expect(list.body.result.totalCount).toBe(4);
    expect(list.body.result.data[0]).toMatchObject({ phoneNumber: '+96550000001', joinedUserId: 5, groupId: group7, brandId: 7 });
    expect((await server.api.get(`${PIL}/GetAllPreInvitationLists?Search=7000000`, { token: tokens.brandmanager })).body.result.totalCount).toBe(3);
    expect((await server.api.get(`${PIL}/GetIsPreInvitationListExist?PhoneNumber=70000003`, { token: tokens.brandmanager })).body.result).toBe(true);
    expect((await server.api.get(`${PIL}/GetIsPreInvitationListExist?PhoneNumber=%2B96570000003&GroupId=${group8}`, { token: tokens.admin })).body.result).toBe(false);
    // Another company's caller does not see brand 7's entries.
    const other = await db().insert(t.preInvitations).values({ groupId: group8, brandId: 8, phoneNumber: '+96570000009' }).returning();
    expect((await server.api.get(`${PIL}/GetIsPreInvitationListExist?PhoneNumber=%2B96570000009`, { token: tokens.brandmanager })).body.result).toBe(false);
    expect((await server.api.get(`${PIL}/GetAllPreInvitationLists?groupId=${group8}`, { token: tokens.companyadmin })).body.result.totalCount).toBe(0);

    const created = await server.api.post(`${PIL}/CreatePreInvitationList`, { token: tokens.companyadmin, body: { groupId: group7, phoneNumber: '7000 0004' } });
    expect(created.status, JSON.stringify(created.body.error)).toBe(200);
    expect(created.body.result).toMatchObject({ groupId: group7, brandId: 7, phoneNumber: '+96570000004', joinedUserId: null });
    const changed = await server.api.put(`${PIL}/UpdatePreInvitationList`, { token: tokens.brandmanager, body: { id: created.body.result.id, phoneNumber: '+96570000005' } });
    expect(changed.body.result.phoneNumber).toBe('+96570000005');
    const gone = await server.api.delete(`${PIL}/DeletePreInvitationList?Id=${created.body.result.id}`, { token: tokens.brandmanager });
    expect(gone.status).toBe(200);
    expect((await entries(group7)).some((e) => e.id === created.body.result.id)).toBe(false);
    const history = await server.api.get(`${APP}/AuditLog/GetEntityHistory?resource=PreInvitationLists&id=${created.body.result.id}`, { token: tokens.admin });
    expect(history.body.result.data.map((h: { action: string }) => h.action)).toEqual(['delete', 'update', 'create']);
    expect((await server.api.delete(`${PIL}/DeletePreInvitationList?Id=${other[0].id}`, { token: tokens.brandmanager })).status).toBe(404);
  });

  it('refuses bad input, callers out of scope and roles without the capability, writing nothing', async () => {
    const [used] = (await entries(group7)).filter((e) => e.joinedUserId !== null);
    const calls: [string, number, () => Promise<{ status: number; body: any }>][] = [
      ['anonymous, even with a broken body', 401, post('PreInvitationLists/UploadPreInvitationLists', 'anonymous', { content: 5 })],
      ['customer, even with a broken body', 403, post('PreInvitationLists/UploadPreInvitationLists', 'customer', { content: 5 })],
      ['branch user', 403, post('PreInvitationLists/CreatePreInvitationList', 'branchuser', { groupId: group7, phoneNumber: '+96570000006' })],
      ['branch user reads', 403, () => server.api.get(`${PIL}/GetAllPreInvitationLists`, { token: tokens.branchuser })],
      ['anonymous reads', 401, () => server.api.get(`${PIL}/GetIsPreInvitationListExist?PhoneNumber=x`)],
      ['brand manager, other brand group', 404, post('PreInvitationLists/UploadPreInvitationLists', 'brandmanager', { groupId: group8, content: '+96570000006' })],
      ['company admin, other company group', 404, post('PreInvitationLists/CreatePreInvitationList', 'companyadmin', { groupId: group8, phoneNumber: '+96570000006' })],
      ['unknown group', 404, post('PreInvitationLists/UploadPreInvitationLists', 'admin', { groupId: 999999, content: '+96570000006' })],
      ['empty file', 400, post('PreInvitationLists/UploadPreInvitationLists', 'admin', { groupId: group7, content: 'phone\n\n' })],
      ['no content', 400, post('PreInvitationLists/UploadPreInvitationLists', 'admin', { groupId: group7 })],
      ['too many rows', 400, post('PreInvitationLists/UploadPreInvitationLists', 'admin', { groupId: group7, content: Array.from({ length: 10_001 }, (_, i) => `+9657${String(i).padStart(7, '0')}`).join('\n') })],
      ['bad phone', 400, post('PreInvitationLists/CreatePreInvitationList', 'admin', { groupId: group7, phoneNumber: '12345' })],
      ['phone already listed', 400, post('PreInvitationLists/CreatePreInvitationList', 'admin', { groupId: group7, phoneNumber: '+96570000001' })],
      ['a used entry keeps its phone', 400, () => server.api.put(`${PIL}/UpdatePreInvitationList`, { token: tokens.admin, body: { id: used.id, phoneNumber: '+96570000007' } })],
      ['change to a listed phone', 400, async () => {
        const [e] = (await entries(group7)).filter((x) => x.joinedUserId === null);
        return server.api.put(`${PIL}/UpdatePreInvitationList`, { token: tokens.admin, body: { id: e.id, phoneNumber: '+96550000001' } });
      }],
      ['bad phone in the check', 400, () => server.api.get(`${PIL}/GetIsPreInvitationListExist?PhoneNumber=abc`, { token: tokens.admin })],
    ];
    const before = await memberCount();
    for (const [what, status, call] of calls) await expectCall(server, TABLES, what, status, call);
    expect(await memberCount()).toBe(before);
  });

  it('an invited phone that registers in the shop joins the group, once', async () => {
    const started = Date.now();
    const userId = await registerInShop('+96570000002', 'Invited Iman');
    expect(await members(group7)).toEqual([5, userId].sort());
    const [entry] = (await entries(group7)).filter((e) => e.phoneNumber === '+96570000002');
    expect(entry.joinedUserId).toBe(userId);
    expect(entry.joinedAt).toBeTruthy();
    // Taken out of the group, the customer is not added again by listing the phone anew.
    const removed = await server.api.post(`${APP}/CustomersGroups/RemoveCustomersFromGroup`, { token: tokens.brandmanager, body: { groupId: group7, customerIds: [userId, 424242] } });
    expect(removed.status).toBe(200);
    expect(removed.body.result.memberCount).toBe(1);
    const reupload = await server.api.post(`${PIL}/UploadPreInvitationLists`, { token: tokens.brandmanager, body: { groupId: group7, content: '+96570000002' } });
    expect(reupload.body.result).toMatchObject({ added: 0, alreadyListed: 1, joined: 0 });
    expect(await members(group7)).toEqual([5]);
    console.log(`shop registration with an invitation: ${Date.now() - started} ms`);
  });

  it('RemoveCustomersFromGroup refuses callers out of scope', async () => {
    await db().insert(t.customerGroupMembers).values({ groupId: group8, userId: 5 });
    for (const [who, status] of [['brandmanager', 404], ['companyadmin', 404], ['branchuser', 403], ['anonymous', 401]] as const) {
      const res = await server.api.post(`${APP}/CustomersGroups/RemoveCustomersFromGroup`, { token: tokens[who], body: { groupId: group8, customerIds: [5] } });
      expect(res.status, who).toBe(status);
    }
    expect(await members(group8)).toEqual([5]);
    expect((await server.api.post(`${APP}/CustomersGroups/RemoveCustomersFromGroup`, { token: tokens.admin, body: { groupId: group8, customerIds: [] } })).status).toBe(400);
  });
});

describe('Customer/Registrate (staff register a customer)', () => {
  const REG = 'Customer/Registrate';
  it('registers an invited phone for a brand: the customer joins the group and is the brand customer', async () => {
    const res = await server.api.post(`${APP}/${REG}`, { token: tokens.brandmanager, body: {
      brandId: 7, phoneNumber: '+965 7000 0003', fullName: '  Walk-in Walid ', emailAddress: 'walid@example.test', gender: 'male', birthDate: '1990-05-01',
    } });
    expect(res.status, JSON.stringify(res.body.error)).toBe(200);
    expect(res.body.result).toMatchObject({ fullName: 'Walk-in Walid', phoneNumber: '+96570000003', emailAddress: 'walid@example.test' });
    const id = res.body.result.id as number;
    expect(await members(group7)).toContain(id);
    const [user] = await db().select().from(t.users).where(eq(t.users.id, id));
    expect(user).toMatchObject({ role: 'CUSTOMER', userName: '+96570000003', gender: 'male', birthDate: '1990-05-01', passwordHash: '!' });
    const mine = await server.api.get(`${APP}/Customer/GetCustomersSubscribedToBrandByBrandID?BrandId=7&Search=70000003`, { token: tokens.brandmanager });
    expect(mine.body.result.data.map((c: { id: number }) => c.id)).toEqual([id]);
    // No password was given: nobody can log in until the customer sets one by SMS.
    const login = await server.api.post('/api/TokenAuth/Authenticate', { body: { userNameOrEmailAddress: '+96570000003', password: '!' } });
    expect(login.status).toBe(400);
    // With a password, the customer can log in at once.
    const withPassword = await server.api.post(`${APP}/${REG}`, { token: tokens.admin, body: { brandId: 8, phoneNumber: '+96570000008', fullName: 'Pat Password', password: 'secret1' } });
    expect(withPassword.status).toBe(200);
    expect(await server.api.login('+96570000008', 'secret1')).toBeTruthy();
  });

  it('refuses bad input, a brand out of scope and roles without the capability, writing nothing', async () => {
    const body = { brandId: 7, phoneNumber: '+96570000010', fullName: 'Nora New' };
    const calls: [string, Who, number, unknown, string?][] = [
      ['anonymous, broken body', 'anonymous', 401, { brandId: 'x' }],
      ['customer, broken body', 'customer', 403, { brandId: 'x' }],
      ['branch user', 'branchuser', 403, body],
      ['brand manager, other brand', 'brandmanager', 400, { ...body, brandId: 8 }, 'brandId'],
      ['company admin, other company', 'companyadmin', 400, { ...body, brandId: 8 }, 'brandId'],
      ['unknown brand', 'admin', 400, { ...body, brandId: 99999 }, 'brandId'],
      ['bad phone', 'admin', 400, { ...body, phoneNumber: '12345' }, 'phoneNumber'],
      ['taken phone', 'admin', 400, { ...body, phoneNumber: '+96550000001' }, 'phoneNumber'],
      ['blank name', 'admin', 400, { ...body, fullName: '  ' }, 'fullName'],
      ['bad e-mail', 'admin', 400, { ...body, emailAddress: 'not-an-email' }, 'emailAddress'],
      ['taken e-mail', 'admin', 400, { ...body, emailAddress: 'CUSTOMER@brewops.test' }, 'emailAddress'],
      ['short password', 'admin', 400, { ...body, password: '123' }],
      ['bad birth date', 'admin', 400, { ...body, birthDate: '01/05/1990' }],
    ];
    const wallets = await countRows(server, 'customer_wallets');
    for (const [what, who, status, b, member] of calls) {
      const res = await expectCall(server, TABLES, what, status, post(REG, who, b));
      if (member) expect(res.body.error!.validationErrors?.[0]?.members, what).toEqual([member]);
    }
    expect(await countRows(server, 'customer_wallets')).toBe(wallets);
  });
});

/**
 * Issue 20 with invitations: registering with an invited phone is the customer's own action, so they
 * become the brand's customer and the brand's staff see them in the group (CI's loyalty-groups story
 * found them hidden); a phone staff list that belongs to another company's customer joins nothing.
 */
describe('invitations and whose customers staff see', () => {
  it('an invited phone that registers in the shop is the brand\'s customer, listed in the group for its brand manager', async () => {
    const [{ id: group }] = await db().insert(t.customerGroups).values({ brandId: 7, name: 'Scope invitations' }).returning();
    const phone = '+96570000091';
    expect((await server.api.post(`${PIL}/UploadPreInvitationLists`, { token: tokens.brandmanager, body: { groupId: group, content: phone } })).status).toBe(200);
    const id = await registerInShop(phone, 'Invited Iman');
    const listed = await server.api.get(`${APP}/Customer/GetCustomerDetailsByCustomersGroupId`, { token: tokens.brandmanager, query: { GroupId: group } });
    expect(listed.status).toBe(200);
    expect((listed.body.result.data as { id: number }[]).map((c) => c.id)).toEqual([id]);
    expect(await db().select({ brandId: t.customerWallets.brandId }).from(t.customerWallets).where(eq(t.customerWallets.userId, id))).toEqual([{ brandId: 7 }]);
  });

  it('staff listing the phone of another company\'s customer does not join or subscribe them', async () => {
    const [{ id: group }] = await db().insert(t.customerGroups).values({ brandId: 7, name: 'Harvest attempt' }).returning();
    const [{ id: foreign }] = await db().insert(t.users).values({ userName: '+96570000092', phoneNumber: '+96570000092', fullName: 'Dune Only', role: 'CUSTOMER', passwordHash: '!' }).returning();
    await db().insert(t.customerWallets).values({ userId: foreign, brandId: 8 });
    const res = await server.api.post(`${PIL}/UploadPreInvitationLists`, { token: tokens.brandmanager, body: { groupId: group, content: '+96570000092' } });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ joined: 0 });
    expect(await members(group)).toEqual([]);
    expect(await db().select({ brandId: t.customerWallets.brandId }).from(t.customerWallets).where(eq(t.customerWallets.userId, foreign))).toEqual([{ brandId: 8 }]);
  });
});
