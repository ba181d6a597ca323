import { Type, type TSchema } from 'typebox';
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { branches, customerGroups } from '../../db/schema';
import { notFound, Obj } from '../../http/envelope';
import { Nullable } from '../../http/nullable';
import { route, service } from '../../http/routes';
import type { AppContext } from '../../http/context';
import { defineResource } from '../../resources/resource';
import { placeInScope } from '../../resources/scope';
import { ImageUrl } from '../company/resource';
import { shopBranchProperties } from '../brand/shop';
import { ArabicName, ArabicText } from '../../http/language';
import { ACCEPTANCE_DEADLINE } from '../../../domain/orderSettings';
import { PREPARATION_MINUTES } from '../../../domain/readyEstimate';
import { SLOT_MAX_ORDERS, SLOT_MINUTES } from '../../../domain/orderTime';
import { forgetAutoAcceptBranches } from '../operations/autoAccept';

const NullableText = Type.Union([Type.String(), Type.Null()]);

const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });
/** 'HH:MM', 00:00–23:59, the branch's local time (domain/schedule.ts). */
export const ClockTime = Type.String({ pattern: '^([01]\\d|2[0-3]):[0-5]\\d$', description: "'HH:MM', 00:00 to 23:59, Kuwait time." });

/** A branch (SPEC.md 3) as the console manages it; the shop's picker shows its ShopBranch part. */
export const Branch = Obj('Branch', {
  ...shopBranchProperties,
  /** The Arabic shop's name, address and delivery text; null or empty: the English ones. */
  nameAr: NullableText,
  branchAddressAr: NullableText,
  deliveryTextAr: NullableText,
  latitude: Type.Union([Type.Number(), Type.Null()]),
  longitude: Type.Union([Type.Number(), Type.Null()]),
  createdAt: Type.String(),
  /** Issue 25: a new order is accepted at once (off by default), and how long a pending one waits before it is rejected. */
  autoAccept: Type.Boolean(),
  acceptanceDeadlineMinutes: Type.Integer(),
  /** The branch's usual time to prepare an order (the ready estimate; an order for later fires this long before its time). */
  preparationMinutes: Type.Integer(),
  /** Issue 25, capacity per time slot (server/orders/slots.ts): per mode a slot length and the most orders a slot takes (null: no limit), and the most orders in progress. */
  ...slotSettings(Type.Integer(), Nullable(Type.Integer())),
});
/** The capacity settings' properties, in the item and (with their ranges) in Create and Update. */
function slotSettings<M extends TSchema, X extends TSchema>(minutes: M, max: X) {
  return {
    pickupSlotMinutes: minutes, pickupSlotMax: max, carServiceSlotMinutes: minutes, carServiceSlotMax: max,
    deliverySlotMinutes: minutes, deliverySlotMax: max, inProgressMax: max,
  };
}
const fields = {
  name: Type.String({ minLength: 1, maxLength: 120, pattern: '\\S' }),
  openTime: ClockTime,
  closeTime: ClockTime,
  branchAddress: Type.String({ maxLength: 300 }),
  branchPhoneNumber: Type.String({ maxLength: 30, pattern: '^(\\+?[\\d\\s\\-()]{6,25})?$', description: 'Digits, spaces, dashes and brackets, an optional leading +; or empty.' }),
  deliveryText: Type.String({ maxLength: 300 }),
  nameAr: ArabicName,
  branchAddressAr: ArabicText(300),
  deliveryTextAr: ArabicText(300),
  latitude: Nullable(Type.Number({ minimum: -90, maximum: 90 })),
  longitude: Nullable(Type.Number({ minimum: -180, maximum: 180 })),
  autoAccept: Type.Boolean(),
  acceptanceDeadlineMinutes: Type.Integer({
    minimum: ACCEPTANCE_DEADLINE.min, maximum: ACCEPTANCE_DEADLINE.max,
    description: `Minutes a pending order waits before it is rejected, ${ACCEPTANCE_DEADLINE.min} to ${ACCEPTANCE_DEADLINE.max} (default ${ACCEPTANCE_DEADLINE.default}).`,
  }),
  preparationMinutes: Type.Integer({
    minimum: PREPARATION_MINUTES.min, maximum: PREPARATION_MINUTES.max,
    description: `Minutes the branch usually takes to prepare an order, ${PREPARATION_MINUTES.min} to ${PREPARATION_MINUTES.max} (default ${PREPARATION_MINUTES.default}): the ready estimate, the earliest time an order for later may be for, and its fire time (its chosen time less these minutes).`,
  }),
  ...slotSettings(
    Type.Integer({ minimum: SLOT_MINUTES.min, maximum: SLOT_MINUTES.max, description: `A time slot's length in minutes, ${SLOT_MINUTES.min} to ${SLOT_MINUTES.max} (default ${SLOT_MINUTES.default}).` }),
    Nullable(Type.Integer({ minimum: SLOT_MAX_ORDERS.min, maximum: SLOT_MAX_ORDERS.max, description: 'The most orders it takes; null: no limit.' })),
  ),
};
const { name: _name, ...details } = fields;

