import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Db, Tx } from '../../db/client';
import { brands, customerGroupMembers, customerGroups, users } from '../../db/schema';
import { badRequest, notFound, Obj } from '../../http/envelope';
import { route, service } from '../../http/routes';
import { pagingFields } from '../../http/paging';
import { Nullable } from '../../http/nullable';
import type { AppContext, Caller } from '../../http/context';
import { placeInScope, scopeWhere } from '../../resources/scope';
import { defineResource } from '../../resources/resource';
import { customerPage, CustomerList, customerVisibleTo, searchOf, visibleCustomerIds } from '../customer/loyalty';

/**
 * Customer groups (SPEC.md 7 "Groups and pre-invitation"): a brand's groups of customers, some of
 * them private points program groups. The percent of a group is the constant discount's
 * (server/services/rewardPrograms/resource.ts), so the group forms do not change it.
 */
export const CustomersGroup = Obj('CustomersGroup', {
  id: Type.Integer(),
  brandId: Type.Integer(),
  name: Type.String(),
  discountPercent: Type.Number(),
  isPrivatePointsProgram: Type.Boolean(),
});
const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });
const name = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });
const customerIds = Type.Array(Id, { minItems: 1, maxItems: 500, description: 'Registered customers to add.' });

export const customersGroupResource = defineResource({
  service: 'CustomersGroups',
  table: customerGroups,
  item: CustomersGroup,
  create: Type.Object({ brandId: Id, name, isPrivatePointsProgram: Type.Optional(Type.Boolean()) }),
  update: Type.Object({ id: Id, name: Type.Optional(name) }),
  scope: { level: 'brand', field: 'brandId' },
  can: { view: 'groups.manage', create: 'groups.manage', update: 'groups.manage', delete: 'groups.manage' },
  methods: { list: 'GetCustomersGroups', create: 'CreateCustomersGroup', update: 'UpdateCustomersGroup' },
  sortable: ['id', 'name'],
  defaultSorting: 'name asc',
  filters: { brandId: 'equals', isPrivatePointsProgram: 'equals', name: 'contains' },
});

const GroupDetails = Obj('CustomersGroupDetails', { ...CustomersGroup.properties, memberCount: Type.Integer() });
const GroupTree = Obj('CustomersGroupsTreeBrand', {
  brandId: Type.Integer(),
  brandName: Type.String(),
  groups: Type.Array(Obj('CustomersGroupsTreeGroup', { id: Type.Integer(), name: Type.String(), isPrivatePointsProgram: Type.Boolean(), memberCount: Type.Integer() })),
});

/** A customer the group's page may add: one of the group's brand's customers, and whether they are in the group already. */
const GroupCandidate = Obj('CustomersGroupCandidate', {
  id: Type.Integer(),
  fullName: Type.String(),
  phoneNumber: Nullable(Type.String()),
  inGroup: Type.Boolean(),
});

const memberCount = sql<number>`(select count(*)::int from "customer_group_members" m where m."group_id" = ${customerGroups.id})`;

async function groupDetails(db: Db | Tx, caller: Caller, id: number, privateProgram?: boolean) {
  const [row] = await db.select({ g: customerGroups, memberCount }).from(customerGroups)
    .where(and(eq(customerGroups.id, id), customersGroupResource.scopeOf(caller),
      privateProgram === undefined ? undefined : eq(customerGroups.isPrivatePointsProgram, privateProgram)));
  if (!row) throw notFound(privateProgram ? 'Private points program group' : 'Customers group');
  return { ...customersGroupResource.toItem(row.g), memberCount: Number(row.memberCount) };
}

/**
 * One refusal for any id that is not a customer of the group's brand, unknown or someone else's
 * alike, naming none of them: a list of the missing ones told who exists (issue 20).
 */
const NOT_BRAND_CUSTOMERS = 'customerIds: some of these are not customers of this brand.';

/** Adds the brand's customers (visibleCustomerIds) to a group; any other id is a 400 and nothing is added. */
async function addMembers(tx: Tx, caller: Caller, group: { id: number; brandId: number }, ids: number[]) {
  const unique = [...new Set(ids)];
  const found = await visibleCustomerIds(tx, caller, unique, group.brandId);
  if (found.size !== unique.length) throw badRequest(NOT_BRAND_CUSTOMERS, [{ message: NOT_BRAND_CUSTOMERS, members: ['customerIds'] }]);
  await tx.insert(customerGroupMembers).values(unique.map((userId) => ({ groupId: group.id, userId }))).onConflictDoNothing();
}

