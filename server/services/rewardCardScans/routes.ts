import { Type, type Static } from 'typebox';
import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { branches, brands, orders, rewardCardScans, users } from '../../db/schema';
import { badRequest, Obj } from '../../http/envelope';
import { route, service } from '../../http/routes';
import { pageOf, pagingFields } from '../../http/paging';
import { Nullable } from '../../http/nullable';
import type { AppContext, Caller } from '../../http/context';
import { placeInScope, scopeWhere, unknownPlace } from '../../resources/scope';
import { branchScope } from '../../orders/scope';
import { searchOf, visibleCustomer } from '../customer/loyalty';
import { periodOf } from '../../http/period';
import { ageBandOf, AGE_BANDS, genderOf, kuwaitOffset, profileStatisticOf, scanStatisticOf, scansByBranchOf } from './scanStatistics';

/**
 * Reward card scans (SPEC.md 3, 7 "Customers" and "Statistics"; docs/decisions.md "Reward card
 * scans"): staff record a scan of a customer's reward card at a branch, read a customer's scans and
 * the scans of their places, and the brand's scan statistics on /brands/qrscans/{brandId}/{brandName}.
 */
const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });
const SCAN_TYPES = ['reward', 'redemption'] as const;

export const RewardCardScan = Obj('RewardCardScan', {
  id: Type.Integer(),
  customerId: Type.Integer(),
  customerName: Type.String(),
  customerPhone: Nullable(Type.String()),
  gender: Nullable(Type.String({ description: "male | female, read from the profile; null when it does not say." })),
  ageBand: Type.String({ description: `The customer's age band on the day of the scan: ${AGE_BANDS.join(', ')}.` }),
  brandId: Type.Integer(),
  brandName: Type.String(),
  branchId: Type.Integer(),
  branchName: Type.String(),
  scanType: Type.String({ description: 'reward | redemption' }),
  orderId: Nullable(Type.Integer()),
  scannedByName: Nullable(Type.String()),
  createdAt: Type.String(),
});
const ScanPage = Obj('RewardCardScanPage', { data: Type.Array(RewardCardScan), totalCount: Type.Integer() });
const CustomerScans = Obj('CustomerRewardCardScans', {
  data: Type.Array(RewardCardScan),
  totalCount: Type.Integer(),
  /** Over all the customer's scans the caller may see (the filters of the page, not its paging). */
  rewardScans: Type.Integer(),
  redemptionScans: Type.Integer(),
  firstScanAt: Nullable(Type.String()),
  lastScanAt: Nullable(Type.String()),
});
const RecordedScan = Obj('RecordedRewardCardScan', {
  scan: RewardCardScan,
  /** False when the idempotency key had been used already: the first scan is answered, nothing new is written. */
  recorded: Type.Boolean(),
});

const AgeBandCount = Obj('AgeBandCount', { band: Type.String(), customers: Type.Integer() });
const demographicFields = {
  male: Type.Integer(),
  female: Type.Integer(),
  genderNotGiven: Type.Integer({ description: 'Profiles whose gender is empty or not male/female.' }),
  ageBands: Type.Array(AgeBandCount, { description: `${AGE_BANDS.join(', ')}, in that order; they add up to the customers counted.` }),
};
export const RewardCardScanStatistic = Obj('RewardCardScanStatistic', {
  brandId: Type.Integer(),
  customers: Type.Integer({ description: 'scanned + notScanned.' }),
  scanned: Type.Integer({ description: 'Customers with a scan in the period; the demographics count these.' }),
  notScanned: Type.Integer({ description: "The brand's customers (a wallet, an order or a scan there; account opened before the period's end) without a scan in the period." }),
  newCustomers: Type.Integer({ description: 'Scanning customers whose scan in the period is their only one at the brand so far.' }),
  returnedCustomers: Type.Integer({ description: 'Scanning customers with more than one scan at the brand up to the period end.' }),
  ...demographicFields,
  scans: Type.Integer(),
  rewardScans: Type.Integer(),
  redemptionScans: Type.Integer(),
  byDate: Type.Array(Obj('RewardCardScansOnDate', {
    date: Type.String({ description: 'YYYY-MM-DD, Kuwait time.' }),
    scans: Type.Integer(), rewardScans: Type.Integer(), redemptionScans: Type.Integer(), customers: Type.Integer(),
  }), { description: 'The days with scans, oldest first.' }),
});
const CustomerProfileStats = Obj('CustomerProfileStats', {
  brandId: Type.Integer(),
  customers: Type.Integer({ description: "The brand's customers today: a wallet, an order or a scan there." }),
  ...demographicFields,
});
const BranchScans = Obj('RewardCardBranchScans', {
  branchId: Type.Integer(), branchName: Type.String(), brandId: Type.Integer(), brandName: Type.String(),
  scans: Type.Integer(), rewardScans: Type.Integer(), redemptionScans: Type.Integer(), customers: Type.Integer(),
});
const RewardCardsScansStatistic = Obj('RewardCardsScansStatistic', {
  scans: Type.Integer(), rewardScans: Type.Integer(), redemptionScans: Type.Integer(),
  customers: Type.Integer({ description: 'Distinct customers scanned.' }),
  byBranch: Type.Array(BranchScans, { description: 'Every branch of the scope (or the brand), those without scans too, most scans first.' }),
});

