import { Type } from 'typebox';
import { taxes } from '../../db/schema';
import { Obj } from '../../http/envelope';
import { defineResource } from '../../resources/resource';

/** A brand's tax, applied to every order's subtotal after discounts while active (domain/orderTotals.ts). */
export const Tax = Obj('Tax', {
  id: Type.Integer(),
  brandId: Type.Integer(),
  name: Type.String(),
  percent: Type.Number({ description: 'Percent of the subtotal, 0–100, up to 3 decimals.' }),
  isActive: Type.Boolean(),
});
const fields = {
  name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
  percent: Type.Number({ minimum: 0, maximum: 100, multipleOf: 0.001 }),
};

/** SPEC.md 7 Configuration, Tax: POST Create, PUT Update, GET GetAllByBrandId, DELETE Delete (TaxId). */
export const taxResource = defineResource({
  service: 'Tax',
  table: taxes,
  item: Tax,
  create: Type.Object({ brandId: Type.Integer({ minimum: 1, maximum: 2147483647 }), ...fields, isActive: Type.Boolean({ default: true }) }),
  update: Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2147483647 }), ...Type.Partial(Type.Object({ ...fields, isActive: Type.Boolean() })).properties }),
  scope: { level: 'brand', field: 'brandId' },
  can: { view: 'brands.manage', create: 'brands.manage', update: 'brands.manage', delete: 'brands.manage' },
  methods: { list: 'GetAllByBrandId', create: 'Create', update: 'Update', delete: 'Delete?TaxId' },
  sortable: ['id', 'name', 'percent', 'isActive'],
  defaultSorting: 'name asc',
  filters: { brandId: 'equals', isActive: 'equals', name: 'contains' },
});
