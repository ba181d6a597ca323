import { and, eq, inArray, ne, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import type { Db, Tx } from '../../db/client';
import { branches, customerGroups, products, rewardPrograms } from '../../db/schema';
import { uniqueViolation } from '../../db/uniqueViolation';
import { badRequest, notFound, Obj } from '../../http/envelope';
import { route, service } from '../../http/routes';
import { Nullable } from '../../http/nullable';
import type { AppContext, Caller } from '../../http/context';
import { placeInScope } from '../../resources/scope';
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

/**
 * The list, one program, delete and history come from the resource shape; the per-kind create
 * and edit calls are written by hand on its helpers, because each kind has its own body.
 */
export const rewardProgramResource = defineResource({
  service: 'RewardPrograms',
  table: rewardPrograms,
  item: RewardProgram,
  create: Type.Object({ branchId: Id }),
  update: Type.Object({ id: Id }),
  scope: { level: 'branch', field: 'branchId' },
  can: { view: 'branches.manage', create: 'branches.manage', update: 'branches.manage', delete: 'branches.manage' },
  methods: { list: 'GetBranchActualRewardProgramsByBranchId' },
  sortable: ['id', 'name', 'kind', 'isActive'],
  defaultSorting: 'id asc',
  filters: { branchId: 'equals', kind: 'equals', isActive: 'equals', name: 'contains' },
  toItem: (row) => itemOf(row),
});

export const itemOf = (row: Program): Static<typeof RewardProgram> => ({
  id: row.id, branchId: row.branchId, kind: row.kind, name: row.name, isActive: row.isActive,
  target: row.target, productIds: row.productIds ?? [],
  pointsPerKd: row.pointsPerKd == null ? null : Number(row.pointsPerKd),
  customerGroupId: row.customerGroupId, discountPercent: row.discountPercent == null ? null : Number(row.discountPercent),
});

const KIND_LABEL: Record<string, string> = { purchases: 'purchases collection', points: 'points collection', discount: 'constant discount' };

/** The rules of a program as it will be saved: its products and group belong to the branch's brand; one active earning program per kind. */
async function checkProgram(tx: Tx, next: Program | (Omit<Program, 'id' | 'createdAt'> & { id?: number })) {
  const [branch] = await tx.select({ brandId: branches.brandId }).from(branches).where(eq(branches.id, next.branchId));
  if (!branch) throw badRequest('There is no such branch.');
  if (next.kind === 'purchases') {
    const ids = [...new Set(next.productIds)];
    const found = ids.length ? await tx.select({ id: products.id }).from(products).where(and(inArray(products.id, ids), eq(products.brandId, branch.brandId))) : [];
    const missing = ids.filter((id) => !found.some((f) => f.id === id));
    if (missing.length) throw badRequest(`productIds: product ${missing[0]} is not a product of this branch's brand.`);
  }
  if (next.kind === 'discount' && next.customerGroupId != null) {
    const [group] = await tx.select({ id: customerGroups.id }).from(customerGroups)
      .where(and(eq(customerGroups.id, next.customerGroupId), eq(customerGroups.brandId, branch.brandId)));
    if (!group) throw badRequest('customerGroupId: there is no such customer group in this brand.');
  }
  if (next.isActive && next.kind !== 'discount') {
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

const numericOf = (v: number | undefined) => (v === undefined ? undefined : String(v));

async function createProgram(db: Db, caller: Caller, kind: Kind, body: Record<string, unknown>) {
  const branchId = body.branchId as number;
  if (!(await placeInScope(db, caller, 'branch', branchId))) throw badRequest('branchId: there is no such branch.');
  const values = {
    branchId, kind, name: (body.name as string).trim(), isActive: (body.isActive as boolean | undefined) ?? true,
    target: (body.target as number | undefined) ?? null, productIds: [...new Set((body.productIds as number[] | undefined) ?? [])],
    pointsPerKd: numericOf(body.pointsPerKd as number | undefined) ?? null,
    customerGroupId: (body.customerGroupId as number | undefined) ?? null, discountPercent: numericOf(body.discountPercent as number | undefined) ?? null,
  };
  const saved = await guardUnique(() => rewardProgramResource.audited(db, caller, 'create', async (tx) => {
    await checkProgram(tx, values);
    const [row] = await tx.insert(rewardPrograms).values(values).returning();
    await applyDiscount(tx, row, null);
    return { before: null, after: row };
  }));
  return itemOf(saved!);
}

async function editProgram(db: Db, caller: Caller, kind: Kind, body: Record<string, unknown>) {
  const id = body.id as number;
  const saved = await guardUnique(() => rewardProgramResource.audited(db, caller, 'update', async (tx) => {
    const [before] = await tx.select().from(rewardPrograms).where(and(eq(rewardPrograms.id, id), rewardProgramResource.scopeOf(caller))).for('update');
    if (!before || before.kind !== kind) throw notFound(KIND_LABEL[kind]);
    const patch: Partial<Program> = {};
    if (body.name !== undefined) patch.name = (body.name as string).trim();
    if (body.isActive !== undefined) patch.isActive = body.isActive as boolean;
    if (body.target !== undefined) patch.target = body.target as number;
    if (body.productIds !== undefined) patch.productIds = [...new Set(body.productIds as number[])];
    if (body.pointsPerKd !== undefined) patch.pointsPerKd = String(body.pointsPerKd);
    if (body.customerGroupId !== undefined) patch.customerGroupId = body.customerGroupId as number;
    if (body.discountPercent !== undefined) patch.discountPercent = String(body.discountPercent);
    await checkProgram(tx, { ...before, ...patch });
    const [after] = await tx.update(rewardPrograms).set(patch).where(eq(rewardPrograms.id, id)).returning();
    await applyDiscount(tx, after, before);
    return { before, after };
  }));
  return itemOf(saved!);
}

/** Two writers racing past the check meet the unique index: the loser gets the same 400. */
async function guardUnique<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (uniqueViolation(err) === 'reward_programs_active_uq') throw badRequest('This branch already has an active program of this kind; switch it off first.');
    throw err;
  }
}

export function registerRewardProgramCalls(app: FastifyInstance, ctx: AppContext) {
  const kinds: Array<[Kind, string]> = [['purchases', 'PurchasesCollection'], ['points', 'PointsCollection'], ['discount', 'ConstantDiscount']];
  service(app, ctx, 'RewardPrograms', [
    ...kinds.flatMap(([kind, name]) => [
      route({
        method: 'POST', name: `Create${name}`, access: 'branches.manage',
        summary: `Creates a ${KIND_LABEL[kind]} for a branch (SPEC.md 3).`,
        body: createBody(kind, `Create${name}Input`), result: RewardProgram,
        handler: ({ body, caller, ctx }) => createProgram(ctx.db, caller, kind, body as Record<string, unknown>),
      }),
      route({
        method: 'POST', name: `Edit${name}`, access: 'branches.manage',
        summary: `Changes a ${KIND_LABEL[kind]}; only the fields sent change.`,
        body: editBody(kind, `Edit${name}Input`), result: RewardProgram,
        handler: ({ body, caller, ctx }) => editProgram(ctx.db, caller, kind, body as Record<string, unknown>),
      }),
    ]),
    route({
      method: 'DELETE', name: 'DeleteDiscountProgram', access: 'branches.manage',
      summary: "Deletes a reward program of any kind (a constant discount's group goes back to no discount).",
      query: Obj('DeleteDiscountProgramQuery', { Id: Id }),
      result: Type.Boolean(),
      async handler({ query, caller, ctx }) {
        await rewardProgramResource.audited(ctx.db, caller, 'delete', async (tx) => {
          const [before] = await tx.select().from(rewardPrograms).where(and(eq(rewardPrograms.id, query.Id), rewardProgramResource.scopeOf(caller))).for('update');
          if (!before) throw notFound('Reward program');
          await tx.delete(rewardPrograms).where(eq(rewardPrograms.id, query.Id));
          await applyDiscount(tx, null, before);
          return { before, after: null };
        });
        return true;
      },
    }),
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
  ]);
}
