import { and, asc, desc, eq, gt, gte, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db } from '../db/client';
import { branches, brands, orders, orderSearchText, users } from '../db/schema';
import { badRequest } from '../http/envelope';
import type { Caller } from '../http/context';
import type { DeliverySystem, OrderArrival, OrderStatus } from '../../machines/orderLifecycle';
import { orderScope } from './scope';
import { countOrders, keptOrderCount } from './listCounts';
import { noStatusCounts, orderRowOf, staffOrderColumns, type OrderRow, type StatusCounts } from './row';

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

export type { OrderRow, StatusCounts } from './row';

/** The where clause of a list: the caller's scope and the filters. */
export function orderWhere(caller: Caller, filter: OrderFilter, opts: { ignoreStatus?: boolean; search?: SQL } = {}): SQL | undefined {
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
  if (opts.search) parts.push(opts.search);
  else if (search) parts.push(searchWhere(search));
  return and(...parts);
}

/** The LIKE patterns of a search: the text as typed, and a phone typed with spaces, dashes or a "+" by its digits. */
function searchPatterns(search: string): string[] {
  const like = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const patterns = [like(search)];
  const digits = search.replace(/\D/g, '');
  if (/^[\d\s+\-().]+$/.test(search) && digits.length >= 3 && digits !== search) patterns.push(like(digits));
  return patterns;
}

/** The search's arms: the order's own texts, its registered customer's name and phone, and its id. */
function searchArms(search: string) {
  const patterns = searchPatterns(search);
  return {
    onOrder: or(...patterns.map((p) => sql`${orderSearchText(orders)} ilike ${p}`))!,
    customers: or(...patterns.flatMap((p) => [sql`${users.fullName} ilike ${p}`, sql`${users.phoneNumber} ilike ${p}`]))!,
    id: /^#?\d{1,9}$/.test(search) ? Number(search.replace('#', '')) : undefined,
  };
}

/**
 * The orders of the registered customers the search matches. The customers' ids are read first, as
 * one array: then the orders are found on their user index (a bitmap the trigram arm's can be OR-ed
 * with), where `in (select …)` was planned as a scan of every order hashed against the customers.
 */
function customersOrders(customers: SQL): SQL {
  return sql`${orders.userId} = any(array(select ${users.id} from ${users} where ${customers}))`;
}

/**
 * The ids of the matching orders, as one set (each arm on its own index), whatever the scope. With
 * `limit`, each registered customer's orders are read up to it (a lateral walk of their user index,
 * which a limit cannot turn into a scan of every order hashed against the customers).
 */
function searchIds(search: string, limit?: number): SQL {
  const { onOrder, customers, id } = searchArms(search);
  const byId = id === undefined ? sql`` : sql` union all select ${id}::int`;
  const ofCustomers = limit === undefined
    ? sql`select ${orders.id} from ${orders} where ${customersOrders(customers)}`
    : sql`select o.id from ${users} cross join lateral (select ${orders.id} as id from ${orders} where ${orders.userId} = ${users.id} limit ${limit}) o where ${customers}`;
  return sql`select ${orders.id} from ${orders} where ${onOrder} union all ${ofCustomers}${byId}`;
}

/**
 * Order number, id, customer name or phone, partial and case-insensitive. The order's own texts are
 * one expression (orderSearchText) that a trigram index covers; registered customers are found on
 * their own trigram indexes and their orders by user. The matching ids are gathered first, as one
 * array (`id = any(array(… union all …))`), and the page is picked among them by primary key: as an
 * OR of the same arms, or as a join, the planner could not tell how few orders matched and walked every
 * order in the list's order looking for them. A phone typed with spaces, dashes or a "+"
 * ("+965 9988-7766") also matches by its digits, the way phones are kept.
 */
function searchWhere(search: string): SQL {
  return sql`${orders.id} = any(array(${searchIds(search)}))`;
}

/**
 * A search gathers at most this many matching ids before its page is picked. A broader one (a
 * regular customer's name matches a third of all orders) is answered by walking the list in its
 * own order with the search as a filter: a page then stops after its rows, where gathering every
 * match first cost a scan of the orders.
 */
export const SEARCH_GATHERED = 2_000;

/**
 * The search's part of a list's where clause, chosen by how many orders match: the matching ids
 * themselves (up to SEARCH_GATHERED, read once on the trigram indexes), or the search as a filter
 * of the ordered walk (searchWhere's arms written as an OR).
 */
export async function searchFilter(db: Db, search: string | undefined): Promise<SQL | undefined> {
  const text = search?.trim();
  if (!text) return undefined;
  const rows = rowsOf<{ id: number }>(await db.execute(sql`select m.id from (${searchIds(text, SEARCH_GATHERED + 1)}) m(id) limit ${SEARCH_GATHERED + 1}`));
  if (rows.length <= SEARCH_GATHERED) {
    const ids = [...new Set(rows.map((r) => Number(r.id)))];
    return sql`${orders.id} = any(${`{${ids.join(',')}}`}::int[])`;
  }
  const { onOrder, customers, id } = searchArms(text);
  return or(onOrder, customersOrders(customers), id === undefined ? undefined : eq(orders.id, id))!;
}

