import { and, asc, desc, eq, gt, gte, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { branches, brands, orderItems, orders, users } from '../db/schema';
import { badRequest } from '../http/envelope';
import type { Caller } from '../http/context';
import type { DeliverySystem, OrderArrival, OrderStatus } from '../../machines/orderLifecycle';
import { orderScope } from './scope';

/** Filters of the staff order lists (Store/Get*Orders*). Every field narrows; none widens the caller's scope. */
export interface OrderFilter {
  /** The list's own statuses (e.g. current = pending + accepted + ready). */
  statuses?: readonly OrderStatus[];
  /** The caller's status filter, intersected with `statuses`. */
  status?: OrderStatus;
  payment?: 'paid' | 'unpaid';
  deliverySystem?: DeliverySystem;
  arrival?: OrderArrival;
  /** One order. */
  id?: number;
  /** The customer who placed the orders (the Orders tab of /customers/{id}). */
  userId?: number;
  /** Order number, order id, customer name or phone, case-insensitive, partial. */
  search?: string;
  branchId?: number;
  brandId?: number;
  /** Only orders with a greater id: a reconnecting live console fetches what it missed. */
  createdAfterId?: number;
  fromDate?: Date;
  toDate?: Date;
}

export interface OrderPage {
  skip: number;
  take: number;
  /** "<column> [asc|desc]", column one of SORTABLE; default "id desc" (newest first). */
  sorting?: string;
}

export const MAX_PAGE_SIZE = 100;

const SORTABLE = { id: orders.id, createdat: orders.createdAt, total: orders.total, status: orders.status } as const;

export interface StatusCounts { pending: number; accepted: number; ready: number; rejected: number; closed: number }

export interface OrderRow {
  id: number;
  orderNumber: string;
  status: string;
  arrival: string;
  payment: string;
  refund: string;
  isViewed: boolean;
  version: number;
  deliverySystem: string;
  customerName: string;
  customerPhone: string | null;
  userId: number;
  total: number;
  subtotal: number;
  tax: number;
  deliveryFee: number;
  discount: number;
  paymentSystemId: number;
  carDetails: string | null;
  specialRemarks: string | null;
  createdAt: string;
  paidAt: string | null;
  branchId: number;
  brandId: number;
  /** Names for the staff who see more than one branch (the Branch and Brand columns). */
  branchName: string;
  brandName: string;
  itemsCount: number;
  /** What to make, readable on the row: "2× Latte (Large, Oat milk) · 1× Croissant". */
  itemsText: string;
  acceptedAt: string | null;
  readyAt: string | null;
  statusReason: string | null;
}

/** The where clause of a list: the caller's scope and the filters. */
export function orderWhere(caller: Caller, filter: OrderFilter, opts: { ignoreStatus?: boolean } = {}): SQL | undefined {
  const parts: (SQL | undefined)[] = [orderScope(caller)];
  if (!opts.ignoreStatus) {
    let statuses = filter.statuses;
    if (filter.status) statuses = !statuses || statuses.includes(filter.status) ? [filter.status] : [];
    if (statuses) parts.push(statuses.length === 0 ? sql`false` : statuses.length === 1 ? eq(orders.status, statuses[0]) : inArray(orders.status, [...statuses]));
  }
  if (filter.id !== undefined) parts.push(eq(orders.id, filter.id));
  if (filter.userId !== undefined) parts.push(eq(orders.userId, filter.userId));
  if (filter.payment) parts.push(eq(orders.payment, filter.payment));
  if (filter.deliverySystem) parts.push(eq(orders.deliverySystem, filter.deliverySystem));
  if (filter.arrival) parts.push(eq(orders.arrival, filter.arrival));
  if (filter.branchId !== undefined) parts.push(eq(orders.branchId, filter.branchId));
  if (filter.brandId !== undefined) parts.push(eq(orders.brandId, filter.brandId));
  if (filter.createdAfterId !== undefined) parts.push(gt(orders.id, filter.createdAfterId));
  if (filter.fromDate) parts.push(gte(orders.createdAt, filter.fromDate));
  if (filter.toDate) parts.push(lt(orders.createdAt, filter.toDate));
  const search = filter.search?.trim();
  if (search) {
    const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const byId = /^#?\d{1,9}$/.test(search) ? eq(orders.id, Number(search.replace('#', ''))) : undefined;
    // One ilike over the order's own texts (a third of the work of three), plus its registered customer.
    parts.push(or(
      byId,
      sql`concat_ws(' ', ${orders.orderNumber}, ${orders.guestCustomerName}, ${orders.guestPhoneNumber}) ilike ${pattern}`,
      sql`${orders.userId} in (select ${users.id} from ${users} where ${users.fullName} ilike ${pattern} or ${users.phoneNumber} ilike ${pattern})`,
    ));
  }
  return and(...parts);
}

function orderBy(sorting: string | undefined) {
  const text = (sorting ?? '').trim();
  if (!text) return [desc(orders.id)];
  const match = /^(\w+)(?:\s+(asc|desc))?$/i.exec(text);
  const column = match && SORTABLE[match[1].toLowerCase() as keyof typeof SORTABLE];
  if (!match || !column) {
    throw badRequest(`Sorting "${text}" is not supported. Sort by id, createdAt, total or status, then asc or desc.`);
  }
  const dir = (match[2] ?? 'asc').toLowerCase() === 'desc' ? desc : asc;
  return column === orders.id ? [dir(orders.id)] : [dir(column), dir(orders.id)];
}

/**
 * One page of orders with its total count (and, on request, the status counts of the same
 * filters). The page's ids are picked first, on the indexed orders table alone; the customer
 * and the items count are joined for those rows only, so a page costs the same at 100,000 orders.
 */
export async function listOrders(
  db: Db, caller: Caller, filter: OrderFilter, page: OrderPage, opts: { includeCounts?: boolean } = {},
): Promise<{ data: OrderRow[]; totalCount: number; counts?: StatusCounts }> {
  const where = orderWhere(caller, filter);
  const sort = orderBy(page.sorting);
  const take = Math.min(Math.max(page.take, 1), MAX_PAGE_SIZE);
  const pageIds = db.select({ id: orders.id }).from(orders).where(where).orderBy(...sort).limit(take).offset(Math.max(page.skip, 0)).as('page_ids');
  const [data, totalCount, counts] = await Promise.all([
    db
      .select({
        id: orders.id, orderNumber: orders.orderNumber, status: orders.status, arrival: orders.arrival,
        payment: orders.payment, refund: orders.refund, isViewed: orders.isViewed, version: orders.version,
        deliverySystem: orders.deliverySystem,
        customerName: sql<string>`coalesce(${orders.guestCustomerName}, ${users.fullName}, '')`,
        customerPhone: sql<string | null>`coalesce(${orders.guestPhoneNumber}, ${users.phoneNumber})`,
        userId: orders.userId,
        total: orders.total, subtotal: orders.subtotal, tax: orders.tax, deliveryFee: orders.deliveryFee, discount: orders.discount,
        paymentSystemId: orders.paymentSystemId, carDetails: orders.carDetails, specialRemarks: orders.specialRemarks,
        createdAt: orders.createdAt, paidAt: orders.paidAt, branchId: orders.branchId, brandId: orders.brandId,
        branchName: sql<string>`coalesce(${branches.name}, '')`, brandName: sql<string>`coalesce(${brands.name}, '')`,
        acceptedAt: orders.acceptedAt, readyAt: orders.readyAt, statusReason: orders.statusReason,
        itemsCount: sql<number>`(select coalesce(sum(${orderItems.quantity}), 0)::int from ${orderItems} where ${orderItems.orderId} = ${orders.id})`,
        itemsText: sql<string>`coalesce((select string_agg(${orderItems.quantity} || '× ' || ${orderItems.name}
          || coalesce(' (' || (select string_agg(o->>'name', ', ') from jsonb_array_elements(${orderItems.options}) o) || ')', ''), ' · ' order by ${orderItems.id})
          from ${orderItems} where ${orderItems.orderId} = ${orders.id}), '')`,
      })
      .from(pageIds)
      .innerJoin(orders, eq(orders.id, pageIds.id))
      .leftJoin(users, eq(users.id, orders.userId))
      .leftJoin(branches, eq(branches.id, orders.branchId))
      .leftJoin(brands, eq(brands.id, orders.brandId))
      .orderBy(...sort),
    countOrders(db, where),
    opts.includeCounts ? statusCounts(db, caller, filter) : Promise.resolve(undefined),
  ]);
  return {
    data: data.map((r) => ({
      ...r,
      total: Number(r.total), subtotal: Number(r.subtotal), tax: Number(r.tax), deliveryFee: Number(r.deliveryFee), discount: Number(r.discount),
      itemsCount: Number(r.itemsCount),
      createdAt: toIso(r.createdAt), paidAt: r.paidAt ? toIso(r.paidAt) : null,
      acceptedAt: r.acceptedAt ? toIso(r.acceptedAt) : null, readyAt: r.readyAt ? toIso(r.readyAt) : null,
    })),
    totalCount,
    ...(counts && { counts }),
  };
}

const toIso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();

export async function countOrders(db: Db, where: SQL | undefined): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(orders).where(where);
  return Number(row.n);
}

/** Pending, accepted, ready, rejected and closed counts for the scope and filters, whatever the status filter. */
export async function statusCounts(db: Db, caller: Caller, filter: OrderFilter): Promise<StatusCounts> {
  const rows = await db
    .select({ status: orders.status, n: sql<number>`count(*)::int` })
    .from(orders)
    .where(orderWhere(caller, filter, { ignoreStatus: true }))
    .groupBy(orders.status);
  const counts: StatusCounts = { pending: 0, accepted: 0, ready: 0, rejected: 0, closed: 0 };
  for (const r of rows) if (r.status in counts) counts[r.status as keyof StatusCounts] = Number(r.n);
  return counts;
}
