import { Alert, Button, Dialog, DialogBody, DialogFooter, FormGroup, Tag, TextArea } from '@blueprintjs/core';
import { useMutation } from '@apollo/client/react';
import { useState } from 'react';
import { graphql } from '../../../gql';
import { errorMessage } from '../../../lib/errors';
import { notify } from '../../../lib/notify';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import {
  allowedDecisions, approvalRefusal, WAITING_FOR_ANOTHER_APPROVER, type ApprovalDecision, type ApprovalStatus,
} from '../../../../machines/approvalMachine';
import { can, type Capability } from '../../../../domain/permissions';
import { useSession } from '../../../lib/session';
import type { FieldConfig, ListHandle, ResourceConfig, ResourceOperations } from '../types';
import { APPROVAL_INTENT, approvalFilter } from '../approvals';
import { CustomerPicker } from '../../pickers/CustomerPicker';
import { BrandPicker } from '../../pickers/BrandPicker';
import { TickIcon } from '@blueprintjs/icons';

const RequestList = graphql(`
  query CustomerRequestList($SkipCount: Int!, $MaxResultCount: Int!, $Status: queryInput_Customer_GetUserPunchesInfoDetail_Status) {
    list: Customer_GetUserPunchesInfoDetail(SkipCount: $SkipCount, MaxResultCount: $MaxResultCount, Status: $Status) {
      totalCount data { id customerId customerName brandId brandName account amount reason status requestedBy requestedByName decidedAt decisionReason createdAt }
    }
  }
`);
const RequestCreate = graphql(`mutation CustomerRequestCreate($input: InsertUserPunchesInfoDetailInput_Input) { row: Customer_InsertUserPunchesInfoDetail(input: $input) { id status } }`);
const Approve = graphql(`mutation CustomerRequestApprove($id: Int!) { Customer_ApproveUserPunchesInfoDetail(input: { id: $id }) { id status } }`);
const Reject = graphql(`mutation CustomerRequestReject($id: Int!, $reason: String!) { Customer_UpdateRejectCustomerFreeItemsAndPunches(input: { id: $id, reason: $reason }) { id status } }`);

export interface DecisionCalls {
  approve: TypedDocumentNode<unknown, { id: number }>;
  reject: TypedDocumentNode<unknown, { id: number; reason: string }>;
  access: Capability;
  /** What an approval does, said in its confirmation (default: a balance request's). */
  approvalMeans?: string;
  /** What a rejection leaves as it was, said in its question (default: a balance request's). */
  rejectionMeans?: string;
}
/** A new request's one notice: nothing changes until another person decides it. */
export const REQUEST_SENT = { title: 'Request sent for approval', message: 'Another approver decides it; nothing changes until then.' };
/** One request row as the screens list it. */
export interface RequestRow { id: number; status: ApprovalStatus; requestedBy: number | null; customerName: string; brandName?: string | null; account: string; amount: number }
/** How a request's account and amount read ("5 points", "2.500 KD wallet"): the screen's own words. */
export type Describe = (r: Pick<RequestRow, 'account' | 'amount'>) => string;

/**
 * The decisions the approval machine allows this user on a request (issue 20, four eyes): none for a
 * role without the screen's decide capability, none on their own request (a hint says why). Each
 * decision asks first, naming the customer, the account and the amount; a reject asks for a reason.
 * The question is the list's dialog, not the cell's (ListHandle.open): a cell drawn anew while it
 * is open, by a scroll or a refresh, must not close it.
 */
export function Decisions({ request, list, calls, describe }: { request: RequestRow; list: ListHandle; calls: DecisionCalls; describe: Describe }) {
  const { role, profile } = useSession();
  if (!can(role, calls.access)) return null;
  const parties = { requestedBy: request.requestedBy, decidedBy: profile?.id ?? null };
  if (request.status === 'pending' && approvalRefusal(request.status, { type: 'request.approve' }, parties) === 'ownRequest') {
    return <span className="bp6-text-muted" data-testid="request-waiting">{WAITING_FOR_ANOTHER_APPROVER}</span>;
  }
  const what = `${describe(request)} for ${request.customerName}${request.brandName ? ` (${request.brandName})` : ''}`;
  const ask = (decision: ApprovalDecision) => list.open((close) => (
    <DecisionQuestion decision={decision} id={request.id} what={what} calls={calls} close={close} refresh={list.refresh} />
  ));
  return (
    <>
      {allowedDecisions(request.status, parties).map((d) => (d === 'request.approve'
        ? <Button key={d} small intent="success" text="Approve" onClick={() => ask(d)} />
        : <Button key={d} small minimal intent="danger" text="Reject" onClick={() => ask(d)} />))}
    </>
  );
}

