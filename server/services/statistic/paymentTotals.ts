import { and, gte, lt, ne, sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client';
import { orders, paymentDailyStats } from '../../db/schema';
import { NO_PAID_DAY, paymentRowsOf, refreshStatistics, splitPeriod } from './rollup';
import type { Period } from '../../http/period';

/** The columns Payment History filters by, on the orders or on payment_daily_stats alike. */
export interface PaymentColumns {
  brandId: typeof orders.brandId | typeof paymentDailyStats.brandId;
  branchId: typeof orders.branchId | typeof paymentDailyStats.branchId;
  paymentSystemId: typeof orders.paymentSystemId | typeof paymentDailyStats.paymentSystemId;
  refund: typeof orders.refund | typeof paymentDailyStats.refund;
}

/**
 * Payment History's totals (count and amount of every matching payment, all pages) for payments
 * made in `period`, without reading every payment: the whole Kuwait days of the period from
 * payment_daily_stats, the pieces of a day at its ends from the paid orders through the same SQL
 * (paymentRowsOf), so the totals equal a count over the orders. `filters` builds the same
 * conditions (scope, brand, branch, method, refund) on either table's columns.
 */
export async function paymentTotals(db: Db, filters: (c: PaymentColumns) => SQL | undefined, period: Period) {
  await refreshStatistics(db);
  const { days, pieces } = splitPeriod(period);
  const d = paymentDailyStats;
  const parts: SQL[] = [];
  if (days) {
    const where = and(
      filters(d),
      days.fromDay !== undefined ? gte(d.day, days.fromDay) : undefined,
      days.toDay !== undefined ? lt(d.day, days.toDay) : undefined,
      // A payment without a payment time is in no period that has an end.
      period.from || period.to ? ne(d.day, NO_PAID_DAY) : undefined,
    );
    parts.push(sql`select ${d.payments} as payments, ${d.amount} as amount from ${d}${where ? sql` where ${where}` : sql``}`);
  }
  for (const piece of pieces) {
    const where = and(
      filters(orders),
      piece.from ? gte(orders.paidAt, piece.from) : undefined,
      piece.to ? lt(orders.paidAt, piece.to) : undefined,
    );
    parts.push(sql`select p."payments", p."amount" from (${paymentRowsOf(sql`(select * from ${orders}${where ? sql` where ${where}` : sql``}) o`)}) p`);
  }
  const [row] = rowsOf<{ n: number; amount: string }>(await db.execute(sql`
    select coalesce(sum(x."payments"), 0)::int as n, coalesce(sum(x."amount"), 0)::text as amount from (${sql.join(parts, sql` union all `)}) x`));
  return { n: Number(row.n), amount: row.amount };
}