const periodFields = {
  fromDate: Type.Optional(Type.String({ format: 'date-time', description: 'Scans from this moment (ISO, inclusive).' })),
  toDate: Type.Optional(Type.String({ format: 'date-time', description: 'Scans before this moment (ISO, exclusive).' })),
};
const PagePeriodFields = {
  FromDate: Type.Optional(Type.String({ format: 'date-time', description: 'Scans from this moment (inclusive).' })),
  ToDate: Type.Optional(Type.String({ format: 'date-time', description: 'Scans before this moment (exclusive).' })),
};

const textOf = (d: Date | string) => (d instanceof Date ? d.toISOString() : new Date(d).toISOString());

/** A page of scans with the customer's demographics on the day of each scan. */
async function scanPage(db: Db, where: SQL | undefined, q: { SkipCount: number; MaxResultCount: number }) {
  const { offset, limit } = pageOf(q);
  const tz = kuwaitOffset();
  const local = sql`(${rewardCardScans.createdAt} at time zone ${tz})`;
  const scanner = sql<string | null>`(select "full_name" from "users" where "id" = ${rewardCardScans.scannedBy})`;
  const [rows, [{ n }]] = await Promise.all([
    db.select({
      s: rewardCardScans, customerName: users.fullName, customerPhone: users.phoneNumber,
      gender: sql<string | null>`${genderOf(sql`${users.gender}`)}`,
      ageBand: sql<string>`${ageBandOf(sql`${users.birthDate}`, sql`extract(year from ${local})::int`, sql`to_char(${local}, 'MM-DD')`)}`,
      brandName: brands.name, branchName: branches.name, scannedByName: scanner,
    }).from(rewardCardScans)
      .innerJoin(users, eq(users.id, rewardCardScans.userId))
      .innerJoin(brands, eq(brands.id, rewardCardScans.brandId))
      .innerJoin(branches, eq(branches.id, rewardCardScans.branchId))
      .where(where).orderBy(desc(rewardCardScans.createdAt), desc(rewardCardScans.id)).limit(limit).offset(offset),
    db.select({ n: sql<number>`count(*)::int` }).from(rewardCardScans).innerJoin(users, eq(users.id, rewardCardScans.userId)).where(where),
  ]);
  return {
    data: rows.map((r) => ({
      id: r.s.id, customerId: r.s.userId, customerName: r.customerName, customerPhone: r.customerPhone, gender: r.gender, ageBand: r.ageBand,
      brandId: r.s.brandId, brandName: r.brandName, branchId: r.s.branchId, branchName: r.branchName,
      scanType: r.s.scanType, orderId: r.s.orderId, scannedByName: r.scannedByName, createdAt: textOf(r.s.createdAt),
    })),
    totalCount: Number(n),
  };
}

/** Scans the caller may see: the one scope predicate, on the scan's brand and branch. */
const scanScope = (caller: Caller) => scopeWhere(caller, { brandId: rewardCardScans.brandId, branchId: rewardCardScans.branchId });

function scanPeriod(q: { FromDate?: string; ToDate?: string }): SQL | undefined {
  const period = periodOf({ fromDate: q.FromDate, toDate: q.ToDate });
  return and(
    period.from ? sql`${rewardCardScans.createdAt} >= ${period.from.toISOString()}::timestamptz` : undefined,
    period.to ? sql`${rewardCardScans.createdAt} < ${period.to.toISOString()}::timestamptz` : undefined,
  );
}

const fieldError = (field: string, message: string) => badRequest(message, [{ message, members: [field] }]);

