import { Type } from 'typebox';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Tx } from '../../db/client';
import { branchHiddenOptions, branchHiddenProducts, optionGroups, optionItems, products } from '../../db/schema';
import { badRequest, notFound, Obj } from '../../http/envelope';
import { Nullable } from '../../http/nullable';
import { route, service } from '../../http/routes';
import type { AppContext, Caller } from '../../http/context';
import { auditMenu, branchBrandInScope, Id } from '../productTypesAndSubtypes/menuAdmin';

/** How far ahead "sold out until" may be set: beyond this, switch the item off instead. */
const MAX_SOLD_OUT_DAYS = 7;

const SwitchFields = {
  branchId: Id,
  Switch: Type.Optional(Type.Boolean({ description: 'true: available at the branch; false: switched off. Left out: the switch flips.' })),
  unavailableUntil: Type.Optional(Type.String({ maxLength: 40, description: 'With Switch=false: "sold out until" this time (ISO 8601); the item comes back by itself then.' })),
};
export const BranchSwitchState = Obj('BranchSwitchState', {
  branchId: Type.Integer(),
  /** The product or the sub-item switched. */
  id: Type.Integer(),
  available: Type.Boolean(),
  unavailableUntil: Nullable(Type.String()),
});

/** A "sold out until" time: a valid time in the future, at most a week ahead. */
function untilOf(text: string | undefined, available: boolean): Date | null {
  if (text === undefined || text === '') return null;
  const fail = (message: string) => badRequest(message, [{ message, members: ['unavailableUntil'] }]);
  if (available) throw fail('unavailableUntil goes with switching the item off (Switch=false).');
  const at = new Date(text);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(text) || Number.isNaN(at.getTime())) throw fail('unavailableUntil must be a time such as 2025-05-01T21:00:00+03:00.');
  if (at.getTime() <= Date.now()) throw fail('unavailableUntil must be in the future.');
  if (at.getTime() > Date.now() + MAX_SOLD_OUT_DAYS * 86_400_000) throw fail(`unavailableUntil can be at most ${MAX_SOLD_OUT_DAYS} days ahead; switch the item off instead.`);
  return at;
}

type SwitchTable = typeof branchHiddenProducts | typeof branchHiddenOptions;

/**
 * Sets one switch: a row in branch_hidden_* while the item is off (with its end for "sold out
 * until"), no row while it is on. A row whose end has passed counts as on, so a flip reads it so.
 */
async function setSwitch(
  ctx: AppContext, caller: Caller, what: 'product' | 'subItem', itemId: number,
  input: { branchId: number; Switch?: boolean; unavailableUntil?: string },
) {
  const table: SwitchTable = what === 'product' ? branchHiddenProducts : branchHiddenOptions;
  const column = what === 'product' ? branchHiddenProducts.productId : branchHiddenOptions.optionItemId;
  const rowOf = (tx: Tx) => tx.select().from(table).where(and(eq(table.branchId, input.branchId), eq(column, itemId))).for('update');
  return ctx.db.transaction(async (tx) => {
    const brandId = await branchBrandInScope(tx, caller, input.branchId);
    // The item must be on this branch's brand's menu (not deleted): another brand's is a 404.
    const [item] = what === 'product'
      ? await tx.select({ id: products.id }).from(products).where(and(eq(products.id, itemId), eq(products.brandId, brandId), isNull(products.archivedAt)))
      : await tx.select({ id: optionItems.id }).from(optionItems).innerJoin(optionGroups, eq(optionGroups.id, optionItems.groupId))
        .leftJoin(products, eq(products.id, optionGroups.productId))
        .where(and(eq(optionItems.id, itemId), eq(optionGroups.brandId, brandId), isNull(products.archivedAt)));
    if (!item) throw notFound(what === 'product' ? 'Product' : 'Sub-item');
    const [current] = await rowOf(tx);
    const wasOff = !!current && (current.unavailableUntil === null || new Date(current.unavailableUntil).getTime() > Date.now());
    const available = input.Switch ?? wasOff;
    const until = untilOf(input.unavailableUntil, available);
    const state = (off: boolean, at: Date | null) => ({ branchId: input.branchId, id: itemId, available: !off, unavailableUntil: off && at ? new Date(at).toISOString() : null });
    const before = state(wasOff, current?.unavailableUntil ?? null);
    await tx.delete(table).where(and(eq(table.branchId, input.branchId), eq(column, itemId)));
    if (!available) {
      await (what === 'product'
        ? tx.insert(branchHiddenProducts).values({ branchId: input.branchId, productId: itemId, unavailableUntil: until })
        : tx.insert(branchHiddenOptions).values({ branchId: input.branchId, optionItemId: itemId, unavailableUntil: until }));
    }
    const after = state(!available, until);
    if (JSON.stringify(before) !== JSON.stringify(after)) {
      await auditMenu(tx, caller, what === 'product' ? 'BranchProductSwitch' : 'BranchAdditionSwitch', 'update', itemId, input.branchId, before, after);
    }
    return after;
  });
}

/**
 * SPEC.md 7 Branch: the two availability switches of /MenuManagement. Legacy GET calls that
 * write. A branch user switches only their own branch; a brand manager their brands' branches;
 * ADMIN any (server/resources/scope.ts).
 */
export function registerBranchAvailability(app: FastifyInstance, ctx: AppContext) {
  service(app, ctx, 'Branch', [
    route({
      method: 'GET', name: 'GetProductSwitchForBranchUser', access: 'menuManagement.manage',
      summary: 'Switches a product off or on for one branch, or marks it sold out until a time.',
      query: Obj('BranchProductSwitchQuery', { productId: Id, ...SwitchFields }), result: BranchSwitchState,
      handler: ({ query, caller, ctx }) => setSwitch(ctx, caller, 'product', query.productId, query),
    }),
    route({
      method: 'GET', name: 'GetAdditionSwitchForBranchUser', access: 'menuManagement.manage',
      summary: "Switches a sub-item (an addition, or an option of a product's own group) off or on for one branch, or marks it sold out until a time.",
      query: Obj('BranchAdditionSwitchQuery', { subItemId: Id, ...SwitchFields }), result: BranchSwitchState,
      handler: ({ query, caller, ctx }) => setSwitch(ctx, caller, 'subItem', query.subItemId, query),
    }),
  ]);
}
