import './branches.css';
import { useState } from 'react';
import { useApolloClient } from '@apollo/client/react';
import { Switch } from '@blueprintjs/core';
import { graphql } from '../../../gql';
import type { ResourceConfig } from '../types';
import { PaymentSystemName, PaymentSystemSelect } from './brandSettingsDictionaries';

const PaymentList = graphql(`
  query BrandPaymentList($SkipCount: Int!, $MaxResultCount: Int!, $Sorting: String, $Search: String, $id: Int, $brandId: Int, $isActive: Boolean) {
    list: BrandPayment_GetAllByBrandId(SkipCount: $SkipCount, MaxResultCount: $MaxResultCount, Sorting: $Sorting, Search: $Search, id: $id, brandId: $brandId, isActive: $isActive) {
      totalCount data { id brandId paymentSystemId isActive }
    }
  }
`);
const PaymentCreate = graphql(`mutation BrandPaymentCreate($input: BrandPaymentCreateInput_Input!) { row: BrandPayment_Create(input: $input) { id brandId paymentSystemId isActive } }`);
const PaymentUpdate = graphql(`mutation BrandPaymentUpdate($input: BrandPaymentUpdateInput_Input!) { row: BrandPayment_Update(input: $input) { id brandId paymentSystemId isActive } }`);
const PaymentDelete = graphql(`mutation BrandPaymentDelete($id: Int!) { deleted: BrandPayment_Delete(Id: $id) }`);

/** A method's switch in its row: one Update call, then the page is read again. */
function ActiveSwitch({ row, refresh }: { row: { id: number; isActive?: unknown; paymentSystemId?: unknown }; refresh(): void }) {
  const client = useApolloClient();
  const [busy, setBusy] = useState(false);
  const toggle = async () => {
    setBusy(true);
    try {
      await client.mutate({ mutation: PaymentUpdate, variables: { input: { id: row.id, isActive: !row.isActive } } });
    } finally {
      setBusy(false);
      refresh();
    }
  };
  return (
    <Switch className="brand-payment-switch" checked={!!row.isActive} disabled={busy} label={row.isActive ? 'On' : 'Off'}
      aria-label={`Payment method ${String(row.paymentSystemId)} ${row.isActive ? 'on' : 'off'}`} onChange={() => { void toggle(); }} />
  );
}

/** /brands/payments/:id — the payment methods a brand offers at checkout; a method switched off is neither shown nor taken. */
export const brandPaymentsScreen: ResourceConfig = {
  path: '/brands/payments/:id',
  title: 'Brand Payments',
  noun: 'payment method',
  historyResource: 'BrandPayment',
  fixedFilter: (params) => ({ brandId: Number(params.id) }),
  columns: [
    { field: 'paymentSystemId', name: 'Payment method', width: 220, sortable: true, render: (r) => <PaymentSystemName id={r.paymentSystemId} /> },
    { field: 'isActive', name: 'At checkout', width: 130, sortable: true, render: (r, list) => <ActiveSwitch row={r} refresh={list.refresh} /> },
  ],
  fields: [
    { name: 'paymentSystemId', label: 'Payment method', kind: 'number', required: true, createOnly: true, Input: PaymentSystemSelect },
    { name: 'isActive', label: 'Offered at checkout', kind: 'boolean' },
  ],
  defaults: { isActive: true },
  filters: [{ field: 'isActive', label: 'At checkout', options: [{ value: true, label: 'On' }, { value: false, label: 'Off' }] }],
  defaultSorting: { field: 'paymentSystemId', direction: 'asc' },
  rowClassName: (r) => (r.isActive ? undefined : 'resource-row-muted'),
  operations: { list: PaymentList, create: PaymentCreate, update: PaymentUpdate, delete: PaymentDelete },
};
