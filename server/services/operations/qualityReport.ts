import { Type, type Static } from 'typebox';
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { branches, brands } from '../../db/schema';
import { Obj } from '../../http/envelope';
import { route, service } from '../../http/routes';
import type { AppContext, Caller } from '../../http/context';
import { checkPlacesInScope, scopeWhere } from '../../resources/scope';
import { periodFields, periodOf } from '../../http/period';
import { NOT_ACCEPTED_IN_TIME } from '../../../machines/orderLifecycle';
import { qualityFigures, type QualityFigures } from '../statistic/quality';

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
const seconds = (v: number | null | undefined) => (v == null ? null : Math.round(v));
const figuresOf = (r: QualityFigures | undefined): Figures => ({
  orders: r?.orders ?? 0, accepted: r?.accepted ?? 0,
  medianAcceptSeconds: seconds(r?.medianAccept), p90AcceptSeconds: seconds(r?.p90Accept), medianReadySeconds: seconds(r?.medianReady),
  rejected: r?.rejected ?? 0, notAcceptedInTime: r?.notAcceptedInTime ?? 0, noShows: r?.noShows ?? 0,
  refunded: r?.refunded ?? 0, refundedAmount: Number(r?.refundedAmount ?? 0),
});

/**
 * How well each branch serves (docs/decisions.md "Quality report"): how fast it accepts and
 * readies, and how often an order ends badly, over the orders placed in a period. The figures of
 * each branch and of the whole scope come from the statistics rollup (../statistic/quality.ts); the
 * medians of the whole are true medians over its orders, not averages of the branches'.
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

  const { overall, byBranch } = await qualityFigures(db, branchRows.map((b) => b.id), period);
  return {
    overall: figuresOf(overall),
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