/**
 * SPEC.md 7 Branch: Create, Update and GetBranchesForCurrentUser (the paged list of /branches).
 * A branch belongs to a brand: a company admin manages their company's brands' branches, a brand
 * manager their brands'. There is no branch delete in SPEC.md; the busy flag is the branch user's
 * (ops.ts). A new branch takes online orders during its open/close times every day until it gets
 * an online-ordering schedule (domain/schedule.ts), and shows in the shop's picker at once.
 */
export const branchResource = defineResource({
  service: 'Branch',
  table: branches,
  item: Branch,
  create: Type.Object({ brandId: Id, name: fields.name, logoUrl: ImageUrl, ...Type.Partial(Type.Object(details)).properties }),
  update: Type.Object({ id: Id, logoUrl: ImageUrl, ...Type.Partial(Type.Object(fields)).properties }),
  scope: { level: 'brand', field: 'brandId' },
  can: { view: 'branches.manage', create: 'branches.manage', update: 'branches.manage', delete: 'branches.manage' },
  methods: { list: 'GetBranchesForCurrentUser', create: 'Create', update: 'Update' },
  sortable: ['id', 'name', 'brandId', 'openTime', 'closeTime', 'createdAt'],
  defaultSorting: 'name asc',
  filters: { brandId: 'equals', name: 'contains', branchAddress: 'contains' },
  // The event path of auto-accept keeps the auto-accepting branches for a few seconds (operations/autoAccept.ts).
  afterWrite: async (_tx, { before, after }) => { if (before?.autoAccept !== after?.autoAccept) forgetAutoAcceptBranches(); },
});

/** A customer group of a brand (the loyalty screens manage them; SPEC.md 3 "Customer groups"). */
export const BrandGroup = Obj('BrandGroup', {
  id: Type.Integer(),
  brandId: Type.Integer(),
  name: Type.String(),
  discountPercent: Type.Number(),
  isPrivatePointsProgram: Type.Boolean(),
});

/** The Branch calls of administration that are not plain CRUD. */
export function registerBranchAdmin(app: FastifyInstance, ctx: AppContext) {
  service(app, ctx, 'Branch', [
    route({
      method: 'GET', name: 'GetBrandGroupsByBrachId', access: 'branches.manage',
      summary: "The customer groups of the branch's brand, by name (a branch outside the caller's scope is a 404).",
      query: Obj('GetBrandGroupsByBrachIdQuery', { branchId: Id }), result: Type.Array(BrandGroup),
      handler: async ({ query, caller, ctx }) => {
        if (!(await placeInScope(ctx.db, caller, 'branch', query.branchId))) throw notFound('Branch');
        const rows = await ctx.db
          .select({
            id: customerGroups.id, brandId: customerGroups.brandId, name: customerGroups.name,
            discountPercent: customerGroups.discountPercent, isPrivatePointsProgram: customerGroups.isPrivatePointsProgram,
          })
          .from(customerGroups)
          .innerJoin(branches, eq(branches.brandId, customerGroups.brandId))
          .where(and(eq(branches.id, query.branchId)))
          .orderBy(asc(customerGroups.name), asc(customerGroups.id));
        return rows.map((r) => ({ ...r, discountPercent: Number(r.discountPercent) }));
      },
    }),
  ]);
}