/** A brand the caller may see the statistics of, or the statistics' 400. */
async function statisticBrand(db: Db, caller: Caller, brandId: number) {
  if (!(await placeInScope(db, caller, 'brand', brandId))) throw unknownPlace('brand', brandId);
  return brandId;
}

/**
 * Records one scan. The branch must be in the caller's scope (a branch user: their own), the
 * customer a registered one, and an order, when named, this customer's at this branch.
 */
async function recordScan(db: Db, caller: Caller, body: Static<typeof RecordInput>) {
  if (!(await placeInScope(db, caller, 'branch', body.branchId))) throw fieldError('branchId', `There is no branch ${body.branchId} you can scan at.`);
  const [branch] = await db.select({ brandId: branches.brandId }).from(branches).where(eq(branches.id, body.branchId));
  // The QR carries a guessable id: only the brand's own customers are scanned, anyone else is an unknown id (issue 20).
  await visibleCustomer(db, caller, body.customerId, branch.brandId);
  if (body.orderId !== undefined) {
    const [order] = await db.select({ id: orders.id }).from(orders)
      .where(and(eq(orders.id, body.orderId), eq(orders.userId, body.customerId), eq(orders.branchId, body.branchId)));
    if (!order) throw fieldError('orderId', `Order #${body.orderId} is not this customer's order at this branch.`);
  }
  // The key is the scanning user's own: another user's key never answers with a scan they may not see.
  const key = body.idempotencyKey ? `scan:${caller?.id ?? 'system'}:${body.idempotencyKey}` : null;
  const inserted = await db.insert(rewardCardScans).values({
    userId: body.customerId, brandId: branch.brandId, branchId: body.branchId, scanType: body.scanType,
    orderId: body.orderId ?? null, scannedBy: caller?.id ?? null, idempotencyKey: key,
  }).onConflictDoNothing({ target: rewardCardScans.idempotencyKey }).returning({ id: rewardCardScans.id });
  const id = inserted[0]?.id
    ?? (await db.select({ id: rewardCardScans.id }).from(rewardCardScans).where(eq(rewardCardScans.idempotencyKey, key!)))[0].id;
  const { data } = await scanPage(db, eq(rewardCardScans.id, id), { SkipCount: 0, MaxResultCount: 1 });
  return { scan: data[0], recorded: inserted.length > 0 };
}

const RecordInput = Obj('InsertUserRewardCardScanInput', {
  customerId: Id,
  branchId: Id,
  scanType: Type.Enum([...SCAN_TYPES], { description: 'reward: a visit rewarded; redemption: a reward redeemed.' }),
  orderId: Type.Optional(Id),
  idempotencyKey: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: "The scanner's key for this scan: a retry records nothing new." })),
});

