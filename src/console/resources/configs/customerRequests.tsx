import { Button, Tag } from '@blueprintjs/core';
import { useMutation } from '@apollo/client/react';
import { useState } from 'react';
import { graphql } from '../../../gql';
import { errorMessage } from '../../../lib/errors';
import { notify } from '../../../lib/notify';
import { allowedDecisions, type ApprovalStatus } from '../../../../machines/approvalMachine';
import type { ResourceConfig } from '../types';

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

/** The decisions the approval machine still allows for a request, as buttons. */
function Decisions({ id, status, refresh }: { id: number; status: ApprovalStatus; refresh(): void }) {
  const [approve] = useMutation(Approve, { context: { silent: true } });
  const [reject] = useMutation(Reject, { context: { silent: true } });
  const [busy, setBusy] = useState(false);
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

/** /CustomerRequest — items and punches requests; only approval pays, through the ledger. */
export const customerRequestsScreen: ResourceConfig = {
  path: '/CustomerRequest',
  title: 'Items and Punches Requests',
  noun: 'request',
  columns: [
    { field: 'customerName', name: 'Customer', width: 200 },
    { field: 'account', name: 'What', width: 110, render: (r) => (r.account === 'punches' ? 'Punches' : 'Free items') },
    { field: 'amount', name: 'How many', width: 100 },
    { field: 'reason', name: 'Reason', width: 240 },
    { field: 'status', name: 'State', width: 110, render: (r) => <Tag minimal intent={STATUS_INTENT[r.status as ApprovalStatus]}>{String(r.status)}</Tag> },
    { field: 'id', name: 'Decision', width: 180, render: (r, list) => <Decisions id={Number(r.id)} status={r.status as ApprovalStatus} refresh={list.refresh} /> },
  ],
  fields: [
    { name: 'customerId', label: 'Customer id', kind: 'number', required: true, min: 1 },
    { name: 'brandId', label: 'Brand id', kind: 'number', required: true, min: 1 },
    { name: 'account', label: 'What', kind: 'select', required: true, options: [{ value: 'punches', label: 'Punches' }, { value: 'freeItems', label: 'Free items' }] },
    { name: 'amount', label: 'How many', kind: 'number', required: true, min: 1, max: 1000 },
    { name: 'reason', label: 'Reason', kind: 'text', required: true, maxLength: 500 },
  ],
  defaults: { account: 'punches' },
  filters: [{ field: 'Status', label: 'State', options: [{ value: 'pending', label: 'Pending' }, { value: 'approved', label: 'Approved' }, { value: 'rejected', label: 'Rejected' }] }],
  operations: { list: RequestList, create: RequestCreate },
};
