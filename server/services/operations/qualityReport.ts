import { Type, type Static } from 'typebox';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { rowsOf, type Db } from '../../db/client';
import { branches, brands } from '../../db/schema';
import { Obj } from '../../http/envelope';
import { route, service } from '../../http/routes';
import type { AppContext, Caller } from '../../http/context';
import { checkPlacesInScope, scopeWhere } from '../../resources/scope';
import { periodFields, periodOf } from '../../http/period';
import { NOT_ACCEPTED_IN_TIME } from '../../../machines/orderLifecycle';
import { inPeriod } from '../statistic/statistics';

const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });

const figures = {
  orders: Type.Integer({ description: 'Orders placed in the period.' }),
  accepted: Type.Integer({ description: 'Of them, accepted by the branch.' }),
  medianAcceptSeconds: Type.Union([Type.Number(), Type.Null()], { description: 'Median time from placing to accepting; null without accepted orders.' }),
  p90AcceptSeconds: Type.Union([Type.Number(), Type.Null()], { description: '90th percentile of the time to accept.' }),
  medianReadySeconds: Type.Union([Type.Number(), Type.Null()], { description: 'Median time from accepting to ready.' }),
  rejected: Type.Integer({ description: 'Rejected, by the branch or by the acceptance deadline (refunds not counted).' }),
  notAcceptedInTime: Type.Integer({ description: `Of the rejected, those the deadline rejected ('${NOT_ACCEPTED_IN_TIME}').` }),
  noShows: Type.Integer({ description: 'Pick-up or car-side orders whose customer never came.' }),
  refunded: Type.Integer({ description: 'Orders whose refund was approved.' }),
  refundedAmount: Type.Number({ description: 'What those refunds gave back.' }),
};
export const BranchQuality = Obj('BranchQuality', {
  branchId: Type.Integer(), branchName: Type.String(), brandId: Type.Integer(), brandName: Type.String(), ...figures,
});
export const QualityReport = Obj('QualityReport', {
  overall: Obj('QualityTotals', figures),
  branches: Type.Array(BranchQuality, { description: 'Every branch in scope, those without orders too, by orders.' }),
});

const QualityQuery = Obj('QualityReportQuery', {
  brandId: Type.Optional(Id),
  branchId: Type.Optional(Id),
  ...periodFields('Orders placed'),
});

type Figures = Static<typeof QualityReport>['overall'];
type Row = Record<string, string | number | null> & { branch_id: number | null };

const seconds = (v: unknown) => (v == null ? null : Math.round(Number(v)));
const figuresOf = (r: Row | undefined): Figures => ({
  orders: Number(r?.orders ?? 0), accepted: Number(r?.accepted ?? 0),
  medianAcceptSeconds: seconds(r?.median_accept), p90AcceptSeconds: seconds(r?.p90_accept), medianReadySeconds: seconds(r?.median_ready),
  rejected: Number(r?.rejected ?? 0), notAcceptedInTime: Number(r?.not_in_time ?? 0), noShows: Number(r?.no_shows ?? 0),
  refunded: Number(r?.refunded ?? 0), refundedAmount: Number(r?.refunded_amount ?? 0),
});

/**
 * How well each branch serves (docs/decisions.md "Quality report"): how fast it accepts and
 * readies, and how often an order ends badly, over the orders placed in a period. One pass over
 * the scope's orders gives each branch and the whole scope (grouping sets), so the medians of the
 * whole are true medians, not averages of the branches'.
 */
export async function qualityReport(db: Db, caller: Caller, query: Static<typeof QualityQuery>) {
  const period = periodOf(query);
  await checkPlacesInScope(db, caller, query);
  const places = and(
    scopeWhere(caller, { brandId: branches.brandId, branchId: branches.id }),
    query.brandId !== undefined ? eq(branches.brandId, query.brandId) : undefined,
    query.branchId !== undefined ? eq(branches.id, query.branchId) : undefined,
  );
  const branchRows = await db.select({ id: branches.id, name: branches.name, brandId: brands.id, brandName: brands.name })
    .from(branches).innerJoin(brands, eq(brands.id, branches.brandId)).where(places).orderBy(asc(branches.name), asc(branches.id));
  if (!branchRows.length) return { overall: figuresOf(undefined), branches: [] };

  const ids = sql.join(branchRows.map((b) => sql`${b.id}`), sql`, `);
  const rows = rowsOf<Row>(await db.execute(sql`
    select o."branch_id", grouping(o."branch_id")::int as whole,
      count(*)::int as orders,
      count(o."accepted_at")::int as accepted,
      percentile_cont(0.5) within group (order by extract(epoch from o."accepted_at" - o."created_at")) as median_accept,
      percentile_cont(0.9) within group (order by extract(epoch from o."accepted_at" - o."created_at")) as p90_accept,
      percentile_cont(0.5) within group (order by extract(epoch from o."ready_at" - o."accepted_at")) as median_ready,
      (count(*) filter (where o."status" = 'rejected' and o."refund" <> 'approved'))::int as rejected,
      (count(*) filter (where o."status" = 'rejected' and o."status_reason" = ${NOT_ACCEPTED_IN_TIME}))::int as not_in_time,
      (count(*) filter (where o."arrival" = 'noShow'))::int as no_shows,
      (count(*) filter (where o."refund" = 'approved'))::int as refunded,
      coalesce(sum(o."total") filter (where o."refund" = 'approved'), 0)::text as refunded_amount
    from "orders" o
    where o."branch_id" in (${ids}) and ${inPeriod(sql`o."created_at"`, period)}
    group by grouping sets ((o."branch_id"), ())`));
  const whole = rows.find((r) => Number(r.whole) === 1);
  const byBranch = new Map(rows.filter((r) => Number(r.whole) === 0).map((r) => [Number(r.branch_id), r]));
  return {
    overall: figuresOf(whole),
    branches: branchRows
      .map((b) => ({ branchId: b.id, branchName: b.name, brandId: b.brandId, brandName: b.brandName, ...figuresOf(byBranch.get(b.id)) }))
      .sort((a, b) => b.orders - a.orders || a.branchName.localeCompare(b.branchName) || a.branchId - b.branchId),
  };
}

export function registerQualityReport(app: FastifyInstance, ctx: AppContext) {
  service(app, ctx, 'QualityReport', [
    route({
      method: 'GET', name: 'GetBranchQualityReport', access: 'qualityReport.view',
      summary: "Each branch's service over a period: time to accept and to ready, rejections, orders the deadline rejected, no-shows and refunds; a branch user's own branch.",
      query: QualityQuery, result: QualityReport,
      handler: ({ query, caller, ctx }) => qualityReport(ctx.db, caller, query),
    }),
  ]);
}
