import { randomBytes } from 'node:crypto';
import { Type } from 'typebox';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { branches, brands, orders, printJobs, printers, productTypes } from '../db/schema';
import { badRequest, notFound, Obj } from '../http/envelope';
import { Nullable } from '../http/nullable';
import { route, service } from '../http/routes';
import type { AppContext, Caller } from '../http/context';
import type { Db } from '../db/client';
import { placeInScope, unknownPlace } from '../resources/scope';
import { branchScope, orderScope } from '../orders/scope';
import { LANGUAGES } from '../../domain/languages';
import { PRINTER_OFFLINE_AFTER_MS } from '../../domain/orderSettings';
import { PRINTER_PATH, PRINTER_PROTOCOLS, type PrinterProtocol } from './protocols';
import { queueReprint } from './jobs';

const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });
const Protocol = Type.Union(PRINTER_PROTOCOLS.map((p) => Type.Literal(p)), { description: "'starCloudPrnt' (Star CloudPRNT) or 'epsonServerDirect' (Epson Server Direct Print)." });
const Language = Type.Union(LANGUAGES.map((l) => Type.Literal(l.code)), { description: "The tickets' language: 'en' or 'ar'." });
const Name = Type.String({ minLength: 1, maxLength: 60, pattern: '\\S' });
const ProductTypeIds = Type.Array(Id, { maxItems: 100, description: 'The product types (categories) it prints; empty: every item.' });

/** A branch's printer as its managers see it: the URL path with its token, to copy into the printer. */
export const Printer = Obj('Printer', {
  id: Type.Integer(),
  branchId: Type.Integer(),
  name: Type.String(),
  protocol: Type.String(),
  productTypeIds: Type.Array(Type.Integer()),
  language: Type.String(),
  /** Path of the printer's URL on this server, its secret token included; the console prefixes its own origin. */
  path: Type.String(),
  lastPolledAt: Nullable(Type.String()),
  lastStatus: Nullable(Type.String()),
  isOnline: Type.Boolean({ description: 'Polled within the last 2 minutes.' }),
  pendingJobs: Type.Integer({ description: 'Jobs it has not confirmed yet.' }),
});
/** What the order screens show of a printer: online or not, and what waits for it. No token. */
export const PrinterState = Obj('PrinterState', {
  id: Type.Integer(),
  branchId: Type.Integer(),
  branchName: Type.String(),
  name: Type.String(),
  lastPolledAt: Nullable(Type.String()),
  isOnline: Type.Boolean(),
  pendingJobs: Type.Integer(),
});
export const OrderPrintJob = Obj('OrderPrintJob', {
  id: Type.Integer(),
  printerId: Type.Integer(),
  printerName: Type.String(),
  kind: Type.String(),
  status: Type.String({ description: "'pending' until the printer confirms it printed, then 'done'." }),
  fetchCount: Type.Integer(),
  resultCode: Nullable(Type.String()),
  createdAt: Type.String(),
  doneAt: Nullable(Type.String()),
});

const newToken = () => randomBytes(24).toString('base64url');
const isOnline = (lastPolledAt: Date | null, now = Date.now()) => !!lastPolledAt && now - lastPolledAt.getTime() < PRINTER_OFFLINE_AFTER_MS;
const pending = sql<number>`(select count(*)::int from ${printJobs} where ${printJobs.printerId} = ${printers.id} and ${printJobs.status} = 'pending')`;

async function printersOf(db: Db, where: ReturnType<typeof and>) {
  const rows = await db.select({ printer: printers, pendingJobs: pending, branchName: branches.name }).from(printers)
    .innerJoin(branches, eq(branches.id, printers.branchId)).where(where).orderBy(asc(printers.branchId), asc(printers.name), asc(printers.id));
  return rows.map(({ printer: p, pendingJobs, branchName }) => ({
    id: p.id, branchId: p.branchId, branchName, name: p.name, protocol: p.protocol, productTypeIds: p.productTypeIds, language: p.language,
    path: `${PRINTER_PATH[p.protocol as PrinterProtocol]}${p.token}`,
    lastPolledAt: p.lastPolledAt?.toISOString() ?? null, lastStatus: p.lastStatus,
    isOnline: isOnline(p.lastPolledAt), pendingJobs,
  }));
}

