import { and, eq, inArray, ne, type SQL } from 'drizzle-orm';
import { Type, type Static } from 'typebox';
import type { Tx } from '../../db/client';
import { branches, customerGroups, products, rewardPrograms } from '../../db/schema';
import { badRequest, Obj } from '../../http/envelope';
import { route } from '../../http/routes';
import { Nullable } from '../../http/nullable';
import { defineResource } from '../../resources/resource';

/** A branch's reward program (SPEC.md 3): purchases collection, points collection or constant discount. */
export const RewardProgram = Obj('RewardProgram', {
  id: Type.Integer(),
  branchId: Type.Integer(),
  kind: Type.String({ description: "'purchases' (purchases collection), 'points' (points collection) or 'discount' (constant discount)." }),
  name: Type.String(),
  isActive: Type.Boolean(),
  target: Nullable(Type.Integer()),
  productIds: Type.Array(Type.Integer()),
  pointsPerKd: Nullable(Type.Number()),
  customerGroupId: Nullable(Type.Integer()),
  discountPercent: Nullable(Type.Number()),
});
type Program = typeof rewardPrograms.$inferSelect;
type Kind = Program['kind'];

const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });
const common = {
  name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
  isActive: Type.Boolean(),
};
const kindFields = {
  purchases: {
    target: Type.Integer({ minimum: 1, maximum: 1000, description: 'Punches that make one free item.' }),
    productIds: Type.Array(Id, { minItems: 1, maxItems: 200, description: 'The products that earn a punch each.' }),
  },
  points: {
    pointsPerKd: Type.Number({ exclusiveMinimum: 0, maximum: 10000, multipleOf: 0.001, description: 'Points per KD paid.' }),
  },
  discount: {
    customerGroupId: Id,
    discountPercent: Type.Number({ exclusiveMinimum: 0, maximum: 100, multipleOf: 0.001 }),
  },
} as const;
const createBody = (kind: Kind, title: string) =>
  Obj(title, {
    branchId: Id, ...common, isActive: Type.Optional(Type.Boolean()), ...kindFields[kind as keyof typeof kindFields],
    // The console's list of one kind sends its fixed filter with a new row.
    kind: Type.Optional(Type.Enum([kind])),
  });
const editBody = (kind: Kind, title: string) =>
  Obj(title, { id: Id, ...Type.Partial(Type.Object({ ...common, ...kindFields[kind as keyof typeof kindFields] })).properties });

export const itemOf = (row: Program): Static<typeof RewardProgram> => ({
  id: row.id, branchId: row.branchId, kind: row.kind, name: row.name, isActive: row.isActive,
  target: row.target, productIds: row.productIds ?? [],
  pointsPerKd: row.pointsPerKd == null ? null : Number(row.pointsPerKd),
  customerGroupId: row.customerGroupId, discountPercent: row.discountPercent == null ? null : Number(row.discountPercent),
});

const KIND_LABEL: Record<Kind, string> = { purchases: 'purchases collection', points: 'points collection', discount: 'constant discount' };
const KIND_CALL: Record<Kind, string> = { purchases: 'PurchasesCollection', points: 'PointsCollection', discount: 'ConstantDiscount' };
type Next = { id?: number; branchId: number; kind: Kind; isActive?: boolean; productIds?: number[] | null; customerGroupId?: number | null };

/** The rules of a program as it will be saved: its products and group belong to the branch's brand; one active earning program per kind. */
async function checkProgram(tx: Tx, next: Next) {
  const [branch] = await tx.select({ brandId: branches.brandId }).from(branches).where(eq(branches.id, next.branchId));
  if (!branch) throw badRequest('There is no such branch.');
  if (next.kind === 'purchases') {
    const ids = [...new Set(next.productIds ?? [])];
    const found = ids.length ? await tx.select({ id: products.id }).from(products).where(and(inArray(products.id, ids), eq(products.brandId, branch.brandId))) : [];
    const missing = ids.filter((id) => !found.some((f) => f.id === id));
    if (missing.length) throw badRequest(`productIds: product ${missing[0]} is not a product of this branch's brand.`);
  }
  if (next.kind === 'discount' && next.customerGroupId != null) {
    const [group] = await tx.select({ id: customerGroups.id }).from(customerGroups)
      .where(and(eq(customerGroups.id, next.customerGroupId), eq(customerGroups.brandId, branch.brandId)));
    if (!group) throw badRequest('customerGroupId: there is no such customer group in this brand.');
  }
  // A new program is active unless it says otherwise.
  if (next.isActive !== false && next.kind !== 'discount') {
    const where: SQL[] = [eq(rewardPrograms.branchId, next.branchId), eq(rewardPrograms.kind, next.kind), eq(rewardPrograms.isActive, true)];
    if (next.id) where.push(ne(rewardPrograms.id, next.id));
    const [other] = await tx.select({ id: rewardPrograms.id }).from(rewardPrograms).where(and(...where)).limit(1);
    if (other) throw badRequest(`This branch already has an active ${KIND_LABEL[next.kind]} (program ${other.id}); switch it off first.`);
  }
}