/** The sort of a list; `reversed` flips every key (a deep page read from the far end). */
function orderBy(sorting: string | undefined, reversed = false) {
  const text = (sorting ?? '').trim();
  const match = /^(\w+)(?:\s+(asc|desc))?$/i.exec(text);
  const column = text ? match && SORTABLE[match[1].toLowerCase() as keyof typeof SORTABLE] : orders.id;
  if (!column) {
    throw badRequest(`Sorting "${text}" is not supported. Sort by id, createdAt, total or status, then asc or desc.`);
  }
  const descending = text ? (match![2] ?? 'asc').toLowerCase() === 'desc' : true;
  const dir = descending !== reversed ? desc : asc;
  // id breaks ties, so the order is total and the reversed one is its exact mirror.
  return column === orders.id ? [dir(orders.id)] : [dir(column), dir(orders.id)];
}

/**
 * From this offset on, a page is placed from the list's count: an offset walks the index entries
 * before the page, and past the middle fewer of them lie behind it than before it.
 */
const DEEP_PAGE = 500;

/**
 * Where a page's ids are read: the offset and limit in the list's own order, or, for a page past
 * the middle, in the reversed order from the far end (the last page costs what the first does).
 */
export function pagePlacement(skip: number, take: number, totalCount: number | undefined) {
  if (totalCount === undefined || skip <= totalCount / 2) return { reversed: false, offset: skip, limit: take };
  const end = Math.min(skip + take, totalCount);
  return { reversed: true, offset: Math.max(0, totalCount - end), limit: Math.max(0, end - skip) };
}

/** The ids of one page, on the orders table and its indexes alone, placed by pagePlacement. */
export function pageIdsQuery(db: Db, where: SQL | undefined, sorting: string | undefined, at: ReturnType<typeof pagePlacement>) {
  return db.select({ id: orders.id }).from(orders).where(where).orderBy(...orderBy(sorting, at.reversed)).limit(at.limit).offset(at.offset);
}

/**
 * One page of orders with its total count (and, on request, the status counts of the same
 * filters). The page's ids are picked first, on the indexed orders table alone; the customer
 * and the items count are joined for those rows only, so a page costs the same at 300,000 orders.
 */
export async function listOrders(
  db: Db, caller: Caller, filter: OrderFilter, page: OrderPage, opts: { includeCounts?: boolean } = {},
): Promise<{ data: OrderRow[]; totalCount: number; counts?: StatusCounts }> {
  const search = await searchFilter(db, filter.search);
  const where = orderWhere(caller, filter, { search });
  const sort = orderBy(page.sorting);
  const take = Math.min(Math.max(page.take, 1), MAX_PAGE_SIZE);
  const skip = Math.max(page.skip, 0);
  // Only these filters read columns the lifecycle writes (transition.ts); the scope, dates, customer and search do not.
  const changes = { changes: Boolean(filter.statuses || filter.status || filter.payment || filter.arrival) };
  const counted = skip >= DEEP_PAGE ? await keptOrderCount(db, where, changes) : undefined;
  const pageIds = pageIdsQuery(db, where, page.sorting, pagePlacement(skip, take, counted)).as('page_ids');
  const [data, totalCount, counts] = await Promise.all([
    db
      .select(staffOrderColumns)
      .from(pageIds)
      .innerJoin(orders, eq(orders.id, pageIds.id))
      .leftJoin(users, eq(users.id, orders.userId))
      .leftJoin(branches, eq(branches.id, orders.branchId))
      .leftJoin(brands, eq(brands.id, orders.brandId))
      .orderBy(...sort),
    counted ?? keptOrderCount(db, where, changes),
    opts.includeCounts ? statusCounts(db, caller, filter, search) : Promise.resolve(undefined),
  ]);
  return {
    data: data.map(orderRowOf),
    totalCount,
    ...(counts && { counts }),
  };
}

export { countOrders };

/** Pending, accepted, ready, rejected and closed counts for the scope and filters, whatever the status filter. */
export async function statusCounts(db: Db, caller: Caller, filter: OrderFilter, search?: SQL): Promise<StatusCounts> {
  const rows = await db
    .select({ status: orders.status, n: sql<number>`count(*)::int` })
    .from(orders)
    .where(orderWhere(caller, filter, { ignoreStatus: true, search }))
    .groupBy(orders.status);
  const counts = noStatusCounts();
  for (const r of rows) if (r.status in counts) counts[r.status as keyof StatusCounts] = Number(r.n);
  return counts;
}
