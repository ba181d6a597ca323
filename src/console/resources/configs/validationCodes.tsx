import { useState } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { Alert, Button, Callout, Tab, Tabs, Tag, type Intent } from '@blueprintjs/core';
import { graphql } from '../../../gql';
import { can } from '../../../../domain/permissions';
import { useSession } from '../../../lib/session';
import { ResourceScreen } from '../ResourceScreen';
import { useUrlTab } from '../resourceUrl';
import type { ColumnConfig, ResourceConfig } from '../types';
import { smsCostText } from '../../dashboard/smsCost';
import { dateTimeText } from '../../../../domain/time';
import { PlayIcon } from '@blueprintjs/icons';

// The legacy calls (Customer/GetALlconfermationCode, GetAllForgetCodes) stay hand-written on the
// server; the generic list drives them through the shared variables (Search → PhoneNumber).
const RegistrationCodes = graphql(`
  query RegistrationCodeList($SkipCount: Int!, $MaxResultCount: Int!, $Search: String) {
    list: Customer_GetALlconfermationCode(SkipCount: $SkipCount, MaxResultCount: $MaxResultCount, PhoneNumber: $Search) {
      totalCount data { id phoneNumber email code failedAttempts createdAt expiresAt usedAt provider sendStatus cost currency sendError }
    }
  }
`);
const ResetCodes = graphql(`
  query ResetCodeList($SkipCount: Int!, $MaxResultCount: Int!, $Search: String) {
    list: Customer_GetAllForgetCodes(SkipCount: $SkipCount, MaxResultCount: $MaxResultCount, PhoneNumber: $Search) {
      totalCount data { id phoneNumber email code failedAttempts createdAt expiresAt usedAt provider sendStatus cost currency sendError }
    }
  }
`);

const SmsState = graphql(`query SmsSendingState { state: Sms_GetSendingState { provider paused pausedAt reason resumedAt sent verified } }`);
const ResumeSms = graphql(`mutation ResumeSmsSending { state: Sms_ResumeSending { provider paused pausedAt reason resumedAt sent verified } }`);

const isExpired = (r: Record<string, unknown>) => !r.usedAt && new Date(String(r.expiresAt)).getTime() < Date.now();
/** What the SMS provider said of a code (issue 27); none with the embedded outbox, which sends nothing. */
const DELIVERY: Record<string, { label: string; intent: Intent }> = {
  sending: { label: 'Sending', intent: 'none' },
  sent: { label: 'Sent', intent: 'primary' },
  delivered: { label: 'Delivered', intent: 'success' },
  undelivered: { label: 'Not delivered', intent: 'danger' },
  failed: { label: 'Not sent', intent: 'danger' },
};
const columns: ColumnConfig[] = [
  { field: 'phoneNumber', name: 'Phone', width: 150 },
  // With a real SMS provider the code is never shown (null): only the customer's phone has it.
  { field: 'code', name: 'Code', width: 110, render: (r) => (r.code ? <code className="console-code">{String(r.code)}</code> : '—') },
  {
    field: 'sendStatus', name: 'Delivery', width: 150,
    render: (r) => {
      if (!r.sendStatus) return '—';
      const d = DELIVERY[String(r.sendStatus)] ?? { label: String(r.sendStatus), intent: 'none' as Intent };
      return <Tag minimal intent={d.intent} title={[r.provider, r.sendError].filter(Boolean).join(': ')}>{d.label}</Tag>;
    },
  },
  { field: 'cost', name: 'Cost', width: 100, render: (r) => (r.cost == null ? '—' : smsCostText(String(r.cost), r.currency as string | null)) },
  { field: 'email', name: 'E-mail', width: 200, render: (r) => (r.email ? String(r.email) : '—') },
  { field: 'createdAt', name: 'Sent', width: 180, render: (r) => dateTimeText(String(r.createdAt)) },
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

/**
 * The SMS pumping guard (issue 27) for staff with `sms.guard`: when the circuit breaker paused
 * sending, why, and a button that resumes it once asked to confirm.
 */
function SmsGuardControl() {
  const [asking, setAsking] = useState(false);
  const { data } = useQuery(SmsState, { pollInterval: 60_000, fetchPolicy: 'cache-and-network' });
  const [resume, { loading }] = useMutation(ResumeSms, {
    update(cache, result) { if (result.data?.state) cache.writeQuery({ query: SmsState, data: { state: result.data.state } }); },
  });
  const state = data?.state;
  if (!state || state.provider === 'outbox') return null;
  if (!state.paused) {
    return <p className="bp6-text-muted" data-testid="sms-guard">SMS by {state.provider}: {state.verified} of {state.sent} codes sent in the last hour were verified.</p>;
  }
  return (
    <Callout intent="danger" title="Sending codes by SMS is paused" data-testid="sms-guard">
      <p>{state.reason}</p>
      <Button intent="primary" loading={loading} onClick={() => setAsking(true)} text="Resume sending" />
      <Alert isOpen={asking} intent="primary" icon={<PlayIcon />} confirmButtonText="Resume sending" cancelButtonText="Cancel"
        onConfirm={() => { setAsking(false); void resume().catch(() => undefined); }} onCancel={() => setAsking(false)}>
        <p data-testid="sms-resume-confirmation">
          Resume sending codes by SMS? Codes go out again at once, and each one is charged by the provider. The guard counts
          from now: it pauses again when more than 50 codes are sent in an hour and fewer than half of them are verified.
        </p>
      </Alert>
    </Callout>
  );
}

/**
 * /ValidationCode: with the embedded SMS adapter, the codes it keeps, so staff can read one out to a
 * customer; with a real provider, what was sent and whether it arrived, never the code.
 */
const CODE_KINDS = ['register', 'reset'] as const;
export default function ValidationCodePage() {
  // ?tab=reset: the tab is kept in the address, as the list's search and page are.
  const [kind, setKind] = useUrlTab(CODE_KINDS);
  const { role } = useSession();
  return (
    <>
    {can(role, 'sms.guard') && <SmsGuardControl />}
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
    </>
  );
}
