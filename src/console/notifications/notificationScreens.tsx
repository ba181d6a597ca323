import { HTMLSelect, Tag } from '@blueprintjs/core';
import { useQuery } from '@apollo/client/react';
import { graphql } from '../../gql';
import type { ApprovalStatus } from '../../../machines/approvalMachine';
import type { FieldConfig, FieldInputProps, ResourceConfig } from '../resources/types';
import { APPROVAL_INTENT, APPROVAL_LABELS, approvalFilter } from '../resources/approvals';
import { BrandSelect } from '../resources/configs/brandSettingsDictionaries';
import { Decisions } from '../resources/configs/customerRequests';
import { dateTimeText } from '../../../domain/time';

const RequestList = graphql(`
  query NotificationRequestList($SkipCount: Int!, $MaxResultCount: Int!, $Status: queryInput_Notifications_GetAllNotificationsRequests_Status, $BrandId: Int) {
    list: Notifications_GetAllNotificationsRequests(SkipCount: $SkipCount, MaxResultCount: $MaxResultCount, Status: $Status, BrandId: $BrandId) {
      totalCount data { id brandId brandName groupId groupName title text status requestedBy requestedByName decidedAt createdAt recipients }
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
const Approve = graphql(`mutation NotificationRequestApprove($id: Int!) { Notifications_SendWebAdminNotifications(input: { notificationsRequestId: $id }) { id recipients } }`);
const Reject = graphql(`mutation NotificationRequestReject($id: Int!) { Notifications_RejectNotificationsRequests(input: { id: $id }) { id status } }`);
const Groups = graphql(`query NotificationTargetGroups { tree: CustomersGroups_GetCustomersGroupsTreeView { brandId brandName groups { id name memberCount } } }`);

type NotificationRequestRow = {
  id: number; brandName?: unknown; groupName?: unknown; title?: unknown; text?: unknown; status?: unknown;
  requestedBy?: unknown; requestedByName?: unknown; createdAt?: unknown; recipients?: unknown;
};

/** ADMIN approves (sends) or rejects a request; the confirmation names the notification and its audience. */
const DECISION_CALLS = { approve: Approve, reject: Reject, access: 'notifications.send', approvalMeans: 'It is sent to them at once.' } as const;

/** A notification request's approval is its sending: the approval labels, with pending and approved in those words. */
const STATUS_LABEL = { ...APPROVAL_LABELS, pending: 'Waiting for approval', approved: 'Sent' } as const;
const when = (v: unknown) => dateTimeText(String(v));

/** The target's group: one of the caller's groups, by brand; none means all the brand's customers. */
function GroupSelect({ id, value, disabled, invalid, onChange, onBlur }: FieldInputProps) {
  const tree = useQuery(Groups).data?.tree ?? [];
  return (
    <HTMLSelect id={id} fill disabled={disabled} aria-invalid={invalid} value={value == null ? '' : String(value)}
      onChange={(e) => onChange(e.target.value === '' ? null : Number(e.target.value))} onBlur={onBlur}>
      <option value="">All the brand's customers</option>
      {tree.flatMap((b) => (b && b.groups?.length ? [
        <optgroup key={b.brandId} label={b.brandName}>
          {b.groups.flatMap((g) => (g ? [<option key={g.id} value={g.id}>{`${g.name} (${g.memberCount})`}</option>] : []))}
        </optgroup>,
      ] : []))}
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
  { field: 'title', name: 'Title', width: 150 },
  { field: 'text', name: 'Text', width: 200 },
  { field: 'brandName', name: 'Brand', width: 100 },
  { field: 'groupName', name: 'Send to', width: 120, render: (r) => (r.groupName ? String(r.groupName) : 'All customers') },
  { field: 'requestedByName', name: 'Asked by', width: 110, render: (r) => <span title={when(r.createdAt)}>{String(r.requestedByName ?? '—')}</span> },
  {
    // A sent request says how many customers it reached: 'Sent to 1'.
    field: 'status', name: 'State', width: 150,
    render: (r) => (
      <Tag minimal intent={APPROVAL_INTENT[r.status as ApprovalStatus]}>
        {r.status === 'approved' && r.recipients != null ? `Sent to ${String(r.recipients)}` : STATUS_LABEL[r.status as ApprovalStatus] ?? String(r.status)}
      </Tag>
    ),
  },
  ...(decide ? [{
    field: 'id' as const, name: 'Decision', width: 150,
    render: (r: NotificationRequestRow, list: { refresh(): void }) => (
      <Decisions refresh={list.refresh} calls={DECISION_CALLS} describe={() => `the notification "${String(r.title ?? '')}"`}
        request={{
          id: Number(r.id), status: r.status as ApprovalStatus, requestedBy: r.requestedBy == null ? null : Number(r.requestedBy),
          customerName: r.groupName ? `the group ${String(r.groupName)}` : 'all customers', brandName: r.brandName == null ? null : String(r.brandName),
          account: 'notification', amount: 0,
        }} />
    ),
  }] : []),
];

const stateFilter = approvalFilter(STATUS_LABEL);

/** /notifications — the requests, each approved (sent, once) or rejected through the approval machine by ADMIN. */
export const notificationsScreen: ResourceConfig<NotificationRequestRow> = {
  path: '/notifications',
  title: 'Notifications',
  noun: 'notification',
  columns: columns(true),
  filters: [stateFilter],
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
};

/** /NotificationRequest for ADMIN, who needs no approval: "New notification" sends at once (SendWebAdminNotifications). */
export const notificationSendScreen: ResourceConfig<NotificationRequestRow> = {
  ...notificationRequestScreen,
  noun: 'notification',
  columns: columns(true),
  operations: { list: RequestList, create: SendNow },
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