export function registerRewardCardScans(app: FastifyInstance, ctx: AppContext) {
  service(app, ctx, 'RewardCardScans', [
    route({
      method: 'POST', name: 'InsertUserRewardCardScan', access: 'rewardCards.scan',
      summary: "Records a scan of a customer's reward card at a branch (the legacy list has no call for it; docs/decisions.md).",
      body: RecordInput, result: RecordedScan,
      handler: ({ body, caller, ctx }) => recordScan(ctx.db, caller, body),
    }),
    route({
      method: 'GET', name: 'GetUserRewardCardScansInfoByCustomer', access: 'customers.manage',
      summary: "A customer's reward card scans in the caller's places, newest first (the Scans tab of /customers/{id}).",
      query: Obj('GetUserRewardCardScansInfoByCustomerQuery', { ...pagingFields, CustomerId: Id, BrandId: Type.Optional(Id), ...PagePeriodFields }),
      result: CustomerScans,
      async handler({ query, caller, ctx }) {
        const period = scanPeriod(query);
        const customerId = await visibleCustomer(ctx.db, caller, query.CustomerId);
        const where = and(eq(rewardCardScans.userId, customerId), query.BrandId ? eq(rewardCardScans.brandId, query.BrandId) : undefined, period, scanScope(caller));
        const [page, [summary]] = await Promise.all([
          scanPage(ctx.db, where, query),
          ctx.db.select({
            reward: sql<number>`count(*) filter (where ${rewardCardScans.scanType} = 'reward')::int`,
            redemption: sql<number>`count(*) filter (where ${rewardCardScans.scanType} = 'redemption')::int`,
            first: sql<string | null>`min(${rewardCardScans.createdAt})`, last: sql<string | null>`max(${rewardCardScans.createdAt})`,
          }).from(rewardCardScans).where(where),
        ]);
        return {
          ...page,
          rewardScans: Number(summary.reward), redemptionScans: Number(summary.redemption),
          firstScanAt: summary.first ? textOf(summary.first) : null, lastScanAt: summary.last ? textOf(summary.last) : null,
        };
      },
    }),
    route({
      method: 'GET', name: 'GetUserRewardCardScansInfo', access: 'rewardCards.scan',
      summary: "The reward card scans of the caller's places (a branch user: their branch), newest first, with the customers' demographics.",
      query: Obj('GetUserRewardCardScansInfoQuery', {
        ...pagingFields, BrandId: Type.Optional(Id), BranchId: Type.Optional(Id), ScanType: Type.Optional(Type.Enum([...SCAN_TYPES])),
        Search: Type.Optional(Type.String({ maxLength: 100, description: "The customer's name or phone." })), ...PagePeriodFields,
      }),
      result: ScanPage,
      async handler({ query, caller, ctx }) {
        const period = scanPeriod(query);
        // A branch user's places are one branch, not a brand: for them BrandId only narrows (to nothing, if another brand's).
        if (query.BrandId && caller?.role !== 'BRANCH_USER' && !(await placeInScope(ctx.db, caller, 'brand', query.BrandId))) throw unknownPlace('brand', query.BrandId);
        return scanPage(ctx.db, and(
          scanScope(caller), period, searchOf(query.Search),
          query.BrandId ? eq(rewardCardScans.brandId, query.BrandId) : undefined,
          query.BranchId ? eq(rewardCardScans.branchId, query.BranchId) : undefined,
          query.ScanType ? eq(rewardCardScans.scanType, query.ScanType) : undefined,
        ), query);
      },
    }),
  ]);
  service(app, ctx, 'Statistic', [
    route({
      method: 'GET', name: 'GetCustomerRewardCardScanStatistic', access: 'brands.qrScans',
      summary: "A brand's reward card scans over all time: scanned and not scanned, gender, age bands, new and returned, reward and redemption.",
      query: Obj('CustomerRewardCardScanStatisticQuery', { brandId: Id }), result: RewardCardScanStatistic,
      handler: async ({ query, caller, ctx }) => scanStatisticOf(ctx.db, await statisticBrand(ctx.db, caller, query.brandId), {}),
    }),
    route({
      method: 'GET', name: 'GetCustomerRewardCardScanStatisticByDates', access: 'brands.qrScans',
      summary: 'The same figures between two dates, with the scans of each day.',
      query: Obj('CustomerRewardCardScanStatisticByDatesQuery', {
        brandId: Id,
        fromDate: Type.String({ format: 'date-time', description: 'From this moment (ISO, inclusive).' }),
        toDate: Type.String({ format: 'date-time', description: 'Before this moment (ISO, exclusive).' }),
      }),
      result: RewardCardScanStatistic,
      async handler({ query, caller, ctx }) {
        const period = periodOf(query);
        return scanStatisticOf(ctx.db, await statisticBrand(ctx.db, caller, query.brandId), period);
      },
    }),
    route({
      method: 'GET', name: 'GetCustomerProfileStats', access: 'brands.qrScans',
      summary: "The profiles of a brand's customers today: how many, by gender and by age band.",
      query: Obj('CustomerProfileStatsQuery', { brandId: Id }), result: CustomerProfileStats,
      handler: async ({ query, caller, ctx }) => profileStatisticOf(ctx.db, await statisticBrand(ctx.db, caller, query.brandId)),
    }),
    route({
      method: 'GET', name: 'GetRewardCardsScansStatistic', access: 'brands.qrScans',
      summary: "Reward card scans per branch of the caller's places (or one brand), optionally between two dates.",
      query: Obj('RewardCardsScansStatisticQuery', { brandId: Type.Optional(Id), ...periodFields }), result: RewardCardsScansStatistic,
      async handler({ query, caller, ctx }) {
        const period = periodOf(query);
        if (query.brandId !== undefined) await statisticBrand(ctx.db, caller, query.brandId);
        const where = and(branchScope(caller), query.brandId !== undefined ? eq(branches.brandId, query.brandId) : undefined) ?? sql`true`;
        return scansByBranchOf(ctx.db, where, period);
      },
    }),
  ]);
}
