import { Tag } from '@blueprintjs/core';
import { Link } from 'wouter';
import { formatMoney } from '../../../../domain/money';
import { graphql } from '../../../gql';
import { useBranches, useBrands } from '../../users/places';
import { PAYMENT_STATE } from '../../orders/OrderReceipt';
import type { ColumnConfig, FilterOption, ResourceConfig } from '../types';
import { dateTimeText } from '../../../../domain/time';

/** PaymentReconciliation/GetPayments: every payment in the caller's scope with the provider's references (issue 21). */
const PaymentReconciliationList = graphql(`
  query PaymentReconciliationList($SkipCount: Int!, $MaxResultCount: Int!, $Sorting: String, $Search: String, $state: String, $provider: String,
    $brandId: Int, $branchId: Int) {
    list: PaymentReconciliation_GetPayments(SkipCount: $SkipCount, MaxResultCount: $MaxResultCount, Sorting: $Sorting, Search: $Search,
      state: $state, provider: $provider, brandId: $brandId, branchId: $branchId) {
      totalCount totalAmount
      data {
        id orderId orderNumber provider status amount currency providerRef paymentId trackId result createdAt paidAt checkedAt updatedAt
        brandId brandName branchId branchName
      }
    }
  }
`);

const placeOptions = (places: { id: number; name: string }[]): FilterOption[] => places.map((p) => ({ value: p.id, label: p.name }));
const useBrandFilter = () => placeOptions(useBrands());
const useBranchFilter = () => placeOptions(useBranches());
const time = (v: unknown) => (v ? dateTimeText(String(v)) : '—');

const columns: ColumnConfig[] = [
  { field: 'createdAt', name: 'Started', width: 170, sortable: true, render: (r) => time(r.createdAt) },
  { field: 'orderNumber', name: 'Order no.', width: 110, render: (r) => <Link href={`/order?q=${encodeURIComponent(String(r.orderNumber))}`}>{String(r.orderNumber)}</Link> },
  { field: 'provider', name: 'Provider', width: 130 },
  {
    field: 'status', name: 'State', width: 150,
    render: (r) => { const s = PAYMENT_STATE[String(r.status)]; return <Tag minimal intent={s?.intent}>{s?.text ?? String(r.status)}</Tag>; },
  },
  { field: 'amount', name: 'Amount', width: 110, sortable: true, render: (r) => formatMoney(Number(r.amount), String(r.currency)) },
  { field: 'providerRef', name: 'Invoice / charge', width: 170 },
  { field: 'paymentId', name: 'Payment ID', width: 170, render: (r) => String(r.paymentId ?? '—') },
  { field: 'trackId', name: 'Track ID', width: 150, render: (r) => String(r.trackId ?? '—') },
  { field: 'result', name: 'Result', width: 160, render: (r) => String(r.result ?? '—') },
  { field: 'paidAt', name: 'Paid', width: 170, sortable: true, render: (r) => time(r.paidAt) },
  { field: 'checkedAt', name: 'Last asked', width: 170, render: (r) => time(r.checkedAt) },
  { field: 'brandName', name: 'Brand', width: 140 },
  { field: 'branchName', name: 'Branch', width: 140 },
];

/** /payment-reconciliation: what a brand's accountant checks against the provider's settlement report. */
export const paymentReconciliationScreen: ResourceConfig = {
  path: '/payment-reconciliation',
  title: 'Payment reconciliation',
  noun: 'payment',
  columns,
  searchPlaceholder: 'Order no., invoice, payment or track ID',
  filters: [
    { field: 'state', label: 'State', options: Object.entries(PAYMENT_STATE).map(([value, s]) => ({ value, label: s.text })) },
    { field: 'provider', label: 'Provider', options: [{ value: 'myfatoorah', label: 'MyFatoorah' }, { value: 'tap', label: 'Tap' }, { value: 'sandbox', label: 'Sandbox' }, { value: 'cash', label: 'Cash' }] },
    { field: 'brandId', label: 'Brand', useOptions: useBrandFilter },
    { field: 'branchId', label: 'Branch', useOptions: useBranchFilter },
  ],
  defaultSorting: { field: 'createdAt', direction: 'desc' },
  operations: { list: PaymentReconciliationList },
};