/** One decision asked: Approve confirms, Reject takes a reason; busy while the call runs, announced once. */
function DecisionQuestion({ decision, id, what, calls, close, refresh }: {
  decision: ApprovalDecision; id: number; what: string; calls: DecisionCalls; close(): void; refresh(): void;
}) {
  const [approve] = useMutation(calls.approve, { context: { silent: true } });
  const [reject] = useMutation(calls.reject, { context: { silent: true } });
  const [busy, setBusy] = useState(false);
  const [reason, setReason] = useState('');
  const trimmed = reason.replace(/\s+/g, ' ').trim();
  const run = async () => {
    setBusy(true);
    try {
      if (decision === 'request.approve') await approve({ variables: { id } });
      else await reject({ variables: { id, reason: trimmed } });
      notify('success', decision === 'request.approve' ? 'Request approved' : 'Request rejected', what);
    } catch (err) {
      notify('danger', 'Error', errorMessage(err));
    } finally {
      close();
      refresh();
    }
  };
  if (decision === 'request.approve') {
    return (
      <Alert isOpen intent="success" icon={<TickIcon />} confirmButtonText="Approve" cancelButtonText="Cancel" loading={busy}
        onConfirm={() => void run()} onCancel={close}>
        <p data-testid="approve-confirmation">Approve {what}? {calls.approvalMeans ?? "It is added to the customer's balance at once."}</p>
      </Alert>
    );
  }
  return (
    // The title stays short (a dialog's title is one line, cut at its width); the question names the request in full.
    <Dialog isOpen title="Reject this request?" onClose={busy ? undefined : close}>
      <form onSubmit={(e) => { e.preventDefault(); if (trimmed && !busy) void run(); }}>
        <DialogBody>
          <p data-testid="reject-question">Reject {what}? {calls.rejectionMeans ?? 'Nothing is added.'} The reason is kept with the request.</p>
          <FormGroup label="Reason" labelFor={`reject-reason-${id}`} helperText={`${trimmed.length}/500`}>
            <TextArea id={`reject-reason-${id}`} fill autoFocus maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
          </FormGroup>
        </DialogBody>
        <DialogFooter actions={<>
          <Button onClick={close} disabled={busy}>Cancel</Button>
          <Button type="submit" intent="danger" disabled={!trimmed} loading={busy} text="Reject" />
        </>} />
      </form>
    </Dialog>
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
  const amountText = (amount: number) => (s.amount.format ? s.amount.format(amount) : String(amount));
  const describe: Describe = (r) => `${amountText(Number(r.amount))} ${label(r.account).toLowerCase()}`;
  return {
    path: s.path,
    title: s.title,
    noun: 'request',
    savedNotice: REQUEST_SENT,
    columns: [
      { field: 'customerName', name: 'Customer', width: 170 },
      { field: 'account', name: 'What', width: 90, render: (r) => label(r.account) },
      { field: 'amount', name: s.amount.label, width: 100, render: (r) => amountText(Number(r.amount)) },
      { field: 'reason', name: 'Reason', width: 190 },
      { field: 'requestedByName', name: 'Asked by', width: 120 },
      { field: 'status', name: 'State', width: 90, render: (r) => <Tag minimal intent={APPROVAL_INTENT[r.status as ApprovalStatus]} title={r.decisionReason ? String(r.decisionReason) : undefined}>{String(r.status)}</Tag> },
      { field: 'id', name: 'Decision', width: 200, render: (r, list) => <Decisions request={r as unknown as RequestRow} list={list} calls={s.decisions} describe={describe} /> },
    ],
    fields: [
      { name: 'customerId', label: 'Customer', kind: 'number', required: true, min: 1, Input: CustomerPicker },
      { name: 'brandId', label: 'Brand', kind: 'number', required: true, min: 1, Input: BrandPicker },
      { name: 'account', label: 'What', kind: 'select', required: true, options: s.accounts },
      { name: 'amount', label: s.amount.label, kind: 'number', required: true, ...s.amount.field },
      { name: 'reason', label: 'Reason', kind: 'text', required: true, maxLength: 500 },
    ],
    defaults: { account: s.accounts[0].value },
    filters: [approvalFilter()],
    operations: s.operations,
  };
}

/** /CustomerRequest — points, punches and free items requests; only approval pays, through the ledger, never by the one who asked. */
export const customerRequestsScreen = requestScreen({
  path: '/CustomerRequest',
  title: 'Points, Items and Punches Requests',
  accounts: [{ value: 'points', label: 'Points' }, { value: 'punches', label: 'Punches' }, { value: 'freeItems', label: 'Free items' }],
  amount: { label: 'How many', field: { min: 1, max: 1000 } },
  operations: { list: RequestList, create: RequestCreate },
  decisions: { approve: Approve, reject: Reject, access: 'requests.decideCounts' },
});
