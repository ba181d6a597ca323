import { useState } from 'react';
import { Tab, Tabs, Tag } from '@blueprintjs/core';
import { graphql } from '../../../gql';
import { ResourceScreen } from '../ResourceScreen';
import type { ColumnConfig, ResourceConfig } from '../types';

// The legacy calls (Customer/GetALlconfermationCode, GetAllForgetCodes) stay hand-written on the
// server; the generic list drives them through the shared variables (Search → PhoneNumber).
const RegistrationCodes = graphql(`
  query RegistrationCodeList($SkipCount: Int!, $MaxResultCount: Int!, $Search: String) {
    list: Customer_GetALlconfermationCode(SkipCount: $SkipCount, MaxResultCount: $MaxResultCount, PhoneNumber: $Search) {
      totalCount data { id phoneNumber email code failedAttempts createdAt expiresAt usedAt }
    }
  }
`);
const ResetCodes = graphql(`
  query ResetCodeList($SkipCount: Int!, $MaxResultCount: Int!, $Search: String) {
    list: Customer_GetAllForgetCodes(SkipCount: $SkipCount, MaxResultCount: $MaxResultCount, PhoneNumber: $Search) {
      totalCount data { id phoneNumber email code failedAttempts createdAt expiresAt usedAt }
    }
  }
`);

const isExpired = (r: Record<string, unknown>) => !r.usedAt && new Date(String(r.expiresAt)).getTime() < Date.now();
const columns: ColumnConfig[] = [
  { field: 'phoneNumber', name: 'Phone', width: 150 },
  { field: 'code', name: 'Code', width: 110, render: (r) => <code className="console-code">{String(r.code)}</code> },
  { field: 'email', name: 'E-mail', width: 200, render: (r) => (r.email ? String(r.email) : '—') },
  { field: 'createdAt', name: 'Sent', width: 180, render: (r) => new Date(String(r.createdAt)).toLocaleString() },
  {
    field: 'state', name: 'State', width: 100,
    render: (r) => (r.usedAt ? <Tag minimal>Used</Tag> : isExpired(r) ? <Tag minimal intent="warning">Expired</Tag> : <Tag minimal intent="success">Valid</Tag>),
  },
  { field: 'failedAttempts', name: 'Wrong tries', width: 100 },
];
const codes = (operation: typeof RegistrationCodes): ResourceConfig => ({
  path: '/ValidationCode',
  title: 'Validation codes',
  noun: 'code',
  columns,
  searchPlaceholder: 'Phone number',
  rowClassName: (r) => (r.usedAt || isExpired(r) ? 'resource-row-muted' : undefined),
  operations: { list: operation },
});
export const registrationCodesScreen = codes(RegistrationCodes);
export const resetCodesScreen = codes(ResetCodes as typeof RegistrationCodes);

/** /ValidationCode: the SMS codes the embedded SMS adapter keeps, so staff can read one out to a customer. */
export default function ValidationCodePage() {
  const [kind, setKind] = useState<'register' | 'reset'>('register');
  return (
    <ResourceScreen
      key={kind}
      config={kind === 'register' ? registrationCodesScreen : resetCodesScreen}
      toolbar={(
        <Tabs id="code-kind" selectedTabId={kind} onChange={(id) => setKind(id as 'register' | 'reset')}>
          <Tab id="register" title="Registration" />
          <Tab id="reset" title="Password reset" />
        </Tabs>
      )}
    />
  );
}