/**
 * A constant discount is the shop's existing group discount (orders' discountGroupId and
 * discountPercent, server/services/store/planOrder.ts): saving the program sets its group's
 * percent, switching it off or deleting it sets the percent back to 0.
 */
async function applyDiscount(tx: Tx, row: Program | null, before: Program | null) {
  if (before?.kind === 'discount' && before.customerGroupId != null && before.customerGroupId !== row?.customerGroupId) {
    await tx.update(customerGroups).set({ discountPercent: '0' }).where(eq(customerGroups.id, before.customerGroupId));
  }
  if (row?.kind === 'discount' && row.customerGroupId != null) {
    await tx.update(customerGroups).set({ discountPercent: row.isActive ? String(row.discountPercent ?? 0) : '0' }).where(eq(customerGroups.id, row.customerGroupId));
  }
}

/** The body as columns: the name trimmed, products once each, numbers as numeric text; a new program is active unless it says otherwise. */
function columnsOf(body: Record<string, unknown>, before: Program | null): Partial<Program> {
  const values: Partial<Program> = { ...body } as Partial<Program>;
  if (typeof body.name === 'string') values.name = body.name.trim();
  if (Array.isArray(body.productIds)) values.productIds = [...new Set(body.productIds as number[])];
  for (const f of ['pointsPerKd', 'discountPercent'] as const) if (body[f] !== undefined) values[f] = String(body[f]);
  if (!before) values.isActive ??= true;
  return values;
}

/**
 * SPEC.md 3 reward programs of a branch: the list (GetBranchActualRewardProgramsByBranchId), a
 * create and an edit call per kind (CreatePurchasesCollection, EditPurchasesCollection, …, each
 * with its own body), DeleteDiscountProgram (?Id), history, and the shop's list of the active ones.
 */
export const rewardProgramResource = defineResource({
  service: 'RewardPrograms',
  table: rewardPrograms,
  item: RewardProgram,
  create: Type.Object({ branchId: Id }),
  update: Type.Object({ id: Id }),
  scope: { level: 'branch', field: 'branchId' },
  can: { view: 'branches.manage', create: 'branches.manage', update: 'branches.manage', delete: 'branches.manage' },
  methods: { list: 'GetBranchActualRewardProgramsByBranchId', delete: 'DeleteDiscountProgram?Id' },
  label: 'Reward program',
  sortable: ['id', 'name', 'kind', 'isActive'],
  defaultSorting: 'id asc',
  filters: { branchId: 'equals', kind: 'equals', isActive: 'equals', name: 'contains' },
  toItem: (row) => itemOf(row),
  kinds: {
    field: 'kind',
    of: Object.fromEntries((Object.keys(KIND_CALL) as Kind[]).map((kind) => [kind, {
      label: KIND_LABEL[kind],
      create: createBody(kind, `Create${KIND_CALL[kind]}Input`),
      update: editBody(kind, `Edit${KIND_CALL[kind]}Input`),
      methods: { create: `Create${KIND_CALL[kind]}`, update: `POST Edit${KIND_CALL[kind]}` },
    }])),
  },
  toColumns: columnsOf,
  check: (tx, next) => checkProgram(tx, next as Next),
  afterWrite: (tx, { before, after }) => applyDiscount(tx, after, before),
  uniqueMessages: { reward_programs_active_uq: 'This branch already has an active program of this kind; switch it off first.' },
  calls: () => [
    route({
      method: 'GET', name: 'GetBranchActualRewardProgramsByBranchIdForUser', access: 'public',
      summary: "The shop's view of a branch's active reward programs.",
      query: Obj('GetBranchActualRewardProgramsByBranchIdForUserQuery', { branchId: Id }),
      result: Type.Array(RewardProgram),
      async handler({ query, ctx }) {
        const rows = await ctx.db.select().from(rewardPrograms)
          .where(and(eq(rewardPrograms.branchId, query.branchId), eq(rewardPrograms.isActive, true))).orderBy(rewardPrograms.id);
        return rows.map(itemOf);
      },
    }),
  ],
});
