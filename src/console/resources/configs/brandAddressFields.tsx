import { Tag } from '@blueprintjs/core';
import { CONFIGURABLE_ADDRESS_FIELDS } from '../../../../domain/addressFields';
import { BrandAddressFields } from '../generated/BrandAddressFields';
import { declaredScreen } from '../declared';

const FIELD_OPTIONS = CONFIGURABLE_ADDRESS_FIELDS.map((f) => ({ value: f.fieldName, label: f.label }));
/** What the shop's form does with a field that has no row (domain/addressFields.ts brandAddressForm). */
const WITHOUT_ROW = `Without a row: ${CONFIGURABLE_ADDRESS_FIELDS.map((f) => `${f.label} ${f.shown ? 'shown' : 'hidden'} at ${f.order}`).join(', ')}.`;

/** /brands/BrandDeliveryAddressField/:id — how a brand asks for the optional fields of a delivery address. */
export const brandAddressFieldsScreen = declaredScreen(BrandAddressFields, {
  path: '/brands/BrandDeliveryAddressField/:id',
  title: 'Brand Delivery Address Fields',
  noun: 'address field',
  fixedFilter: (params) => ({ brandId: Number(params.id) }),
  columns: [
    { field: 'fieldName', name: 'Field', width: 140, render: (r) => FIELD_OPTIONS.find((o) => o.value === r.fieldName)?.label ?? String(r.fieldName) },
    { field: 'label', name: 'Shown as', width: 200 },
    { field: 'isRequired', name: 'Required', width: 100, render: (r) => (r.isRequired ? <Tag minimal intent="primary">Required</Tag> : 'Optional') },
    { field: 'isVisible', name: 'Shown', width: 90, render: (r) => (r.isVisible ? 'Shown' : <Tag minimal>Hidden</Tag>) },
    { field: 'sortOrder', name: 'Order', width: 80 },
  ],
  fields: [
    { name: 'fieldName', label: 'Field', options: FIELD_OPTIONS, help: 'Region, area, block, street and house are always asked.' },
    { name: 'label', label: 'Shown as' },
    { name: 'isVisible', label: 'Shown in the address form' },
    { name: 'isRequired', label: 'Required' },
    { name: 'sortOrder', label: 'Order', help: `Lower comes first, below block, street and house. ${WITHOUT_ROW}` },
  ],
  defaults: { sortOrder: 0 },
  searchPlaceholder: 'Search by label',
  rowClassName: (r) => (r.isVisible ? undefined : 'resource-row-muted'),
});
