import { useEffect } from 'react';
import { HTMLSelect, Tag } from '@blueprintjs/core';
import { useQuery } from '@apollo/client/react';
import { graphql } from '../../gql';
import type { ApprovalStatus } from '../../../machines/approvalMachine';
import type { FieldConfig, FieldInputProps, ListHandle, ResourceConfig } from '../resources/types';
import { APPROVAL_INTENT, APPROVAL_LABELS, approvalFilter } from '../resources/approvals';
import { BrandSelect } from '../resources/configs/brandSettingsDictionaries';
import { Decisions, REQUEST_SENT } from '../resources/configs/customerRequests';
import { dateTimeText } from '../../../domain/time';
import { customersCount } from '../customers/groups/count';

const RequestList = graphql(`
  query NotificationRequestList($SkipCount: Int!, $MaxResultCount: Int!, $Status: queryInput_Notifications_GetAllNotificationsRequests_Status, $BrandId: Int, $Unsent: Boolean) {
    list: Notifications_GetAllNotificationsRequests(SkipCount: $SkipCount, MaxResultCount: $MaxResultCount, Status: $Status, BrandId: $BrandId, Unsent: $Unsent) {
      totalCount data { id brandId brandName groupId groupName title text status requestedBy requestedByName decidedAt createdAt recipients audience decisionReason }
    }
  }
`);
const SentList = graphql(`
  query SentNotificationList($SkipCount: Int!, $MaxResultCount: Int!, $BrandId: Int) {
    list: Notifications_GetSentNotifications(SkipCount: $SkipCount, MaxResultCount: $MaxResultCount, BrandId: $BrandId) {
      totalCount data { id brandId brandName groupId groupName title text status requestId requestedByName sentByName recipients createdAt }
    }
  }
`);
const Ask = graphql(`mutation NotificationRequestCreate($input: NotificationsRequestsInput_Input) { row: Notifications_NotificationsRequests(input: $input) { id status } }`);
const SendNow = graphql(`mutation NotificationSendNow($input: SendWebAdminNotificationsInput_Input) { row: Notifications_SendWebAdminNotifications(input: $input) { id recipients } }`);
const Approve = graphql(`mutation NotificationRequestApprove($id: Int!) { Notifications_ApproveNotificationsRequests(input: { id: $id }) { id status recipients } }`);
const Reject = graphql(`mutation NotificationRequestReject($id: Int!, $reason: String!) { Notifications_RejectNotificationsRequests(input: { id: $id, reason: $reason }) { id status decisionReason } }`);
const Groups = graphql(`query NotificationTargetGroups { tree: CustomersGroups_GetCustomersGroupsTreeView { brandId brandName groups { id name memberCount } } }`);
const Audience = graphql(`query NotificationAudience($BrandId: Int!) { customers: Notifications_GetNotificationAudience(BrandId: $BrandId) }`);

type NotificationRequestRow = {
  id: number; brandName?: unknown; groupName?: unknown; title?: unknown; text?: unknown; status?: unknown;
  requestedBy?: unknown; requestedByName?: unknown; createdAt?: unknown; recipients?: unknown; audience?: unknown; decisionReason?: unknown;
};

/**
 * ADMIN or a company admin, never the asker, approves (sends) or rejects a request; the
 * confirmation names the notification and its audience with its size now ("21 customers of the group X").
 */
const DECISION_CALLS = { approve: Approve, reject: Reject, access: 'notifications.decide', approvalMeans: 'It is sent to them at once.', rejectionMeans: 'Nothing is sent.' } as const;
const audienceText = (r: NotificationRequestRow) => {
  const size = r.audience == null ? 'the customers' : customersCount(Number(r.audience));
  return r.groupName ? `${size} of the group ${String(r.groupName)}` : `all ${size}`;
};

/** A notification request's approval is its sending: the approval labels, with pending and approved in those words. */
const STATUS_LABEL = { ...APPROVAL_LABELS, pending: 'Waiting for approval', approved: 'Sent' } as const;
const when = (v: unknown) => dateTimeText(String(v));

/**
 * The target: all the chosen brand's customers or one of its groups, each with how many customers
 * it reaches (a group's members; the brand's customers as the send counts them). Groups of other
 * brands are not offered (the server refuses them), and a group left from another brand is dropped.
 */
function GroupSelect({ id, value, disabled, invalid, onChange, onBlur, values }: FieldInputProps) {
  const brandId = values?.brandId == null ? null : Number(values.brandId);
  const tree = useQuery(Groups);
  const groups = (tree.data?.tree ?? []).find((b) => b?.brandId === brandId)?.groups?.flatMap((g) => (g ? [g] : [])) ?? [];
  const all = useQuery(Audience, { variables: { BrandId: brandId ?? 0 }, skip: brandId == null, fetchPolicy: 'network-only' }).data?.customers;
  const foreign = value != null && !!tree.data && !groups.some((g) => g.id === Number(value));
  useEffect(() => { if (foreign) onChange(null); }, [foreign, onChange]);
  return (
    <HTMLSelect id={id} fill disabled={disabled || brandId == null} aria-invalid={invalid} value={value == null || foreign ? '' : String(value)}
      onChange={(e) => onChange(e.target.value === '' ? null : Number(e.target.value))} onBlur={onBlur}>
      <option value="">{brandId == null ? 'Choose the brand first' : `All the brand's customers${all == null ? '' : ` · ${customersCount(all)}`}`}</option>
      {groups.map((g) => <option key={g.id} value={g.id}>{`${g.name} · ${customersCount(g.memberCount)}`}</option>)}
    </HTMLSelect>
  );
}

