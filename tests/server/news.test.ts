import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { countRows } from '../support/server';
import { CALLERS, callerTokens, expectCall, type Who } from '../support/adminMatrix';
import { useServer } from '../support/harness';
import { localFileStorage } from '../../server/storage';

/** News (SPEC.md 7 News: BrandAdvertisements) and the shop's home reading a brand's current news. */
const NEWS = '/api/services/app/BrandAdvertisements';
const TABLES = ['brand_advertisements'];
const DAY = 86_400_000;

let token: Record<Who, string | undefined>;
let uploadsDir: string;
const as = (who: Who) => ({ token: token[who] });
const iso = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY).toISOString();
const storedFiles = () => readdirSync(uploadsDir).sort();

beforeAll(async () => {
  uploadsDir = mkdtempSync(path.join(tmpdir(), 'news-test-'));
}, 120_000);
const server = useServer(() => ({ storage: localFileStorage(uploadsDir) }));
beforeAll(async () => {
  token = await callerTokens(server);
}, 120_000);
afterAll(async () => {
  if (uploadsDir) rmSync(uploadsDir, { recursive: true, force: true });
});

/** Posts a file as the news form does: multipart/form-data, field `file`, over real HTTP. */
async function upload(who: Who, bytes: Buffer, filename: string, type: string) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), filename);
  const res = await fetch(`${server.url}/api/services/app/Files/UploadBrandAdvertisementImage`, {
    method: 'POST', body: form, headers: token[who] ? { authorization: `Bearer ${token[who]}` } : {},
  });
  return { status: res.status, body: await res.json() as { result: { url: string; thumbnailUrl: string; key: string } | null; error: { message: string } | null } };
}
const png = () => sharp({ create: { width: 320, height: 160, channels: 3, background: { r: 240, g: 160, b: 30 } } }).png().toBuffer();

const news = (brandId: number, extra: Record<string, unknown> = {}) => ({
  brandId, title: 'Iced Spanish latte is back', text: 'All summer, at every Mango Coffee branch.',
  imageUrl: '/images/brands/mango.png', startDate: iso(-1), endDate: iso(10), ...extra,
});
const current = async (brandId: number) =>
  (await server.api.get(`${NEWS}/GetCurrentBrandAdvertisements`, { query: { brandId } })).body.result as { id: number; title: string; imageUrl: string }[];

describe('BrandAdvertisements: a brand manager publishes news and the shop shows it', () => {
  it('uploads the image, creates the advertisement, lists it both ways, and the shop home reads it while shown and current', async () => {
    const up = await upload('brandmanager', await png(), 'summer.png', 'image/png');
    expect(up.status, JSON.stringify(up.body.error)).toBe(200);
    const imageUrl = up.body.result!.url;

    const created = await server.api.post(`${NEWS}/CreateBrandAdvertisement`, { ...as('brandmanager'), body: news(7, { imageUrl }) });
    expect(created.status, JSON.stringify(created.body.error)).toBe(200);
    const ad = created.body.result;
    expect(ad).toMatchObject({ brandId: 7, title: 'Iced Spanish latte is back', imageUrl, isShown: true });

    const legacy = await server.api.post(`${NEWS}/BrandAdvertisements`, { ...as('brandmanager'), body: { SkipCount: 0, MaxResultCount: 10, brandId: 7 } });
    expect(legacy.status).toBe(200);
    expect(legacy.body.result.data.map((r: { id: number }) => r.id)).toContain(ad.id);
    const getAll = await server.api.get(`${NEWS}/GetAll`, { ...as('companyadmin'), query: { SkipCount: 0, MaxResultCount: 10, id: ad.id } });
    expect(getAll.body.result).toMatchObject({ totalCount: 1, data: [{ id: ad.id, imageUrl }] });

    // The shop (anonymous) sees it, and not under another brand.
    expect((await current(7)).map((n) => n.id)).toContain(ad.id);
    expect((await current(8)).map((n) => n.id)).not.toContain(ad.id);

    // Hidden, it leaves the shop at once; shown again, it is back.
    expect((await server.api.put(`${NEWS}/UpdateBrandAdvertisement`, { ...as('brandmanager'), body: { id: ad.id, isShown: false } })).status).toBe(200);
    expect((await current(7)).map((n) => n.id)).not.toContain(ad.id);
    expect((await server.api.put(`${NEWS}/UpdateBrandAdvertisement`, { ...as('brandmanager'), body: { id: ad.id, isShown: true } })).status).toBe(200);
    expect((await current(7)).map((n) => n.id)).toContain(ad.id);

    // Its history is kept (the resource shape's audit log).
    const history = await server.api.get('/api/services/app/AuditLog/GetEntityHistory', { ...as('brandmanager'), query: { resource: 'BrandAdvertisements', id: ad.id } });
    expect(history.body.result.data.map((h: { action: string }) => h.action)).toEqual(['update', 'update', 'create']);
  });

  it('shows only the news within its dates: not a future one, not an expired one', async () => {
    const future = await server.api.post(`${NEWS}/CreateBrandAdvertisement`, { ...as('admin'), body: news(7, { title: 'Ramadan hours', startDate: iso(2), endDate: iso(30) }) });
    const expired = await server.api.post(`${NEWS}/CreateBrandAdvertisement`, { ...as('admin'), body: news(7, { title: 'National day', startDate: iso(-30), endDate: iso(-2) }) });
    expect([future.status, expired.status]).toEqual([200, 200]);
    const ids = (await current(7)).map((n) => n.id);
    expect(ids).not.toContain(future.body.result.id);
    expect(ids).not.toContain(expired.body.result.id);
  });
});

