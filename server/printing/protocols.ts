import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../http/context';
import type { Db } from '../db/client';
import { confirm, jobIdOf, jobToken, markFetched, nextJob, poll, printerByToken, type PrinterRow, type PrintJobRow } from './jobs';
import { ticketFor } from './ticket';
import { ticketPng, ticketRaster } from './render';

/**
 * The two ways a kitchen printer prints without a computer beside it: it polls our server over
 * HTTP(S) at a URL holding its secret token, and we answer its next job.
 *
 * Star CloudPRNT (CloudPRNT developer guide, protocol version 1): the printer POSTs its status as
 * JSON; we answer `{ jobReady, mediaTypes, jobToken }`. It then GETs `?type=<one of mediaTypes>&token=`
 * and prints what it got, then DELETEs `?code=<result>&token=`: a code starting with 2 ("200 OK")
 * is printed; anything else is not.
 *
 * Epson Server Direct Print (TM-i / TM-m30 "Server Direct Print"): the printer POSTs a form,
 * `ConnectionType=GetRequest` (with ID, Name), and gets ePOS-Print XML, a <PrintRequestInfo> whose
 * <printjobid> names the job; after printing it POSTs `ConnectionType=SetResponse` with the
 * <PrintResponseInfo> (the printjobid and `success`) in `ResponseFile`.
 *
 * Both: a job is done only on the printer's confirmation; fetched and unconfirmed, it is offered
 * again at the next poll. These routes are for printers, not people: outside the API's envelope
 * and the OpenAPI document (as the payment providers' webhooks), answered in the printers' formats.
 */
export const PRINTER_PROTOCOLS = ['starCloudPrnt', 'epsonServerDirect'] as const;
export type PrinterProtocol = (typeof PRINTER_PROTOCOLS)[number];

/** Where each protocol's printer polls, its token appended (the console shows it whole to copy). */
export const PRINTER_PATH: Record<PrinterProtocol, string> = {
  starCloudPrnt: '/printing/cloudprnt/',
  epsonServerDirect: '/printing/epson/',
};

/** The one media type we offer a CloudPRNT printer: a picture, so Arabic is joined and right to left (render.ts). */
export const CLOUDPRNT_MEDIA_TYPE = 'image/png';
/** The device id of an Epson TM printer's own print unit (its default for Server Direct Print). */
export const EPSON_DEVICE_ID = 'local_printer';
/** How long the Epson printer tries to print one job before it reports a failure. */
export const EPSON_TIMEOUT_MS = 10_000;
const EPOS_NS = 'http://www.epson-pos.com/schemas/2011/03/epos-print';

/**
 * The result kept on a job that has nothing left for its printer (its product types were changed
 * after it was queued): closed, so it never blocks the jobs behind it.
 */
const NOTHING_TO_PRINT = 'nothing to print';

const hide = { schema: { hide: true } };
type TokenParams = { Params: { token: string } };

