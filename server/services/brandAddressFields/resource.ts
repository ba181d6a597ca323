import { Type } from 'typebox';
import { and, eq, ne } from 'drizzle-orm';
import { brandAddressFields } from '../../db/schema';
import { badRequest, Obj } from '../../http/envelope';
import { defineResource } from '../../resources/resource';
import { oneOf } from '../../resources/list';
import { ADDRESS_FIELD_NAMES } from '../../../domain/addressFields';

const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });
const Label = Type.String({ minLength: 1, maxLength: 60, pattern: '\\S' });
const SortOrder = Type.Integer({ minimum: 0, maximum: 1000 });

/** How a brand asks for one optional delivery-address field (domain/addressFields.ts). */
export const BrandAddressField = Obj('BrandAddressField', {
  id: Type.Integer(),
  brandId: Type.Integer(),
  fieldName: Type.String({ description: `One of: ${ADDRESS_FIELD_NAMES.join(', ')}.` }),
  label: Type.String(),
  isRequired: Type.Boolean(),
  isVisible: Type.Boolean(),
  sortOrder: Type.Integer(),
});

/**
 * SPEC.md 7 Configuration, BrandAddressFields: Create, Update, GetBrandAddressFieldsByBrandId (no
 * delete in SPEC.md: a field is hidden with isVisible). A field is one row per brand; its name
 * never changes (Update changes how it is asked).
 */
export const brandAddressFieldsResource = defineResource({
  service: 'BrandAddressFields',
  table: brandAddressFields,
  item: BrandAddressField,
  create: Type.Object({
    brandId: Id, fieldName: oneOf(ADDRESS_FIELD_NAMES), label: Label,
    isRequired: Type.Boolean({ default: false }), isVisible: Type.Boolean({ default: true }), sortOrder: Type.Optional(SortOrder),
  }),
  update: Type.Object({
    id: Id, label: Type.Optional(Label), isRequired: Type.Optional(Type.Boolean()), isVisible: Type.Optional(Type.Boolean()), sortOrder: Type.Optional(SortOrder),
  }),
  scope: { level: 'brand', field: 'brandId' },
  can: { view: 'brands.manage', create: 'brands.manage', update: 'brands.manage', delete: 'brands.manage' },
  methods: { list: 'GetBrandAddressFieldsByBrandId', create: 'Create', update: 'Update' },
  sortable: ['sortOrder', 'fieldName', 'label', 'id'],
  defaultSorting: 'sortOrder asc',
  filters: { brandId: 'equals', isVisible: 'equals', label: 'contains' },
  label: 'Address field',
  async check(tx, next) {
    if (next.isRequired === true && next.isVisible === false) {
      const message = 'A hidden field cannot be required.';
      throw badRequest(message, [{ message, members: ['isRequired'] }]);
    }
    const taken = await tx.select({ id: brandAddressFields.id }).from(brandAddressFields).where(and(
      eq(brandAddressFields.brandId, Number(next.brandId)), eq(brandAddressFields.fieldName, String(next.fieldName)),
      next.id === undefined ? undefined : ne(brandAddressFields.id, Number(next.id)),
    ));
    if (taken.length) {
      const message = 'This brand already has this field: change it instead.';
      throw badRequest(message, [{ message, members: ['fieldName'] }]);
    }
  },
});
