import { execFileSync } from 'node:child_process';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { printJobs, printers, productTypes } from '../../server/db/schema';
import { queueTickets } from '../../server/printing/jobs';
import { ticketFor } from '../../server/printing/ticket';
import { ticketRaster, TICKET_WIDTH } from '../../server/printing/render';
import { PRINTER_OFFLINE_AFTER_MS } from '../../domain/orderSettings';
import { countRows } from '../support/server';
import { insertOrder, readOrder } from '../support/orders';
import { seededMenu } from '../support/shopMenu';
import { cloudPrntPrinter, epsonPrinter } from '../support/simulatedPrinter';
import { useServer } from '../support/harness';

/**
 * Issue 25, kitchen printers: both protocols driven by a simulated printer over real HTTP, the
 * bytes we send (the PNG, the ePOS-Print XML and its raster), exactly one ticket per (order,
 * printer, kind), done only on the printer's confirmation, reprints, categories, offline state.
 */
const PRINTER = '/api/services/app/Printer';
const STORE = '/api/services/app/Store';
let menu: Awaited<ReturnType<typeof seededMenu>>;
const token: Record<string, string> = {};
let typeId: Record<string, number>;
type PrinterOut = { id: number; path: string; name: string; isOnline: boolean; pendingJobs: number; productTypeIds: number[]; language: string };
let bar: PrinterOut, kitchen: PrinterOut;

const server = useServer();
beforeAll(async () => {
  menu = await seededMenu(server);
  for (const who of ['admin', 'brandmanager', 'branchuser']) token[who] = await server.api.login(who);
  typeId = Object.fromEntries((await server.database.db.select().from(productTypes).where(eq(productTypes.brandId, 7))).map((t) => [t.name, t.id]));
  bar = await addPrinter({ name: 'Bar', protocol: 'starCloudPrnt', productTypeIds: [typeId.Coffee] });
  kitchen = await addPrinter({ name: 'Kitchen', protocol: 'epsonServerDirect', productTypeIds: [typeId.Food] });
});

