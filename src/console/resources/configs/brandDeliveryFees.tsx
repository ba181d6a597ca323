import { formatMoney } from '../../../../domain/money';
import { BrandDeliveryFee } from '../generated/BrandDeliveryFee';
import { declaredScreen } from '../declared';
import { AreaName, AreaSelect } from './brandSettingsDictionaries';

const THREE_DECIMALS = { regex: /^\d+(\.\d{1,3})?$/, message: 'Use an amount with up to 3 decimals, e.g. 0.750.' };

/** /brands/BrandDeliveryFee/:id — what a brand charges to deliver to each area; an area without a fee gets no delivery. */
export const brandDeliveryFeesScreen = declaredScreen(BrandDeliveryFee, {
  path: '/brands/BrandDeliveryFee/:id',
  title: 'Brand Delivery Fee',
  noun: 'delivery fee',
  fixedFilter: (params) => ({ brandId: Number(params.id) }),
  columns: [
    { field: 'areaId', name: 'Area', width: 240, render: (r) => <AreaName id={r.areaId} /> },
    { field: 'amount', name: 'Fee', width: 110, render: (r) => formatMoney(Number(r.amount)) },
    { field: 'freeAboveAmount', name: 'Free from', width: 120, render: (r) => (r.freeAboveAmount == null ? 'Never free' : formatMoney(Number(r.freeAboveAmount))) },
  ],
  fields: [
    { name: 'areaId', label: 'Area', Input: AreaSelect },
    { name: 'amount', label: 'Fee (KD)', pattern: THREE_DECIMALS, placeholder: '0.750' },
    { name: 'freeAboveAmount', label: 'Free from an order of (KD)', pattern: THREE_DECIMALS, help: 'Optional: orders at or above this subtotal deliver free.' },
  ],
});
