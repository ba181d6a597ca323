import { Tag } from '@blueprintjs/core';
import { Link } from 'wouter';
import { formatMoney } from '../../../../domain/money';
import { graphql } from '../../../gql';
import { useBranches, useBrands } from '../../users/places';
import type { ColumnConfig, FilterOption, ResourceConfig } from '../types';
import { usePaymentOptions } from './brandSettingsDictionaries';
import { REFUND_STATE } from '../../orders/OrderRefunds';
import { dateTimeText } from '../../../../domain/time';

/** PaymentDashboard/GetBrandCustomerPaymentsHistoryAccessibleForCurrentUser: the server scopes it by role. */
const PaymentHistoryList = graphql(`
  query PaymentHistoryList($SkipCount: Int!, $MaxResultCount: Int!, $Sorting: String, $Search: String, $brandId: Int, $branchId: Int,
    $paymentSystemId: Int, $refund: String, $fromDate: DateTime, $toDate: DateTime) {
    list: PaymentDashboard_GetBrandCustomerPaymentsHistoryAccessibleForCurrentUser(SkipCount: $SkipCount, MaxResultCount: $MaxResultCount,
      Sorting: $Sorting, Search: $Search, brandId: $brandId, branchId: $branchId, paymentSystemId: $paymentSystemId, refund: $refund,
      fromDate: $fromDate, toDate: $toDate) {
      totalCount totalAmount
      data {
        id orderNumber paidAt amount currency paymentSystemId paymentSystemName deliverySystem refund refundId refundStatus refundAmount
        customerId customerName phoneNumber isGuest brandId brandName branchId branchName
      }
    }
  }
`);

const REFUND_TAG: Record<string, { text: string; intent: 'warning' | 'danger' } | undefined> = {
  requested: { text: 'Refund requested', intent: 'warning' },
  approved: { text: 'Refunded', intent: 'danger' },
};

const placeOptions = (places: { id: number; name: string }[]): FilterOption[] => places.map((p) => ({ value: p.id, label: p.name }));
const useBrandFilter = () => placeOptions(useBrands());
const useBranchFilter = () => placeOptions(useBranches());
const useMethodFilter = () => usePaymentOptions().map((o) => ({ value: Number(o.value), label: o.label }));

const columns: ColumnConfig[] = [
  { field: 'paidAt', name: 'Paid', width: 170, sortable: true, render: (r) => dateTimeText(String(r.paidAt)) },
  { field: 'orderNumber', name: 'Order no.', width: 110, render: (r) => <Link href={`/order?q=${encodeURIComponent(String(r.orderNumber))}`}>{String(r.orderNumber)}</Link> },
  {
    field: 'customerName', name: 'Customer', width: 220,
    render: (r) => (
      <>
        {r.isGuest || !r.customerId ? String(r.customerName || 'Guest') : <Link href={`/customers/${String(r.customerId)}`}>{String(r.customerName)}</Link>}
        {r.phoneNumber ? <span className="resource-muted"> · {String(r.phoneNumber)}</span> : null}
      </>
    ),
  },
  { field: 'brandName', name: 'Brand', width: 140 },
  { field: 'branchName', name: 'Branch', width: 140 },
  { field: 'paymentSystemName', name: 'Method', width: 130 },
  { field: 'amount', name: 'Amount', width: 110, sortable: true, render: (r) => formatMoney(Number(r.amount), String(r.currency)) },
  {
    field: 'refund', name: 'Refund', width: 200,
    // The money given back (its state at the provider) first; else where the refund request stands.
    render: (r) => {
      const given = r.refundStatus ? REFUND_STATE[String(r.refundStatus)] : undefined;
      if (given) return <Tag minimal intent={given.intent} data-refund-status={String(r.refundStatus)}>{given.text} · {formatMoney(Number(r.refundAmount), String(r.currency))}</Tag>;
      const tag = REFUND_TAG[String(r.refund)];
      return tag ? <Tag minimal intent={tag.intent}>{tag.text}</Tag> : '—';
    },
  },
];

/** /payment-history: customers' payments received, by role (SPEC.md 2.2, 7 PaymentDashboard). */
export const paymentHistoryScreen: ResourceConfig = {
  path: '/payment-history',
  title: 'Payment history',
  noun: 'payment',
  columns,
  searchPlaceholder: 'Customer, phone or order no.',
  filters: [
    { field: 'fromDate', label: 'From', kind: 'date', edge: 'start' },
    { field: 'toDate', label: 'To', kind: 'date', edge: 'end' },
    { field: 'brandId', label: 'Brand', useOptions: useBrandFilter },
    { field: 'branchId', label: 'Branch', useOptions: useBranchFilter },
    { field: 'paymentSystemId', label: 'Method', useOptions: useMethodFilter },
    { field: 'refund', label: 'Refund', options: [{ value: 'none', label: 'Kept' }, { value: 'requested', label: 'Refund requested' }, { value: 'approved', label: 'Refunded' }] },
  ],
  defaultSorting: { field: 'paidAt', direction: 'desc' },
  rowClassName: (r) => (r.refund === 'approved' ? 'resource-row-muted' : undefined),
  operations: { list: PaymentHistoryList },
};
