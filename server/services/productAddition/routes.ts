import { Type } from 'typebox';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { optionGroups, productAdditionGroups } from '../../db/schema';
import { badRequest, Obj } from '../../http/envelope';
import { route, service } from '../../http/routes';
import type { AppContext } from '../../http/context';
import { menuProductOf, MenuProduct } from '../products/admin';
import { ArabicName } from '../../http/language';
import {
  createGroup, createSubItems, deleteGroup, deleteSubItem, typesWithSubtypes, updateGroup, updateSubItem,
} from '../productTypesAndSubtypes/admin';
import { MenuProductSubType } from '../productTypesAndSubtypes/resource';
import {
  auditMenu, brandInScope, groupInScope, groupsWithItems, Id, MenuOptionGroup, MenuSubItem, Name, Price, productInScope, SortOrder, SubItemInput, typeInScope,
} from '../productTypesAndSubtypes/menuAdmin';

/**
 * Additions (SPEC.md 3 "Additions belong to addition groups"): an addition group is an option
 * group of a product type rather than of one product (option_groups.product_id null), and its
 * additions are its options. A group applies to the products linked to it
 * (product_addition_groups); the shop and the order check read them with the product's own groups.
 */
const AdditionInput = Obj('MenuAdditionInput', { name: Name, nameAr: Type.Optional(ArabicName), price: Price, isHidden: Type.Optional(Type.Boolean()) });
const Additions = Type.Array(AdditionInput, { minItems: 1, maxItems: 50 });
const AdditionTreeType = Obj('MenuAdditionTreeType', {
  id: Type.Integer(), brandId: Type.Integer(), name: Type.String(), isHidden: Type.Boolean(), sortOrder: Type.Integer(),
  additionGroups: Type.Array(MenuOptionGroup),
});
const additionGroupsOfType = (typeId: number) => and(eq(optionGroups.productTypeId, typeId), isNull(optionGroups.productId));

