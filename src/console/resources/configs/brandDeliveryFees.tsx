import { graphql } from '../../../gql';
import { formatMoney } from '../../../../domain/money';
import type { ResourceConfig } from '../types';
import { AreaName, AreaSelect } from './brandSettingsDictionaries';

const FeeList = graphql(`
  query BrandDeliveryFeeList($SkipCount: Int!, $MaxResultCount: Int!, $Sorting: String, $Search: String, $id: Int, $brandId: Int, $areaId: Int) {
    list: BrandDeliveryFee_GetBrandDeliveryFeeListByBrandId(SkipCount: $SkipCount, MaxResultCount: $MaxResultCount, Sorting: $Sorting, Search: $Search, id: $id, brandId: $brandId, areaId: $areaId) {
      totalCount data { id brandId areaId amount freeAboveAmount }
    }
  }
`);
const FeeCreate = graphql(`mutation BrandDeliveryFeeCreate($input: BrandDeliveryFeeCreateInput_Input!) { row: BrandDeliveryFee_Create(input: $input) { id brandId areaId amount freeAboveAmount } }`);
const FeeUpdate = graphql(`mutation BrandDeliveryFeeUpdate($input: BrandDeliveryFeeUpdateInput_Input!) { row: BrandDeliveryFee_Update(input: $input) { id brandId areaId amount freeAboveAmount } }`);
const FeeDelete = graphql(`mutation BrandDeliveryFeeDelete($id: Int!) { deleted: BrandDeliveryFee_Delete(id: $id) }`);

const THREE_DECIMALS = { regex: /^\d+(\.\d{1,3})?$/, message: 'Use an amount with up to 3 decimals, e.g. 0.750.' };

/** /brands/BrandDeliveryFee/:id — what a brand charges to deliver to each area; an area without a fee gets no delivery. */
export const brandDeliveryFeesScreen: ResourceConfig = {
  path: '/brands/BrandDeliveryFee/:id',
  title: 'Brand Delivery Fee',
  noun: 'delivery fee',
  historyResource: 'BrandDeliveryFee',
  fixedFilter: (params) => ({ brandId: Number(params.id) }),
  columns: [
    { field: 'areaId', name: 'Area', width: 240, sortable: true, render: (r) => <AreaName id={r.areaId} /> },
    { field: 'amount', name: 'Fee', width: 110, sortable: true, render: (r) => formatMoney(Number(r.amount)) },
    { field: 'freeAboveAmount', name: 'Free from', width: 120, sortable: true, render: (r) => (r.freeAboveAmount == null ? 'Never free' : formatMoney(Number(r.freeAboveAmount))) },
  ],
  fields: [
    { name: 'areaId', label: 'Area', kind: 'number', required: true, Input: AreaSelect },
    { name: 'amount', label: 'Fee (KD)', kind: 'number', required: true, min: 0, pattern: THREE_DECIMALS, placeholder: '0.750' },
    { name: 'freeAboveAmount', label: 'Free from an order of (KD)', kind: 'number', min: 0, pattern: THREE_DECIMALS, help: 'Optional: orders at or above this subtotal deliver free.' },
  ],
  defaultSorting: { field: 'areaId', direction: 'asc' },
  operations: { list: FeeList, create: FeeCreate, update: FeeUpdate, delete: FeeDelete },
};