async function createGroup(db: Db, caller: Caller, body: { brandId: number; name: string; customerIds?: number[] }, isPrivatePointsProgram: boolean) {
  if (!(await placeInScope(db, caller, 'brand', body.brandId))) throw badRequest('brandId: there is no such brand.');
  const saved = await customersGroupResource.audited(db, caller, 'create', async (tx) => {
    const [row] = await tx.insert(customerGroups).values({ brandId: body.brandId, name: body.name.trim(), isPrivatePointsProgram }).returning();
    if (body.customerIds?.length) await addMembers(tx, caller, row, body.customerIds);
    return { before: null, after: row };
  });
  return groupDetails(db, caller, saved!.id);
}

async function renameGroup(db: Db, caller: Caller, body: { id: number; name?: string }, isPrivatePointsProgram: boolean) {
  await customersGroupResource.audited(db, caller, 'update', async (tx) => {
    const [before] = await tx.select().from(customerGroups)
      .where(and(eq(customerGroups.id, body.id), customersGroupResource.scopeOf(caller), eq(customerGroups.isPrivatePointsProgram, isPrivatePointsProgram))).for('update');
    if (!before) throw notFound('Private points program group');
    const [after] = body.name === undefined ? [before] : await tx.update(customerGroups).set({ name: body.name.trim() }).where(eq(customerGroups.id, body.id)).returning();
    return { before, after };
  });
  return groupDetails(db, caller, body.id);
}

