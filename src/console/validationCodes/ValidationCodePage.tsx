import { useState } from 'react';
import { useQuery } from '@apollo/client/react';
import { Button, ButtonGroup, Callout, H2, HTMLTable, InputGroup, NonIdealState, Spinner, Tab, Tabs, Tag } from '@blueprintjs/core';
import { ChevronLeftIcon, ChevronRightIcon, RefreshIcon, SearchIcon } from '@blueprintjs/icons';
import { graphql } from '../../gql';

const RegistrationCodes = graphql(`
  query RegistrationCodes($skip: Int!, $take: Int!, $phone: String) {
    Customer_GetALlconfermationCode(SkipCount: $skip, MaxResultCount: $take, PhoneNumber: $phone) {
      totalCount data { id phoneNumber email code failedAttempts createdAt expiresAt usedAt }
    }
  }
`);
const ResetCodes = graphql(`
  query ResetCodes($skip: Int!, $take: Int!, $phone: String) {
    Customer_GetAllForgetCodes(SkipCount: $skip, MaxResultCount: $take, PhoneNumber: $phone) {
      totalCount data { id phoneNumber email code failedAttempts createdAt expiresAt usedAt }
    }
  }
`);

const PAGE = 20;
type Kind = 'register' | 'reset';

/** /ValidationCode: the SMS codes the embedded SMS adapter keeps, so staff can read one out to a customer. */
export default function ValidationCodePage() {
  const [kind, setKind] = useState<Kind>('register');
  const [phone, setPhone] = useState('');
  const [skip, setSkip] = useState(0);
  const variables = { skip, take: PAGE, phone: phone.trim() || undefined };
  const register = useQuery(RegistrationCodes, { variables, skip: kind !== 'register', fetchPolicy: 'network-only' });
  const reset = useQuery(ResetCodes, { variables, skip: kind !== 'reset', fetchPolicy: 'network-only' });
  const active = kind === 'register' ? register : reset;
  const list = kind === 'register' ? register.data?.Customer_GetALlconfermationCode : reset.data?.Customer_GetAllForgetCodes;
  const rows = (list?.data ?? []).filter((r) => !!r);
  const total = list?.totalCount ?? 0;
  const now = Date.now();
  return (
    <div className="console-page">
      <H2>Validation codes</H2>
      <div className="console-toolbar">
        <Tabs id="code-kind" selectedTabId={kind} onChange={(id) => { setKind(id as Kind); setSkip(0); }}>
          <Tab id="register" title="Registration" />
          <Tab id="reset" title="Password reset" />
        </Tabs>
        <InputGroup leftIcon={<SearchIcon />} placeholder="Phone number" value={phone} type="search" aria-label="Filter by phone"
          onChange={(e) => { setPhone(e.target.value); setSkip(0); }} />
        <Button icon={<RefreshIcon />} aria-label="Refresh" onClick={() => active.refetch()} loading={active.loading} />
      </div>
      {/* The server says why, e.g. that a real SMS provider sends the codes and none are kept to read. */}
      {active.error && <Callout intent="danger">{active.error.message || 'The codes could not be loaded.'}</Callout>}
      {active.loading && !rows.length ? <Spinner /> : !rows.length ? (
        <NonIdealState title="No codes" description={phone ? 'No code was sent to a phone like this.' : 'No code has been sent yet.'} />
      ) : (
        <div className="console-table-scroll">
          <HTMLTable compact striped className="console-wide-table" aria-label="Validation codes">
            <thead><tr><th>Phone</th><th>Code</th><th>E-mail</th><th>Sent</th><th>State</th><th>Wrong tries</th></tr></thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id}>
                  <td>{r.phoneNumber}</td>
                  <td><code className="console-code">{r.code}</code></td>
                  <td>{r.email ?? '—'}</td>
                  <td>{new Date(r.createdAt).toLocaleString()}</td>
                  <td>{r.usedAt ? <Tag minimal>Used</Tag> : new Date(r.expiresAt).getTime() < now ? <Tag minimal intent="warning">Expired</Tag> : <Tag minimal intent="success">Valid</Tag>}</td>
                  <td>{r.failedAttempts}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </div>
      )}
      <div className="console-pager">
        <span>{total ? `${skip + 1}–${Math.min(skip + PAGE, total)} of ${total}` : ''}</span>
        <ButtonGroup>
          <Button icon={<ChevronLeftIcon />} aria-label="Previous page" disabled={skip === 0} onClick={() => setSkip(Math.max(0, skip - PAGE))} />
          <Button icon={<ChevronRightIcon />} aria-label="Next page" disabled={skip + PAGE >= total} onClick={() => setSkip(skip + PAGE)} />
        </ButtonGroup>
      </div>
    </div>
  );
}
