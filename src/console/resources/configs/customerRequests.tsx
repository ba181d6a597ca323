import { Button, Tag } from '@blueprintjs/core';
import { useMutation } from '@apollo/client/react';
import { useState } from 'react';
import { graphql } from '../../../gql';
import { errorMessage } from '../../../lib/errors';
import { notify } from '../../../lib/notify';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { allowedDecisions, type ApprovalStatus } from '../../../../machines/approvalMachine';
import { can, type Capability } from '../../../../domain/permissions';
import { useSession } from '../../../lib/session';
import type { FieldConfig, ResourceConfig, ResourceOperations } from '../types';

const RequestList = graphql(`
  query CustomerRequestList($SkipCount: Int!, $MaxResultCount: Int!, $Status: queryInput_Customer_GetUserPunchesInfoDetail_Status) {
    list: Customer_GetUserPunchesInfoDetail(SkipCount: $SkipCount, MaxResultCount: $MaxResultCount, Status: $Status) {
      totalCount data { id customerId customerName brandId account amount reason status decidedAt createdAt }
    }
  }
`);
const RequestCreate = graphql(`mutation CustomerRequestCreate($input: InsertUserPunchesInfoDetailInput_Input) { row: Customer_InsertUserPunchesInfoDetail(input: $input) { id status } }`);
const Approve = graphql(`mutation CustomerRequestApprove($id: Int!) { Customer_ApproveUserPunchesInfoDetail(input: { id: $id }) { id status } }`);
const Reject = graphql(`mutation CustomerRequestReject($id: Int!) { Customer_UpdateRejectCustomerFreeItemsAndPunches(input: { id: $id }) { id status } }`);

const STATUS_INTENT = { pending: 'warning', approved: 'success', rejected: 'none' } as const;

type Decision = TypedDocumentNode<unknown, { id: number }>;
export interface DecisionCalls { approve: Decision; reject: Decision; access: Capability }

/** The decisions the approval machine still allows for a request, as buttons (none for a role that may not decide). */
export function Decisions({ id, status, refresh, calls }: { id: number; status: ApprovalStatus; refresh(): void; calls: DecisionCalls }) {
  const [approve] = useMutation(calls.approve, { context: { silent: true } });
  const [reject] = useMutation(calls.reject, { context: { silent: true } });
  const [busy, setBusy] = useState(false);
  const { role } = useSession();
  if (!can(role, calls.access)) return null;
  const run = async (call: typeof approve) => {
    setBusy(true);
    try {
      await call({ variables: { id } });
    } catch (err) {
      notify('danger', 'Error', errorMessage(err));
    } finally {
      setBusy(false);
      refresh();
    }
  };
  return (
    <>
      {allowedDecisions(status).map((d) => (d === 'request.approve'
        ? <Button key={d} small intent="success" text="Approve" loading={busy} onClick={() => run(approve)} />
        : <Button key={d} small minimal intent="danger" text="Reject" loading={busy} onClick={() => run(reject)} />))}
    </>
  );
}

/**
 * One screen of customer requests (the approval machine's list): what differs between
 * /CustomerRequest and /Request is the accounts, how the amount reads, and the calls.
 */
export interface RequestScreen {
  path: string;
  title: string;
  accounts: { value: string; label: string }[];
  amount: { label: string; field: Omit<FieldConfig, 'name' | 'label' | 'kind' | 'required'>; format?: (amount: number) => string };
  operations: Required<Pick<ResourceOperations, 'list' | 'create'>>;
  decisions: DecisionCalls;
}

export function requestScreen(s: RequestScreen): ResourceConfig {
  const label = (account: unknown) => s.accounts.find((a) => a.value === account)?.label ?? String(account);
  return {
    path: s.path,
    title: s.title,
    noun: 'request',
    columns: [
      { field: 'customerName', name: 'Customer', width: 200 },
      { field: 'account', name: 'What', width: 110, render: (r) => label(r.account) },
      { field: 'amount', name: s.amount.label, width: 110, render: (r) => (s.amount.format ? s.amount.format(Number(r.amount)) : String(r.amount)) },
      { field: 'reason', name: 'Reason', width: 240 },
      { field: 'status', name: 'State', width: 110, render: (r) => <Tag minimal intent={STATUS_INTENT[r.status as ApprovalStatus]}>{String(r.status)}</Tag> },
      { field: 'id', name: 'Decision', width: 180, render: (r, list) => <Decisions id={Number(r.id)} status={r.status as ApprovalStatus} refresh={list.refresh} calls={s.decisions} /> },
    ],
    fields: [
      { name: 'customerId', label: 'Customer id', kind: 'number', required: true, min: 1 },
      { name: 'brandId', label: 'Brand id', kind: 'number', required: true, min: 1 },
      { name: 'account', label: 'What', kind: 'select', required: true, options: s.accounts },
      { name: 'amount', label: s.amount.label, kind: 'number', required: true, ...s.amount.field },
      { name: 'reason', label: 'Reason', kind: 'text', required: true, maxLength: 500 },
    ],
    defaults: { account: s.accounts[0].value },
    filters: [{ field: 'Status', label: 'State', options: [{ value: 'pending', label: 'Pending' }, { value: 'approved', label: 'Approved' }, { value: 'rejected', label: 'Rejected' }] }],
    operations: s.operations,
  };
}

/** /CustomerRequest — items and punches requests; only approval pays, through the ledger. */
export const customerRequestsScreen = requestScreen({
  path: '/CustomerRequest',
  title: 'Items and Punches Requests',
  accounts: [{ value: 'punches', label: 'Punches' }, { value: 'freeItems', label: 'Free items' }],
  amount: { label: 'How many', field: { min: 1, max: 1000 } },
  operations: { list: RequestList, create: RequestCreate },
  decisions: { approve: Approve, reject: Reject, access: 'requests.manage' },
});