describe('BrandAdvertisements: bad input is a 400 with nothing written', () => {
  const cases: [string, Record<string, unknown>][] = [
    ['dates reversed', news(7, { startDate: iso(5), endDate: iso(1) })],
    ['dates equal', news(7, { startDate: iso(1), endDate: iso(1) })],
    ['an unknown brand', news(999)],
    ['an image that is not one (a document)', news(7, { imageUrl: '/uploads/menu.pdf' })],
    ['an image that is not one (a script URL)', news(7, { imageUrl: 'javascript:alert(1).png' })],
    ['no title', news(7, { title: '' })],
    ['a date that is not one', news(7, { startDate: 'tomorrow' })],
  ];
  for (const [what, body] of cases) {
    it(`create with ${what}`, async () => {
      const res = await expectCall(server, TABLES, what, 400, () => server.api.post(`${NEWS}/CreateBrandAdvertisement`, { ...as('brandmanager'), body }));
      expect(res.body.error?.message).toBeTruthy();
    });
  }

  it('an update that would put the end before the start', async () => {
    const created = await server.api.post(`${NEWS}/CreateBrandAdvertisement`, { ...as('brandmanager'), body: news(7) });
    const res = await expectCall(server, TABLES, 'end before start', 400, () => server.api.put(`${NEWS}/UpdateBrandAdvertisement`, {
      ...as('brandmanager'), body: { id: created.body.result.id, endDate: iso(-3) },
    }));
    expect(res.body.error?.message).toBe('The end date must come after the start date.');
  });

  it('an upload that is not an image stores nothing', async () => {
    const before = storedFiles();
    const res = await upload('brandmanager', Buffer.from('%PDF-1.4 not a picture'), 'menu.png', 'image/png');
    expect(res.status).toBe(400);
    expect(res.body.error?.message).toBeTruthy();
    expect(storedFiles()).toEqual(before);
  });

  it('the shop read of an unknown brand is empty, of a bad brand id a 400', async () => {
    expect(await current(999)).toEqual([]);
    expect((await server.api.get(`${NEWS}/GetCurrentBrandAdvertisements`, { query: { brandId: 'seven' } })).status).toBe(400);
  });
});

describe('BrandAdvertisements: the scope matrix', () => {
  // company 1 owns brand 7 (brandmanager's); company 2 owns brand 8.
  const expected: Record<string, Record<Who, number>> = {
    list: { admin: 200, companyadmin: 200, brandmanager: 200, branchuser: 403, customer: 403, anonymous: 401 },
    createOwn: { admin: 200, companyadmin: 200, brandmanager: 200, branchuser: 403, customer: 403, anonymous: 401 },
    createOther: { admin: 200, companyadmin: 400, brandmanager: 400, branchuser: 403, customer: 403, anonymous: 401 },
    updateOther: { admin: 200, companyadmin: 404, brandmanager: 404, branchuser: 403, customer: 403, anonymous: 401 },
    shop: { admin: 200, companyadmin: 200, brandmanager: 200, branchuser: 200, customer: 200, anonymous: 200 },
  };
  let otherId: number;
  beforeAll(async () => {
    otherId = (await server.api.post(`${NEWS}/CreateBrandAdvertisement`, { ...as('admin'), body: news(8, { title: 'Dune croissants' }) })).body.result.id;
  });

  for (const who of CALLERS) {
    it(`${who}`, async () => {
      const list = await expectCall(server, TABLES, `${who} list`, expected.list[who], () => server.api.post(`${NEWS}/BrandAdvertisements`, { ...as(who), body: { SkipCount: 0, MaxResultCount: 100 } }));
      if (list.status === 200) {
        const brandsSeen = new Set(list.body.result.data.map((r: { brandId: number }) => r.brandId));
        expect(brandsSeen.has(8), `${who} sees brand 8`).toBe(who === 'admin');
        expect(brandsSeen.has(7)).toBe(true);
      }
      await expectCall(server, TABLES, `${who} create for brand 7`, expected.createOwn[who], () => server.api.post(`${NEWS}/CreateBrandAdvertisement`, { ...as(who), body: news(7, { title: `by ${who}` }) }));
      await expectCall(server, TABLES, `${who} create for brand 8`, expected.createOther[who], () => server.api.post(`${NEWS}/CreateBrandAdvertisement`, { ...as(who), body: news(8, { title: `by ${who}` }) }));
      await expectCall(server, TABLES, `${who} update brand 8's`, expected.updateOther[who], () => server.api.put(`${NEWS}/UpdateBrandAdvertisement`, { ...as(who), body: { id: otherId, title: `changed by ${who}` } }));
      await expectCall(server, TABLES, `${who} shop read`, expected.shop[who], () => server.api.get(`${NEWS}/GetCurrentBrandAdvertisements`, { ...as(who), query: { brandId: 8 } }));
    });
  }

  it('a refused body is refused before it is read: anonymous with bad input is a 401, a customer a 403', async () => {
    const before = await countRows(server, 'brand_advertisements');
    expect((await server.api.post(`${NEWS}/CreateBrandAdvertisement`, { body: { title: '' } })).status).toBe(401);
    expect((await server.api.post(`${NEWS}/CreateBrandAdvertisement`, { ...as('customer'), body: { title: '' } })).status).toBe(403);
    expect(await countRows(server, 'brand_advertisements')).toBe(before);
  });
});