/** SPEC.md 7 Menu management, ProductAddition. */
export function registerProductAddition(app: FastifyInstance, ctx: AppContext) {
  service(app, ctx, 'ProductAddition', [
    route({
      method: 'GET', name: 'GetProductAdditionsGroupByProductTypeId', access: 'menu.manage',
      summary: 'The addition groups of a product type, with their additions.',
      query: Obj('MenuAdditionGroupsQuery', { productTypeId: Id }), result: Type.Array(MenuOptionGroup),
      async handler({ query, caller, ctx }) {
        const type = await typeInScope(ctx.db, caller, query.productTypeId);
        return groupsWithItems(ctx.db, additionGroupsOfType(type.id));
      },
    }),
    route({
      method: 'GET', name: 'GetProductSubTypeListByTypeIdAsync', access: 'menu.manage',
      summary: 'The sub-types of a product type.',
      query: Obj('MenuSubTypesQuery', { typeId: Id }), result: Type.Array(MenuProductSubType),
      async handler({ query, caller, ctx }) {
        const type = await typeInScope(ctx.db, caller, query.typeId);
        return (await typesWithSubtypes(ctx.db, type.brandId)).find((t) => t.id === type.id)?.subtypes ?? [];
      },
    }),
    route({
      method: 'GET', name: 'GetProductAdditionsTreeView', access: 'menu.manage',
      summary: "A brand's product types, each with its addition groups and their additions.",
      query: Obj('MenuAdditionTreeQuery', { brandId: Id }), result: Type.Array(AdditionTreeType),
      async handler({ query, caller, ctx }) {
        await brandInScope(ctx.db, caller, query.brandId);
        const types = await typesWithSubtypes(ctx.db, query.brandId);
        const groups = await groupsWithItems(ctx.db, and(eq(optionGroups.brandId, query.brandId), isNull(optionGroups.productId)));
        return types.map(({ subtypes: _s, ...t }) => ({ ...t, additionGroups: groups.filter((g) => g.productTypeId === t.id) }));
      },
    }),
    route({
      method: 'POST', name: 'CreateNewProductAdditionsGroup', access: 'menu.manage',
      summary: 'Creates an addition group of a product type with its additions (at least one).',
      body: Obj('MenuAdditionGroupCreateInput', {
        productTypeId: Id, name: Name, nameAr: Type.Optional(ArabicName), allowMultiple: Type.Boolean({ default: true }), isRequired: Type.Boolean({ default: false }), additions: Additions,
      }),
      result: MenuOptionGroup,
      handler: ({ body, caller, ctx }) => createGroup(ctx, caller, { productTypeId: body.productTypeId },
        { name: body.name, nameAr: body.nameAr, allowMultiple: body.allowMultiple, isRequired: body.isRequired, subItems: body.additions }, 'ProductAdditionsGroup') as never,
    }),
    route({
      method: 'POST', name: 'CreateProductAdditionsGroup', access: 'menu.manage',
      summary: 'Applies an addition group to a product (the product form sends the whole set as additionGroupIds instead).',
      body: Obj('MenuProductAdditionsGroupLinkInput', { productId: Id, additionGroupId: Id }), result: MenuProduct,
      handler: ({ body, caller, ctx }) => ctx.db.transaction(async (tx) => {
        const product = await productInScope(tx, caller, body.productId, { lock: true });
        const group = await groupInScope(tx, caller, body.additionGroupId, 'addition');
        if (group.brandId !== product.brandId) throw badRequest('This addition group belongs to another brand.', [{ message: 'Another brand.', members: ['additionGroupId'] }]);
        const before = await menuProductOf(tx, product);
        await tx.insert(productAdditionGroups).values({ productId: product.id, groupId: group.id }).onConflictDoNothing();
        const after = await menuProductOf(tx, product);
        if (after.additionGroupIds.length !== before.additionGroupIds.length) await auditMenu(tx, caller, 'Product', 'update', product.id, product.brandId, before, after);
        return after;
      }) as never,
    }),
    route({
      method: 'PUT', name: 'UpdateProductAdditionsGroup', access: 'menu.manage',
      summary: "Changes an addition group's name, allowMultiple, isRequired or order: only the fields sent. `additions`, when sent, is the whole new set: additions with an id are kept (and changed), others added, the rest removed, in the order sent.",
      body: Obj('MenuAdditionGroupUpdateInput', {
        id: Id, name: Type.Optional(Name), nameAr: Type.Optional(ArabicName), allowMultiple: Type.Optional(Type.Boolean()), isRequired: Type.Optional(Type.Boolean()), sortOrder: Type.Optional(SortOrder),
        additions: Type.Optional(Type.Array(SubItemInput, { minItems: 1, maxItems: 50 })),
      }),
      result: MenuOptionGroup,
      handler: ({ body, caller, ctx }) => updateGroup(ctx, caller, 'addition', { ...body, subItems: body.additions }, 'ProductAdditionsGroup', 'additions') as never,
    }),
    route({
      method: 'POST', name: 'CreateProductNewAddition', access: 'menu.manage', summary: 'Adds one addition (name and price) to an addition group.',
      body: Obj('MenuAdditionCreateInput', { additionGroupId: Id, name: Name, nameAr: Type.Optional(ArabicName), price: Price, isHidden: Type.Optional(Type.Boolean()) }), result: MenuSubItem,
      handler: async ({ body, caller, ctx }) => (await createSubItems(ctx, caller, 'addition', body.additionGroupId, [body], 'ProductAddition'))[0],
    }),
    route({
      method: 'POST', name: 'CreateProductAdditions', access: 'menu.manage', summary: 'Adds several additions to an addition group at once.',
      body: Obj('MenuAdditionsCreateInput', { additionGroupId: Id, additions: Additions }), result: Type.Array(MenuSubItem),
      handler: ({ body, caller, ctx }) => createSubItems(ctx, caller, 'addition', body.additionGroupId, body.additions, 'ProductAddition'),
    }),
    route({
      method: 'PUT', name: 'UpdateProductAddition', access: 'menu.manage', summary: "Changes an addition's name, price, hidden flag or order: only the fields sent.",
      body: Obj('MenuAdditionUpdateInput', { id: Id, name: Type.Optional(Name), nameAr: Type.Optional(ArabicName), price: Type.Optional(Price), isHidden: Type.Optional(Type.Boolean()), sortOrder: Type.Optional(SortOrder) }),
      result: MenuSubItem,
      handler: ({ body, caller, ctx }) => updateSubItem(ctx, caller, 'addition', body, 'ProductAddition'),
    }),
    route({
      method: 'DELETE', name: 'DeleteProductAddition', access: 'menu.manage',
      summary: 'Deletes an addition (additionId; the last one of a group is a 400) or a whole addition group (additionGroupId).',
      query: Obj('MenuAdditionDeleteQuery', { additionId: Type.Optional(Id), additionGroupId: Type.Optional(Id) }), result: Type.Boolean(),
      async handler({ query, caller, ctx }) {
        if ((query.additionId === undefined) === (query.additionGroupId === undefined)) {
          throw badRequest('Give either additionId or additionGroupId.', [{ message: 'Give exactly one of them.', members: ['additionId', 'additionGroupId'] }]);
        }
        return query.additionId !== undefined
          ? deleteSubItem(ctx, caller, 'addition', query.additionId, 'ProductAddition')
          : deleteGroup(ctx, caller, 'addition', query.additionGroupId!, 'ProductAdditionsGroup');
      },
    }),
  ]);
}
