/** Kitchen printers that poll us (Star CloudPRNT, Epson Server Direct Print) and their print jobs (server/printing). */
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { branches } from './organisation';
import { orders } from './orders';
import { users } from './users';

export const printers = pgTable('printers', {
  id: serial('id').primaryKey(),
  branchId: integer('branch_id').notNull().references(() => branches.id),
  name: text('name').notNull(),
  /** server/printing/protocols.ts PRINTER_PROTOCOLS: 'starCloudPrnt' | 'epsonServerDirect' (CHECK). */
  protocol: text('protocol').notNull(),
  /** The secret in the printer's URL: whoever holds it speaks for this printer, nothing more. */
  token: text('token').notNull(),
  /** The product types (categories) it prints; empty: every item. */
  productTypeIds: integer('product_type_ids').array().notNull().default(sql`'{}'::integer[]`),
  /** domain/languages.ts: the language of its tickets (the brand's default when added). */
  language: text('language').notNull().default('en'),
  /** The printer's last poll (online within PRINTER_OFFLINE_AFTER_MS) and the status it reported. */
  lastPolledAt: timestamp('last_polled_at', { withTimezone: true }),
  lastStatus: text('last_status'),
  createdAt: createdAt(),
}, (t) => [uniqueIndex('printers_token_uq').on(t.token), index('printers_branch_idx').on(t.branchId)]);

/**
 * One ticket for one printer. (order, printer, kind) is unique, so the ticket of an accepted order
 * is queued once however often acceptance is retried; a reprint is a new kind ('reprint-<n>').
 * A job is done only when the printer confirms it; until then it is offered again on each poll.
 */
export const printJobs = pgTable('print_jobs', {
  id: serial('id').primaryKey(),
  orderId: integer('order_id').notNull().references(() => orders.id, { onDelete: 'cascade' }),
  printerId: integer('printer_id').notNull().references(() => printers.id, { onDelete: 'cascade' }),
  /** 'ticket' (queued when the order is accepted) or 'reprint-<n>' (asked from the console). */
  kind: text('kind').notNull(),
  /** 'pending' until the printer confirms a print, then 'done' (CHECK). */
  status: text('status').notNull().default('pending'),
  requestedBy: integer('requested_by').references(() => users.id),
  /** How often the printer fetched it, and the result it last reported (a failure keeps it pending). */
  fetchCount: integer('fetch_count').notNull().default(0),
  fetchedAt: timestamp('fetched_at', { withTimezone: true }),
  resultCode: text('result_code'),
  doneAt: timestamp('done_at', { withTimezone: true }),
  createdAt: createdAt(),
}, (t) => [
  uniqueIndex('print_jobs_order_printer_kind_uq').on(t.orderId, t.printerId, t.kind),
  // A poll reads the printer's oldest pending job.
  index('print_jobs_pending_idx').on(t.printerId, t.id).where(sql`${t.status} = 'pending'`),
]);