export function registerCustomersGroupCalls(app: FastifyInstance, ctx: AppContext) {
  service(app, ctx, 'CustomersGroups', [
    route({
      method: 'POST', name: 'CreateNewCustomersGroup', access: 'groups.manage',
      summary: 'Creates a group with its first customers, in one step.',
      body: Obj('CreateNewCustomersGroupInput', { brandId: Id, name, customerIds }), result: GroupDetails,
      handler: ({ body, caller, ctx }) => createGroup(ctx.db, caller, body, false),
    }),
    route({
      method: 'POST', name: 'AddCustomersToExistingGroup', access: 'groups.manage',
      summary: 'Adds registered customers to a group (those already in it stay once).',
      body: Obj('AddCustomersToExistingGroupInput', { groupId: Id, customerIds }), result: GroupDetails,
      async handler({ body, caller, ctx }) {
        await ctx.db.transaction(async (tx) => {
          const [group] = await tx.select({ id: customerGroups.id, brandId: customerGroups.brandId }).from(customerGroups)
            .where(and(eq(customerGroups.id, body.groupId), customersGroupResource.scopeOf(caller))).for('update');
          if (!group) throw notFound('Customers group');
          await addMembers(tx, caller, group, body.customerIds);
        });
        return groupDetails(ctx.db, caller, body.groupId);
      },
    }),
    route({
      method: 'POST', name: 'RemoveCustomersFromGroup', access: 'groups.manage',
      summary: 'Takes customers out of a group (beyond the legacy list: /groups/{id} removes members; ids not in the group are ignored).',
      body: Obj('RemoveCustomersFromGroupInput', { groupId: Id, customerIds }), result: GroupDetails,
      async handler({ body, caller, ctx }) {
        await ctx.db.transaction(async (tx) => {
          const [group] = await tx.select({ id: customerGroups.id }).from(customerGroups)
            .where(and(eq(customerGroups.id, body.groupId), customersGroupResource.scopeOf(caller))).for('update');
          if (!group) throw notFound('Customers group');
          await tx.delete(customerGroupMembers).where(and(eq(customerGroupMembers.groupId, group.id), inArray(customerGroupMembers.userId, body.customerIds)));
        });
        return groupDetails(ctx.db, caller, body.groupId);
      },
    }),
    route({
      method: 'GET', name: 'FindCustomersForGroup', access: 'groups.manage',
      summary: "Beyond the legacy list: the customers AddCustomersToExistingGroup accepts for this group (the group's brand's customers), by name or phone, each saying whether they are in it already.",
      query: Obj('FindCustomersForGroupQuery', { ...pagingFields, GroupId: Id, Search: Type.Optional(Type.String({ maxLength: 100 })) }),
      result: Obj('CustomersGroupCandidates', { data: Type.Array(GroupCandidate), totalCount: Type.Integer() }),
      async handler({ query, caller, ctx }) {
        const group = await groupDetails(ctx.db, caller, query.GroupId);
        const page = await customerPage(ctx.db, and(customerVisibleTo(ctx.db, caller, group.brandId), searchOf(query.Search)), query);
        const ids = page.data.map((c) => c.id);
        const members = new Set(ids.length ? (await ctx.db.select({ id: customerGroupMembers.userId }).from(customerGroupMembers)
          .where(and(eq(customerGroupMembers.groupId, group.id), inArray(customerGroupMembers.userId, ids)))).map((m) => m.id) : []);
        return { data: page.data.map((c) => ({ id: c.id, fullName: c.fullName, phoneNumber: c.phoneNumber, inGroup: members.has(c.id) })), totalCount: page.totalCount };
      },
    }),
    route({
      method: 'GET', name: 'GetCustomersGroupById', access: 'groups.manage',
      summary: 'One group with its number of customers.',
      query: Obj('GetCustomersGroupByIdQuery', { Id }), result: GroupDetails,
      handler: ({ query, caller, ctx }) => groupDetails(ctx.db, caller, query.Id),
    }),
    route({
      method: 'POST', name: 'CreatePrivatePointsProgramGroup', access: 'groups.manage',
      summary: 'Creates a private points program group.',
      body: Obj('CreatePrivatePointsProgramGroupInput', { brandId: Id, name, customerIds: Type.Optional(customerIds) }), result: GroupDetails,
      handler: ({ body, caller, ctx }) => createGroup(ctx.db, caller, body, true),
    }),
    route({
      method: 'PUT', name: 'UpdatePrivatePointsProgramGroup', access: 'groups.manage',
      summary: 'Renames a private points program group.',
      body: Obj('UpdatePrivatePointsProgramGroupInput', { id: Id, name: Type.Optional(name) }), result: GroupDetails,
      handler: ({ body, caller, ctx }) => renameGroup(ctx.db, caller, body, true),
    }),
    route({
      method: 'GET', name: 'GetPrivatePointsProgramGroupById', access: 'groups.manage',
      summary: 'One private points program group.',
      query: Obj('GetPrivatePointsProgramGroupByIdQuery', { Id }), result: GroupDetails,
      handler: ({ query, caller, ctx }) => groupDetails(ctx.db, caller, query.Id, true),
    }),
    route({
      method: 'GET', name: 'GetCustomersGroupsTreeView', access: 'groups.manage',
      summary: "The caller's brands, each with its groups (the tree on /groups).",
      result: Type.Array(GroupTree),
      async handler({ caller, ctx }) {
        const rows = await ctx.db.select({ brandId: brands.id, brandName: brands.name, g: customerGroups, memberCount }).from(brands)
          .leftJoin(customerGroups, eq(customerGroups.brandId, brands.id))
          .where(scopeWhere(caller, { brandId: brands.id })).orderBy(asc(brands.name), asc(customerGroups.name));
        const tree = new Map<number, { brandId: number; brandName: string; groups: { id: number; name: string; isPrivatePointsProgram: boolean; memberCount: number }[] }>();
        for (const r of rows) {
          const node = tree.get(r.brandId) ?? { brandId: r.brandId, brandName: r.brandName, groups: [] };
          tree.set(r.brandId, node);
          if (r.g) node.groups.push({ id: r.g.id, name: r.g.name, isPrivatePointsProgram: r.g.isPrivatePointsProgram, memberCount: Number(r.memberCount) });
        }
        return [...tree.values()];
      },
    }),
  ]);
  service(app, ctx, 'Customer', [
    route({
      method: 'GET', name: 'GetCustomerDetailsByCustomersGroupId', access: 'groups.manage',
      summary: "A group's customers, 10 a page by default.",
      query: Obj('GetCustomerDetailsByCustomersGroupIdQuery', { ...pagingFields, GroupId: Id, Search: Type.Optional(Type.String({ maxLength: 100 })) }),
      result: CustomerList,
      async handler({ query, caller, ctx }) {
        await groupDetails(ctx.db, caller, query.GroupId);
        const member = sql`exists (select 1 from "customer_group_members" m where m."group_id" = ${query.GroupId} and m."user_id" = ${users.id})`;
        // Only customers the caller sees: a member added before issue 20's rule stays hidden.
        return customerPage(ctx.db, and(member, customerVisibleTo(ctx.db, caller), searchOf(query.Search)), query);
      },
    }),
  ]);
}