async function addPrinter(body: Record<string, unknown>, who = 'brandmanager'): Promise<PrinterOut> {
  const res = await server.api.post(`${PRINTER}/Create`, { token: token[who], body: { branchId: 1, ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result;
}
/** Prints (and confirms) whatever waits for a printer, oldest first. */
async function drain(printer: { round(): Promise<unknown> }) {
  for (let i = 0; i < 20 && await printer.round(); i++);
}
const setStatus = (orderId: number, status: string) =>
  server.api.put(`${STORE}/UpdateOrderStatus`, { token: token.branchuser, body: { orderId, status } });
const jobsOf = (orderId: number) => server.database.db.select().from(printJobs).where(eq(printJobs.orderId, orderId)).orderBy(printJobs.id);
/** An accepted order of branch 1: an espresso with a shot for the bar, a croissant for the kitchen. */
async function acceptedOrder(items = [{ productId: menu.product('Espresso'), quantity: 2 }, { productId: menu.product('Butter Croissant'), quantity: 1 }], extra = {}) {
  const order = await insertOrder(server, { items, specialRemarks: 'No sugar, please', ...extra });
  expect((await setStatus(order.id, 'accepted')).status).toBe(200);
  return order;
}

describe('who manages printers', () => {
  it('a signed-out caller is a 401, a branch user a 403, before any complaint about the body; bad input is a 400 and writes nothing', async () => {
    expect((await server.api.post(`${PRINTER}/Create`, { body: { nonsense: true } })).status).toBe(401);
    expect((await server.api.post(`${PRINTER}/Create`, { token: token.branchuser, body: { nonsense: true } })).status).toBe(403);
    expect((await server.api.get(`${PRINTER}/GetBranchPrinters`, { token: token.branchuser, query: { branchId: 1 } })).status).toBe(403);
    const before = await countRows(server, 'printers');
    for (const body of [
      { branchId: 1, name: 'X', protocol: 'ipp' },
      { branchId: 1, name: '  ', protocol: 'starCloudPrnt' },
      { branchId: 1, name: 'X', protocol: 'starCloudPrnt', productTypeIds: [999999] },
      { branchId: 2, name: 'X', protocol: 'starCloudPrnt' }, // brand 8's branch: outside the brand manager's scope
    ]) {
      const res = await server.api.post(`${PRINTER}/Create`, { token: token.brandmanager, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect(await countRows(server, 'printers')).toBe(before);
  });

  it('lists a branch printers with a secret URL each, offline until they poll', async () => {
    const res = await server.api.get(`${PRINTER}/GetBranchPrinters`, { token: token.brandmanager, query: { branchId: 1 } });
    expect(res.status).toBe(200);
    const list = res.body.result as PrinterOut[];
    expect(list.map((p) => p.name)).toEqual(['Bar', 'Kitchen']);
    expect(bar.path).toMatch(/^\/printing\/cloudprnt\/[A-Za-z0-9_-]{32}$/);
    expect(kitchen.path).toMatch(/^\/printing\/epson\/[A-Za-z0-9_-]{32}$/);
    expect(list.every((p) => !p.isOnline)).toBe(true);
    expect(bar.language).toBe('en');
  });
});

describe('Star CloudPRNT', () => {
  it('polls, gets the ticket as a black-and-white PNG one roll wide, and only its DELETE makes the job done', async () => {
    const order = await acceptedOrder();
    const printer = cloudPrntPrinter(`${server.url}${bar.path}`);
    const answer = await printer.poll();
    expect(answer).toEqual({ jobReady: true, mediaTypes: ['image/png'], jobToken: expect.stringMatching(/^job-\d+$/) });
    const got = await printer.fetchJob('image/png', answer.jobToken);
    expect(got.status).toBe(200);
    expect(got.contentType).toBe('image/png');
    expect([...got.body.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const meta = await sharp(got.body).metadata();
    expect(meta.width).toBe(TICKET_WIDTH);
    expect(meta.height).toBeGreaterThan(200);
    const { data } = await sharp(got.body).greyscale().raw().toBuffer({ resolveWithObject: true });
    expect(new Set(data)).toEqual(new Set([0, 255])); // two colours, nothing for the printer to dither
    expect(data.filter((v) => v === 0).length).toBeGreaterThan(2000); // text was drawn

    // Fetched but not confirmed: still pending, and offered again.
    let [job] = await jobsOf(order.id).then((jobs) => jobs.filter((j) => j.printerId === bar.id));
    expect(job).toMatchObject({ status: 'pending', fetchCount: 1, kind: 'ticket' });
    expect((await printer.poll()).jobToken).toBe(answer.jobToken);
    // A printer still printing is not handed the job again meanwhile.
    expect(await printer.poll({ printingInProgress: true })).toEqual({ jobReady: false });
    // Another media type is refused, the job untouched.
    expect((await printer.fetchJob('text/plain', answer.jobToken)).status).toBe(415);
    // An error code does not make it done.
    await printer.confirm(answer.jobToken, '520 Printer Offline');
    [job] = (await jobsOf(order.id)).filter((j) => j.printerId === bar.id);
    expect(job).toMatchObject({ status: 'pending', resultCode: '520 Printer Offline' });

    await printer.confirm(answer.jobToken, '200 OK');
    [job] = (await jobsOf(order.id)).filter((j) => j.printerId === bar.id);
    expect(job).toMatchObject({ status: 'done', resultCode: '200 OK' });
    expect(job.doneAt).not.toBeNull();
    expect(await printer.poll()).toEqual({ jobReady: false });
    // A late second DELETE changes nothing.
    await printer.confirm(answer.jobToken, '520 Printer Offline');
    expect((await jobsOf(order.id)).find((j) => j.id === job.id)).toMatchObject({ status: 'done', resultCode: '200 OK' });
  });

  it('a printer that fetches and never confirms gets the same job on every poll; it is never marked done', async () => {
    const order = await acceptedOrder([{ productId: menu.product('Cappuccino'), quantity: 1 }]);
    const printer = cloudPrntPrinter(`${server.url}${bar.path}`);
    const first = await printer.round({ confirm: false });
    const second = await printer.round({ confirm: false });
    const third = await printer.round({ confirm: false });
    expect(first!.jobId).toBe(second!.jobId);
    expect(third!.jobId).toBe(first!.jobId);
    const [job] = await jobsOf(order.id);
    expect(job).toMatchObject({ status: 'pending', fetchCount: 3, doneAt: null });
    await printer.round();
    expect((await jobsOf(order.id))[0]).toMatchObject({ status: 'done', fetchCount: 4 });
  });

  it('an unknown token, or another protocol’s URL, is a 404', async () => {
    const res = await fetch(`${server.url}/printing/cloudprnt/not-a-printer`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(404);
    const wrong = await fetch(`${server.url}${kitchen.path.replace('/epson/', '/cloudprnt/')}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(wrong.status).toBe(404);
  });
});

describe('Epson Server Direct Print', () => {
  it('answers ePOS-Print XML with the printjobid and a mono raster; SetResponse with success makes it done', async () => {
    const printer = epsonPrinter(`${server.url}${kitchen.path}`);
    await drain(printer); // the croissants of the orders above
    const order = await acceptedOrder();
    const res = await printer.getRequest();
    expect(res.status).toBe(200);
    expect(res.contentType).toMatch(/^text\/xml/);
    const [job] = (await jobsOf(order.id)).filter((j) => j.printerId === kitchen.id);
    const xml = res.text;
    expect(xml.startsWith('<?xml version="1.0" encoding="utf-8"?>\n<PrintRequestInfo Version="2.00"><ePOSPrint><Parameter>')).toBe(true);
    expect(xml).toContain(`<devid>local_printer</devid><timeout>10000</timeout><printjobid>job-${job.id}</printjobid></Parameter>`);
    expect(xml).toContain('<PrintData><epos-print xmlns="http://www.epson-pos.com/schemas/2011/03/epos-print"><image width="576" height="');
    expect(xml).toMatch(/<\/image><feed line="3"\/><cut type="feed"\/><\/epos-print><\/PrintData><\/ePOSPrint><\/PrintRequestInfo>$/);
    const [, width, height, base64] = /<image width="(\d+)" height="(\d+)" color="color_1" mode="mono">([A-Za-z0-9+/=]+)<\/image>/.exec(xml)!;
    const raster = Buffer.from(base64, 'base64');
    expect(Number(width)).toBe(576);
    expect(raster.length).toBe((Number(width) / 8) * Number(height)); // one bit a dot, whole bytes a row
    expect(raster.some((b) => b !== 0)).toBe(true);
    // The kitchen's ticket is the croissant's alone: the espresso is the bar's.
    const ticket = await ticketFor(server.database.db, order.id, { productTypeIds: [typeId.Food], language: 'en' }, 'ticket');
    expect(ticket!.lines.map((l) => l.text)).toEqual([
      `Order ${order.orderNumber}`, `#${order.id} · Pick-up`, expect.stringMatching(/^ASAP · Placed \d\d:\d\d$/), '', '1 × Product ' + menu.product('Butter Croissant'), '', 'Remarks: No sugar, please',
    ]);
    expect(job).toMatchObject({ status: 'pending', fetchCount: 1 });

    // A failed print (paper out) keeps it pending and it comes again.
    await printer.setResponse(`job-${job.id}`, false);
    expect((await jobsOf(order.id)).find((j) => j.id === job.id)).toMatchObject({ status: 'pending', resultCode: 'EPTR_REC_EMPTY' });
    const again = await printer.getRequest();
    expect(again.text).toContain(`<printjobid>job-${job.id}</printjobid>`);
    await printer.setResponse(`job-${job.id}`, true);
    expect((await jobsOf(order.id)).find((j) => j.id === job.id)).toMatchObject({ status: 'done' });
    const empty = await printer.getRequest();
    expect(empty).toMatchObject({ status: 200, text: '' });
  });

  it('a printer that fetches and never answers keeps its job pending and gets it again', async () => {
    const printer = epsonPrinter(`${server.url}${kitchen.path}`);
    await drain(printer);
    const order = await acceptedOrder([{ productId: menu.product('Halloumi Sandwich'), quantity: 1 }]);
    const a = await printer.round({ confirm: false });
    const b = await printer.round({ confirm: false });
    expect(a!.jobId).toBe(b!.jobId);
    expect((await jobsOf(order.id))[0]).toMatchObject({ status: 'pending', fetchCount: 2 });
    await printer.round();
    expect((await jobsOf(order.id))[0]).toMatchObject({ status: 'done' });
  });

  it('a request that is neither GetRequest nor SetResponse is a 400', async () => {
    const res = await fetch(`${server.url}${kitchen.path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'ConnectionType=Hello' });
    expect(res.status).toBe(400);
  });
});

describe('one ticket per order, printer and kind', () => {
  it('an order is queued once per printer that prints its items, however often acceptance is tried; a reprint is a new job', async () => {
    const order = await acceptedOrder();
    expect((await setStatus(order.id, 'accepted')).status).toBe(409);
    await server.database.db.transaction((tx) => queueTickets(tx, order));
    let jobs = await jobsOf(order.id);
    expect(jobs.map((j) => [j.printerId, j.kind]).sort()).toEqual([[bar.id, 'ticket'], [kitchen.id, 'ticket']].sort());

    const reprint = (body: Record<string, unknown>, who = 'branchuser') => server.api.post(`${PRINTER}/Reprint`, { token: token[who], body });
    expect((await reprint({ orderId: order.id })).body.result).toBe(2);
    expect((await reprint({ orderId: order.id, printerId: bar.id })).body.result).toBe(1);
    jobs = await jobsOf(order.id);
    expect(jobs.filter((j) => j.printerId === bar.id).map((j) => j.kind)).toEqual(['ticket', 'reprint-1', 'reprint-2']);
    expect(jobs.filter((j) => j.printerId === kitchen.id).map((j) => j.kind)).toEqual(['ticket', 'reprint-1']);
    expect(jobs.find((j) => j.kind === 'reprint-1')!.requestedBy).toBe(4);

    // Clicks at the same moment are as many reprints, each numbered once.
    const burst = await Promise.all([1, 2, 3].map(() => reprint({ orderId: order.id, printerId: kitchen.id })));
    expect(burst.map((r) => r.status)).toEqual([200, 200, 200]);
    expect((await jobsOf(order.id)).filter((j) => j.printerId === kitchen.id).map((j) => j.kind).sort())
      .toEqual(['reprint-1', 'reprint-2', 'reprint-3', 'reprint-4', 'ticket']);
    // A reprint's ticket says so.
    const ticket = await ticketFor(server.database.db, order.id, { productTypeIds: [], language: 'en' }, 'reprint-1');
    expect(ticket!.lines[0].text).toBe('*** REPRINT ***');

    const pending = await insertOrder(server);
    expect((await reprint({ orderId: pending.id })).status).toBe(400);
    const otherBrand = await insertOrder(server, { brandId: 8 });
    expect((await reprint({ orderId: otherBrand.id })).status).toBe(404);
    expect((await server.api.post(`${PRINTER}/Reprint`, { body: { orderId: order.id } })).status).toBe(401);
  });

  it('a printer gets only orders with items of its product types; one naming none prints everything', async () => {
    const coffeeOnly = await acceptedOrder([{ productId: menu.product('Flat White'), quantity: 3 }]);
    expect((await jobsOf(coffeeOnly.id)).map((j) => j.printerId)).toEqual([bar.id]);
    const all = await addPrinter({ name: 'Pass', protocol: 'starCloudPrnt' });
    const cookie = await acceptedOrder([{ productId: menu.product('Pistachio Cookie'), quantity: 1 }]);
    expect((await jobsOf(cookie.id)).map((j) => j.printerId)).toEqual([kitchen.id, all.id]);
    expect((await server.api.delete(`${PRINTER}/Delete`, { token: token.brandmanager, query: { id: all.id } })).status).toBe(200);
    expect((await jobsOf(cookie.id)).map((j) => j.printerId)).toEqual([kitchen.id]);
    expect(await readOrder(server, cookie.id)).toMatchObject({ status: 'accepted' });
    // Done with: the kitchen printer's queue is left empty for the tests after.
    await epsonPrinter(`${server.url}${kitchen.path}`).round();
    await cloudPrntPrinter(`${server.url}${bar.path}`).round();
  });
});

describe('Arabic tickets', () => {
  it('an Arabic-capable font is installed (fontconfig), as .ci/run makes sure', () => {
    expect(execFileSync('fc-list', [':lang=ar', 'family'], { encoding: 'utf8' }).trim()).not.toBe('');
  });

  it('words, names and options are Arabic, drawn from the right edge', async () => {
    const order = await insertOrder(server, { items: [{ productId: menu.product('Espresso'), quantity: 2 }], carDetails: 'Nissan Patrol White 12345', deliverySystem: 'carService' });
    const printer = { productTypeIds: [], language: 'ar' };
    const ar = await ticketFor(server.database.db, order.id, printer, 'ticket');
    expect(ar!.rtl).toBe(true);
    expect(ar!.lines.map((l) => l.text)).toEqual([
      `طلب ${order.orderNumber}`, `#${order.id} · خدمة السيارة`, expect.stringMatching(/^في أقرب وقت · وقت الطلب \d\d:\d\d$/),
      'السيارة: Nissan Patrol White 12345', '', '2 × إسبريسو',
    ]);
    const en = await ticketFor(server.database.db, order.id, { ...printer, language: 'en' }, 'ticket');
    // The first line's ink: Arabic ends at the right margin, English starts at the left one.
    const ink = async (t: typeof ar) => {
      const r = await ticketRaster(t!);
      const rowBytes = r.width / 8;
      let min = r.width, max = -1;
      for (let y = 0; y < 50; y++) for (let x = 0; x < r.width; x++) if (r.data[y * rowBytes + (x >> 3)] & (0x80 >> (x & 7))) { min = Math.min(min, x); max = Math.max(max, x); }
      return { min, max };
    };
    const arInk = await ink(ar), enInk = await ink(en);
    expect(arInk.max).toBeGreaterThan(TICKET_WIDTH - 30);
    expect(arInk.min).toBeGreaterThan(100);
    expect(enInk.min).toBeLessThan(30);
    expect(enInk.max).toBeLessThan(TICKET_WIDTH - 100);
  });
});

describe('online and offline', () => {
  it('a printer that polled in the last 2 minutes is online on the order screens; after that, offline', async () => {
    const states = async () => (await server.api.get(`${PRINTER}/GetPrinterStates`, { token: token.branchuser })).body.result as PrinterOut[];
    await cloudPrntPrinter(`${server.url}${bar.path}`).poll();
    expect((await states()).map((p) => [p.name, p.isOnline])).toEqual([['Bar', true], ['Kitchen', true]]);
    await server.database.db.update(printers).set({ lastPolledAt: new Date(Date.now() - PRINTER_OFFLINE_AFTER_MS - 1000) }).where(eq(printers.id, bar.id));
    expect((await states()).find((p) => p.id === bar.id)!.isOnline).toBe(false);
    expect((await states()).find((p) => p.id === bar.id)).not.toHaveProperty('path');
    // A brand 8 branch user sees none of them (scope).
    expect((await server.api.get(`${PRINTER}/GetPrinterStates`)).status).toBe(401);
  });
});

describe('the printer URL', () => {
  it('a renewed token makes the old URL a 404', async () => {
    const res = await server.api.put(`${PRINTER}/Update`, { token: token.brandmanager, body: { id: bar.id, renewToken: true } });
    expect(res.status).toBe(200);
    expect(res.body.result.path).not.toBe(bar.path);
    expect((await fetch(`${server.url}${bar.path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(404);
    const old = await server.database.db.select().from(printers).where(and(eq(printers.id, bar.id)));
    expect(`/printing/cloudprnt/${old[0].token}`).toBe(res.body.result.path);
    bar = res.body.result;
  });
});