/** The printer, in the caller's scope (a manager's branches), or a 404. */
async function ownPrinter(db: Db, caller: Caller, id: number) {
  const [row] = await db.select({ printer: printers }).from(printers).innerJoin(branches, eq(branches.id, printers.branchId))
    .where(and(eq(printers.id, id), branchScope(caller)));
  if (!row) throw notFound('Printer');
  return row.printer;
}

/** Product types must be the branch's brand's: a printer never names another brand's category. */
async function checkProductTypes(db: Db, branchId: number, ids: readonly number[]) {
  if (!ids.length) return;
  const found = await db.select({ id: productTypes.id }).from(productTypes).innerJoin(branches, eq(branches.brandId, productTypes.brandId))
    .where(and(eq(branches.id, branchId), inArray(productTypes.id, [...ids])));
  const missing = ids.filter((id) => !found.some((f) => f.id === id));
  if (missing.length) {
    const message = `There is no product type ${missing[0]} in this branch's menu.`;
    throw badRequest(message, [{ message, members: ['productTypeIds'] }]);
  }
}

async function onePrinter(db: Db, id: number) {
  return (await printersOf(db, eq(printers.id, id)))[0];
}

/**
 * Printer (issue 25): a branch's kitchen printers (its managers add, change and remove them, and
 * copy each one's URL), their state on the order screens, an order's print jobs and its reprint.
 */
