import { Tag } from '@blueprintjs/core';
import { Tax } from '../generated/Tax';
import { declaredScreen } from '../declared';

/** /brands/taxes/:id — a brand's taxes; the brand comes from the route (a fixed filter, also the new tax's brand). */
export const taxScreen = declaredScreen(Tax, {
  path: '/brands/taxes/:id',
  title: 'Brand Taxes',
  noun: 'tax',
  fixedFilter: (params) => ({ brandId: Number(params.id) }),
  columns: [
    { field: 'name', name: 'Name', width: 240 },
    { field: 'percent', name: 'Percent', width: 110, render: (r) => `${r.percent} %` },
    { field: 'isActive', name: 'State', width: 110, render: (r) => (r.isActive ? <Tag minimal intent="success">Active</Tag> : <Tag minimal>Inactive</Tag>) },
  ],
  fields: [
    { name: 'name', label: 'Name' },
    { name: 'percent', label: 'Percent', help: 'Of the subtotal after discounts, up to 3 decimals.' },
    { name: 'isActive', label: 'Active' },
  ],
  filters: [{ field: 'isActive', label: 'State', options: [{ value: true, label: 'Active' }, { value: false, label: 'Inactive' }] }],
  searchPlaceholder: 'Search by name',
  rowClassName: (r) => (r.isActive ? undefined : 'resource-row-muted'),
});
