import { Tag } from '@blueprintjs/core';
import { graphql } from '../../../gql';
import { CONFIGURABLE_ADDRESS_FIELDS } from '../../../../domain/addressFields';
import type { ResourceConfig } from '../types';

const FieldList = graphql(`
  query BrandAddressFieldList($SkipCount: Int!, $MaxResultCount: Int!, $Sorting: String, $Search: String, $id: Int, $brandId: Int, $isVisible: Boolean) {
    list: BrandAddressFields_GetBrandAddressFieldsByBrandId(SkipCount: $SkipCount, MaxResultCount: $MaxResultCount, Sorting: $Sorting, Search: $Search, id: $id, brandId: $brandId, isVisible: $isVisible) {
      totalCount data { id brandId fieldName label isRequired isVisible sortOrder }
    }
  }
`);
const FieldCreate = graphql(`mutation BrandAddressFieldCreate($input: BrandAddressFieldCreateInput_Input!) { row: BrandAddressFields_Create(input: $input) { id brandId fieldName label isRequired isVisible sortOrder } }`);
const FieldUpdate = graphql(`mutation BrandAddressFieldUpdate($input: BrandAddressFieldUpdateInput_Input!) { row: BrandAddressFields_Update(input: $input) { id brandId fieldName label isRequired isVisible sortOrder } }`);

const FIELD_OPTIONS = CONFIGURABLE_ADDRESS_FIELDS.map((f) => ({ value: f.fieldName, label: f.label }));

/** /brands/BrandDeliveryAddressField/:id — how a brand asks for the optional fields of a delivery address. */
export const brandAddressFieldsScreen: ResourceConfig = {
  path: '/brands/BrandDeliveryAddressField/:id',
  title: 'Brand Delivery Address Fields',
  noun: 'address field',
  historyResource: 'BrandAddressFields',
  fixedFilter: (params) => ({ brandId: Number(params.id) }),
  columns: [
    { field: 'fieldName', name: 'Field', width: 140, sortable: true, render: (r) => FIELD_OPTIONS.find((o) => o.value === r.fieldName)?.label ?? String(r.fieldName) },
    { field: 'label', name: 'Shown as', width: 200, sortable: true },
    { field: 'isRequired', name: 'Required', width: 100, render: (r) => (r.isRequired ? <Tag minimal intent="primary">Required</Tag> : 'Optional') },
    { field: 'isVisible', name: 'Shown', width: 90, render: (r) => (r.isVisible ? 'Shown' : <Tag minimal>Hidden</Tag>) },
    { field: 'sortOrder', name: 'Order', width: 80, sortable: true },
  ],
  fields: [
    { name: 'fieldName', label: 'Field', kind: 'select', required: true, createOnly: true, options: FIELD_OPTIONS, help: 'Region, area, block, street and house are always asked.' },
    { name: 'label', label: 'Shown as', kind: 'text', required: true, maxLength: 60 },
    { name: 'isVisible', label: 'Shown in the address form', kind: 'boolean' },
    { name: 'isRequired', label: 'Required', kind: 'boolean' },
    { name: 'sortOrder', label: 'Order', kind: 'number', min: 0, max: 1000 },
  ],
  defaults: { isVisible: true, isRequired: false, sortOrder: 0 },
  searchPlaceholder: 'Search by label',
  defaultSorting: { field: 'sortOrder', direction: 'asc' },
  rowClassName: (r) => (r.isVisible ? undefined : 'resource-row-muted'),
  operations: { list: FieldList, create: FieldCreate, update: FieldUpdate },
};