export function registerPrinters(app: FastifyInstance, ctx: AppContext) {
  service(app, ctx, 'Printer', [
    route({
      method: 'GET', name: 'GetBranchPrinters', access: 'printers.manage',
      summary: "A branch's printers with their URLs, whether each polled in the last 2 minutes, and the jobs each has not confirmed.",
      query: Obj('GetBranchPrintersQuery', { branchId: Id }), result: Type.Array(Printer),
      async handler({ query, caller, ctx }) {
        if (!(await placeInScope(ctx.db, caller, 'branch', query.branchId))) throw unknownPlace('branch', query.branchId);
        return printersOf(ctx.db, eq(printers.branchId, query.branchId));
      },
    }),
    route({
      method: 'POST', name: 'Create', access: 'printers.manage',
      summary: "Adds a printer to a branch, with a new secret token in its URL; its tickets start in the brand's language.",
      body: Obj('PrinterCreateInput', { branchId: Id, name: Name, protocol: Protocol, productTypeIds: Type.Optional(ProductTypeIds), language: Type.Optional(Language) }),
      result: Printer,
      async handler({ body, caller, ctx }) {
        if (!(await placeInScope(ctx.db, caller, 'branch', body.branchId))) throw unknownPlace('branch', body.branchId);
        await checkProductTypes(ctx.db, body.branchId, body.productTypeIds ?? []);
        const [brand] = await ctx.db.select({ language: brands.defaultLanguage }).from(branches).innerJoin(brands, eq(brands.id, branches.brandId))
          .where(eq(branches.id, body.branchId));
        const language = body.language ?? brand?.language ?? 'en';
        const [created] = await ctx.db.insert(printers).values({
          branchId: body.branchId, name: body.name.trim(), protocol: body.protocol, token: newToken(), productTypeIds: body.productTypeIds ?? [], language,
        }).returning({ id: printers.id });
        return onePrinter(ctx.db, created.id);
      },
    }),
    route({
      method: 'PUT', name: 'Update', access: 'printers.manage',
      summary: "Changes a printer's name, product types or language (only the fields sent); `renewToken` gives it a new URL (the old one stops working).",
      body: Obj('PrinterUpdateInput', {
        id: Id, name: Type.Optional(Name), productTypeIds: Type.Optional(ProductTypeIds), language: Type.Optional(Language), renewToken: Type.Optional(Type.Boolean()),
      }),
      result: Printer,
      async handler({ body, caller, ctx }) {
        const printer = await ownPrinter(ctx.db, caller, body.id);
        if (body.productTypeIds) await checkProductTypes(ctx.db, printer.branchId, body.productTypeIds);
        await ctx.db.update(printers).set({
          ...(body.name !== undefined && { name: body.name.trim() }),
          ...(body.productTypeIds !== undefined && { productTypeIds: body.productTypeIds }),
          ...(body.language !== undefined && { language: body.language }),
          ...(body.renewToken && { token: newToken() }),
        }).where(eq(printers.id, printer.id));
        return onePrinter(ctx.db, printer.id);
      },
    }),
    route({
      method: 'DELETE', name: 'Delete', access: 'printers.manage',
      summary: 'Removes a printer and the jobs it had not printed; its URL stops working.',
      query: Obj('PrinterDeleteQuery', { id: Id }), result: Type.Boolean(),
      async handler({ query, caller, ctx }) {
        const printer = await ownPrinter(ctx.db, caller, query.id);
        await ctx.db.delete(printers).where(eq(printers.id, printer.id));
        return true;
      },
    }),
    route({
      method: 'GET', name: 'GetPrinterStates', access: 'orders.view',
      summary: "The printers of the caller's branches (a branch user's own): online (polled in the last 2 minutes) or not, and their unconfirmed jobs. `branchId` narrows to one branch.",
      query: Obj('GetPrinterStatesQuery', { branchId: Type.Optional(Id) }), result: Type.Array(PrinterState),
      async handler({ query, caller, ctx }) {
        const rows = await printersOf(ctx.db, and(branchScope(caller), query.branchId === undefined ? undefined : eq(printers.branchId, query.branchId)));
        return rows.map(({ id, branchId, branchName, name, lastPolledAt, isOnline, pendingJobs }) => ({ id, branchId, branchName, name, lastPolledAt, isOnline, pendingJobs }));
      },
    }),
    route({
      method: 'GET', name: 'GetOrderPrintJobs', access: 'orders.view',
      summary: "An order's print jobs, oldest first: which printer, whether it confirmed the print.",
      query: Obj('GetOrderPrintJobsQuery', { orderId: Id }), result: Type.Array(OrderPrintJob),
      async handler({ query, caller, ctx }) {
        await orderInScope(ctx.db, caller, query.orderId);
        const rows = await ctx.db.select({ job: printJobs, printerName: printers.name }).from(printJobs)
          .innerJoin(printers, eq(printers.id, printJobs.printerId)).where(eq(printJobs.orderId, query.orderId)).orderBy(asc(printJobs.id));
        return rows.map(({ job: j, printerName }) => ({
          id: j.id, printerId: j.printerId, printerName, kind: j.kind, status: j.status, fetchCount: j.fetchCount, resultCode: j.resultCode,
          createdAt: j.createdAt.toISOString(), doneAt: j.doneAt?.toISOString() ?? null,
        }));
      },
    }),
    route({
      method: 'POST', name: 'Reprint', access: 'orders.operate',
      summary: "Prints an accepted order's tickets again: a new job for each of its branch's printers that prints its items (or the one named). Answers how many were queued.",
      body: Obj('PrinterReprintInput', { orderId: Id, printerId: Type.Optional(Id) }), result: Type.Integer(),
      async handler({ body, caller, ctx }) {
        const order = await orderInScope(ctx.db, caller, body.orderId);
        if (order.status === 'pending' || order.status === 'rejected') {
          throw badRequest(`Order #${order.id} is ${order.status}: only an accepted order has a ticket to print again.`);
        }
        const jobs = await queueReprint(ctx.db, order, caller!.id, body.printerId);
        if (!jobs.length) throw badRequest(body.printerId === undefined ? "No printer of this branch prints this order's items." : "That printer does not print this order's items.");
        return jobs.length;
      },
    }),
  ]);
}

async function orderInScope(db: Db, caller: Caller, orderId: number) {
  const [order] = await db.select({ id: orders.id, branchId: orders.branchId, status: orders.status }).from(orders)
    .where(and(eq(orders.id, orderId), orderScope(caller)));
  if (!order) throw notFound('Order');
  return order;
}