export function registerPrinterProtocols(app: FastifyInstance, ctx: AppContext) {
  app.register(async (printing) => {
    // Epson posts forms; only these routes read them.
    printing.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 256 * 1024 }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    });

    const printerOf = async (token: string, protocol: PrinterProtocol, reply: FastifyReply) => {
      const printer = await printerByToken(ctx.db, token);
      if (!printer || printer.protocol !== protocol) {
        await reply.status(404).type('text/plain').send('Unknown printer');
        return null;
      }
      return printer;
    };

    // ── Star CloudPRNT ──────────────────────────────────────────────────────
    printing.post<TokenParams & { Body: unknown }>(`${PRINTER_PATH.starCloudPrnt}:token`, hide, async (req, reply) => {
      const printer = await printerOf(req.params.token, 'starCloudPrnt', reply);
      if (!printer) return reply;
      const body = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>;
      const status = typeof body.statusCode === 'string' ? safeDecode(body.statusCode) : null;
      const job = await poll(ctx.db, printer, status);
      // A printer still printing is not handed another job yet.
      const ready = !!job && body.printingInProgress !== true;
      return reply.type('application/json').send(ready
        ? { jobReady: true, mediaTypes: [CLOUDPRNT_MEDIA_TYPE], jobToken: jobToken(job) }
        : { jobReady: false });
    });

    printing.get<TokenParams & { Querystring: Record<string, string | undefined> }>(`${PRINTER_PATH.starCloudPrnt}:token`, hide, async (req, reply) => {
      const printer = await printerOf(req.params.token, 'starCloudPrnt', reply);
      if (!printer) return reply;
      if (req.query.type !== undefined && req.query.type !== CLOUDPRNT_MEDIA_TYPE) {
        return reply.status(415).type('text/plain').send(`Only ${CLOUDPRNT_MEDIA_TYPE}`);
      }
      const job = await jobAsked(ctx.db, printer, req.query.token);
      if (!job) return reply.status(404).type('text/plain').send('No job');
      const ticket = await ticketFor(ctx.db, job.orderId, printer, job.kind);
      if (!ticket) {
        await confirm(ctx.db, printer.id, job.id, true, NOTHING_TO_PRINT);
        return reply.status(404).type('text/plain').send('No job');
      }
      const png = await ticketPng(ticket);
      await markFetched(ctx.db, job.id);
      return reply.type(CLOUDPRNT_MEDIA_TYPE).header('cache-control', 'no-store').send(png);
    });

    printing.delete<TokenParams & { Querystring: Record<string, string | undefined> }>(`${PRINTER_PATH.starCloudPrnt}:token`, hide, async (req, reply) => {
      const printer = await printerOf(req.params.token, 'starCloudPrnt', reply);
      if (!printer) return reply;
      const job = await jobAsked(ctx.db, printer, req.query.token);
      if (job) {
        const code = req.query.code ?? null;
        await confirm(ctx.db, printer.id, job.id, code === null || code.trim().startsWith('2'), code);
      }
      return reply.type('application/json').send({});
    });

    // ── Epson Server Direct Print ───────────────────────────────────────────
    printing.post<TokenParams & { Body: unknown }>(`${PRINTER_PATH.epsonServerDirect}:token`, hide, async (req, reply) => {
      const printer = await printerOf(req.params.token, 'epsonServerDirect', reply);
      if (!printer) return reply;
      const form = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>;
      if (form.ConnectionType === 'GetRequest') {
        const job = await poll(ctx.db, printer, typeof form.Status === 'string' ? form.Status : null);
        const xml = job ? await printRequestXml(ctx.db, printer, job) : null;
        if (job && !xml) await confirm(ctx.db, printer.id, job.id, true, NOTHING_TO_PRINT);
        if (!xml) return reply.type('text/xml; charset=utf-8').send('');
        await markFetched(ctx.db, job!.id);
        return reply.type('text/xml; charset=utf-8').send(xml);
      }
      if (form.ConnectionType === 'SetResponse') {
        for (const result of printResponses(typeof form.ResponseFile === 'string' ? form.ResponseFile : '')) {
          await confirm(ctx.db, printer.id, result.jobId, result.success, result.code);
        }
        return reply.type('text/xml; charset=utf-8').send('');
      }
      return reply.status(400).type('text/plain').send('ConnectionType must be GetRequest or SetResponse');
    });
  });
}

/** CloudPRNT names the job by the jobToken we gave; a printer without tokens means its oldest pending job. */
async function jobAsked(db: Db, printer: PrinterRow, token: string | undefined): Promise<PrintJobRow | null> {
  if (token === undefined || token === '') return nextJob(db, printer.id);
  const id = jobIdOf(token);
  return id === null ? null : nextJob(db, printer.id, id);
}

const safeDecode = (s: string) => { try { return decodeURIComponent(s); } catch { return s; } };

/** One job as ePOS-Print XML for Server Direct Print: the ticket as a mono picture, then feed and cut. */
export async function printRequestXml(db: Db, printer: PrinterRow, job: PrintJobRow): Promise<string | null> {
  const ticket = await ticketFor(db, job.orderId, printer, job.kind);
  if (!ticket) return null;
  const image = await ticketRaster(ticket);
  return '<?xml version="1.0" encoding="utf-8"?>\n'
    + '<PrintRequestInfo Version="2.00"><ePOSPrint>'
    + `<Parameter><devid>${EPSON_DEVICE_ID}</devid><timeout>${EPSON_TIMEOUT_MS}</timeout><printjobid>${jobToken(job)}</printjobid></Parameter>`
    + `<PrintData><epos-print xmlns="${EPOS_NS}">`
    + `<image width="${image.width}" height="${image.height}" color="color_1" mode="mono">${image.data.toString('base64')}</image>`
    + '<feed line="3"/><cut type="feed"/>'
    + '</epos-print></PrintData></ePOSPrint></PrintRequestInfo>';
}

/**
 * The results in a SetResponse's <PrintResponseInfo>: each <ePOSPrint> names its printjobid and
 * carries <response success="true|false" code="…">. Read with patterns: the document is small, of
 * one fixed shape, and only these three values matter (no XML parser is installed).
 */
export function printResponses(xml: string): { jobId: number; success: boolean; code: string | null }[] {
  const out: { jobId: number; success: boolean; code: string | null }[] = [];
  for (const [, block] of xml.slice(0, 256 * 1024).matchAll(/<ePOSPrint>([\s\S]*?)<\/ePOSPrint>/g)) {
    const jobId = jobIdOf(/<printjobid>\s*([^<\s]*)\s*<\/printjobid>/.exec(block)?.[1]);
    const response = /<response\b([^>]*)>/.exec(block)?.[1] ?? '';
    if (jobId === null) continue;
    out.push({
      jobId,
      success: /\bsuccess\s*=\s*"true"/.test(response),
      code: /\bcode\s*=\s*"([^"]*)"/.exec(response)?.[1] || null,
    });
  }
  return out;
}
