import { Tag } from '@blueprintjs/core';
import { graphql } from '../../../gql';
import type { ResourceConfig } from '../types';

const TaxList = graphql(`
  query TaxList($SkipCount: Int!, $MaxResultCount: Int!, $Sorting: String, $Search: String, $id: Int, $brandId: Int, $isActive: Boolean) {
    list: Tax_GetAllByBrandId(SkipCount: $SkipCount, MaxResultCount: $MaxResultCount, Sorting: $Sorting, Search: $Search, id: $id, brandId: $brandId, isActive: $isActive) {
      totalCount data { id brandId name percent isActive }
    }
  }
`);
const TaxCreate = graphql(`mutation TaxCreate($input: TaxCreateInput_Input!) { row: Tax_Create(input: $input) { id brandId name percent isActive } }`);
const TaxUpdate = graphql(`mutation TaxUpdate($input: TaxUpdateInput_Input!) { row: Tax_Update(input: $input) { id brandId name percent isActive } }`);
const TaxDelete = graphql(`mutation TaxDelete($id: Int!) { deleted: Tax_Delete(TaxId: $id) }`);

/** /brands/taxes/:id — a brand's taxes; the brand comes from the route (a fixed filter, also the new tax's brand). */
export const taxScreen: ResourceConfig = {
  path: '/brands/taxes/:id',
  title: 'Brand Taxes',
  noun: 'tax',
  historyResource: 'Tax',
  fixedFilter: (params) => ({ brandId: Number(params.id) }),
  columns: [
    { field: 'name', name: 'Name', width: 240, sortable: true },
    { field: 'percent', name: 'Percent', width: 110, sortable: true, render: (r) => `${r.percent} %` },
    { field: 'isActive', name: 'State', width: 110, sortable: true, render: (r) => (r.isActive ? <Tag minimal intent="success">Active</Tag> : <Tag minimal>Inactive</Tag>) },
  ],
  fields: [
    { name: 'name', label: 'Name', kind: 'text', required: true, maxLength: 100 },
    { name: 'percent', label: 'Percent', kind: 'number', required: true, min: 0, max: 100, help: 'Of the subtotal after discounts, up to 3 decimals.' },
    { name: 'isActive', label: 'Active', kind: 'boolean' },
  ],
  defaults: { isActive: true },
  filters: [{ field: 'isActive', label: 'State', options: [{ value: true, label: 'Active' }, { value: false, label: 'Inactive' }] }],
  searchPlaceholder: 'Search by name',
  defaultSorting: { field: 'name', direction: 'asc' },
  rowClassName: (r) => (r.isActive ? undefined : 'resource-row-muted'),
  operations: { list: TaxList, create: TaxCreate, update: TaxUpdate, delete: TaxDelete },
};