const FIELDS: FieldConfig[] = [
  { name: 'brandId', label: 'Brand', kind: 'number', required: true, Input: BrandSelect },
  { name: 'groupId', label: 'Send to', kind: 'number', Input: GroupSelect, help: "A group of the brand, or all the brand's customers." },
  { name: 'title', label: 'Title', kind: 'text', required: true, maxLength: 100 },
  { name: 'text', label: 'Text', kind: 'textarea', required: true, maxLength: 1000 },
];

const columns = (decide: boolean): ResourceConfig<NotificationRequestRow>['columns'] => [
  // The widths fit 1024 px with the folded menu.
  { field: 'title', name: 'Title', width: 150 },
  { field: 'text', name: 'Text', width: 170 },
  { field: 'brandName', name: 'Brand', width: 100 },
  { field: 'groupName', name: 'Send to', width: 120, render: (r) => (r.groupName ? String(r.groupName) : 'All customers') },
  { field: 'requestedByName', name: 'Asked by', width: 110, render: (r) => <span title={when(r.createdAt)}>{String(r.requestedByName ?? '—')}</span> },
  {
    // A sent request says how many customers it reached: 'Sent to 1'.
    field: 'status', name: 'State', width: 130,
    render: (r) => (
      <Tag minimal intent={APPROVAL_INTENT[r.status as ApprovalStatus]} title={r.decisionReason ? String(r.decisionReason) : undefined}>
        {r.status === 'approved' && r.recipients != null ? `Sent to ${String(r.recipients)}` : STATUS_LABEL[r.status as ApprovalStatus] ?? String(r.status)}
      </Tag>
    ),
  },
  ...(decide ? [{
    field: 'id' as const, name: 'Decision', width: 140,
    render: (r: NotificationRequestRow, list: ListHandle) => (
      <Decisions list={list} calls={DECISION_CALLS} describe={() => `the notification "${String(r.title ?? '')}"`}
        request={{
          id: Number(r.id), status: r.status as ApprovalStatus, requestedBy: r.requestedBy == null ? null : Number(r.requestedBy),
          customerName: audienceText(r), brandName: r.brandName == null ? null : String(r.brandName),
          account: 'notification', amount: 0,
        }} />
    ),
  }] : []),
];

const stateFilter = approvalFilter(STATUS_LABEL);

/**
 * /notifications — the requests not sent yet (waiting, or rejected), each approved (sent, once) or
 * rejected through the approval machine by ADMIN or a company admin. A sent one is listed once,
 * among the sent notifications under this list (issue 23: "show one send in one place").
 */
export const notificationsScreen: ResourceConfig<NotificationRequestRow> = {
  path: '/notifications',
  title: 'Notification requests',
  noun: 'notification request',
  columns: columns(true),
  filters: [{ field: 'Status', label: 'State', options: (['pending', 'rejected'] as const).map((value) => ({ value, label: STATUS_LABEL[value] })) }],
  fixedFilter: () => ({ Unsent: true }),
  operations: { list: RequestList },
};

/** /NotificationRequest for staff below ADMIN: ask to send a notification, and follow what became of it. */
export const notificationRequestScreen: ResourceConfig<NotificationRequestRow> = {
  path: '/NotificationRequest',
  title: 'Notification Request',
  noun: 'notification request',
  columns: columns(false),
  fields: FIELDS,
  filters: [stateFilter],
  operations: { list: RequestList, create: Ask },
  savedNotice: { title: REQUEST_SENT.title, message: 'Nothing is sent until ADMIN or a company admin approves it.' },
};

/** /NotificationRequest for ADMIN, who needs no approval: "New notification" sends at once (SendWebAdminNotifications). */
export const notificationSendScreen: ResourceConfig<NotificationRequestRow> = {
  ...notificationRequestScreen,
  noun: 'notification',
  columns: columns(true),
  operations: { list: RequestList, create: SendNow },
  savedNotice: { title: 'Notification sent', message: 'It went to its customers at once.' },
  // Save sends: a push on every phone of the audience, which no one can take back.
  confirmSave: {
    confirm: 'Send now',
    message: (v) => `Send "${String(v.title ?? '').trim()}" now to ${v.groupId == null ? "all the brand's customers" : 'every member of the chosen group'}? `
      + 'It reaches their phones at once and cannot be taken back.',
  },
};

type SentNotificationRow = {
  id: number; brandName?: unknown; groupName?: unknown; title?: unknown; text?: unknown; requestId?: unknown;
  requestedByName?: unknown; sentByName?: unknown; recipients?: unknown; createdAt?: unknown;
};

/**
 * /notifications, under the requests: every notification that went out, those ADMIN sent directly
 * (no request) as well as approved requests, with who sent it, to whom and how many it reached.
 */
export const sentNotificationsScreen: ResourceConfig<SentNotificationRow> = {
  path: '/notifications',
  title: 'Sent notifications',
  noun: 'sent notification',
  columns: [
    { field: 'title', name: 'Title', width: 150 },
    { field: 'text', name: 'Text', width: 200 },
    { field: 'brandName', name: 'Brand', width: 100 },
    { field: 'groupName', name: 'Send to', width: 120, render: (r) => (r.groupName ? String(r.groupName) : 'All customers') },
    {
      field: 'sentByName', name: 'Sent by', width: 150,
      render: (r) => (
        <span title={when(r.createdAt)}>
          {String(r.sentByName ?? '—')}{r.requestId != null ? ` (asked by ${String(r.requestedByName ?? '—')})` : ''}
        </span>
      ),
    },
    { field: 'createdAt', name: 'Sent at', width: 130, render: (r) => when(r.createdAt) },
    {
      field: 'recipients', name: 'State', width: 110,
      render: (r) => <Tag minimal intent="success">{`Sent to ${String(r.recipients)}`}</Tag>,
    },
  ],
  operations: { list: SentList },
};
