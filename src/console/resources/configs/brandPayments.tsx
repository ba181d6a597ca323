import './branches.css';
import { useState } from 'react';
import { useApolloClient } from '@apollo/client/react';
import { Switch } from '@blueprintjs/core';
import { BrandPayment } from '../generated/BrandPayment';
import { declaredScreen, type RowOf } from '../declared';
import { PaymentSystemName, PaymentSystemSelect } from './brandSettingsDictionaries';

/** A method's switch in its row: one Update call, then the page is read again. */
function ActiveSwitch({ row, refresh }: { row: RowOf<typeof BrandPayment>; refresh(): void }) {
  const client = useApolloClient();
  const [busy, setBusy] = useState(false);
  const toggle = async () => {
    setBusy(true);
    try {
      await client.mutate({ mutation: BrandPayment.operations.update, variables: { input: { id: row.id, isActive: !row.isActive } } });
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
export const brandPaymentsScreen = declaredScreen(BrandPayment, {
  path: '/brands/payments/:id',
  title: 'Brand Payments',
  noun: 'payment method',
  fixedFilter: (params) => ({ brandId: Number(params.id) }),
  columns: [
    { field: 'paymentSystemId', name: 'Payment method', width: 220, render: (r) => <PaymentSystemName id={r.paymentSystemId} /> },
    { field: 'isActive', name: 'At checkout', width: 130, render: (r, list) => <ActiveSwitch row={r} refresh={list.refresh} /> },
  ],
  fields: [
    { name: 'paymentSystemId', label: 'Payment method', Input: PaymentSystemSelect },
    { name: 'isActive', label: 'Offered at checkout' },
  ],
  filters: [{ field: 'isActive', label: 'At checkout', options: [{ value: true, label: 'On' }, { value: false, label: 'Off' }] }],
  rowClassName: (r) => (r.isActive ? undefined : 'resource-row-muted'),
});
