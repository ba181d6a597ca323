import type { Intent } from '@blueprintjs/core';
import { approvalMachine, APPROVAL_STATUSES, type ApprovalStatus } from '../../../machines/approvalMachine';
import type { FilterConfig } from './types';

/**
 * A request's approval status as the console shows it, in one place for every four-eyes list
 * (loyalty and balance requests, notification requests). The labels are the approval machine's
 * own `meta.label`s (machines/approvalMachine.ts): Pending, Approved, Rejected.
 */
export const APPROVAL_LABELS = Object.fromEntries(APPROVAL_STATUSES.map((status) =>
  [status, (approvalMachine.states[status].config.meta as { label: string }).label])) as Readonly<Record<ApprovalStatus, string>>;

export const APPROVAL_INTENT = { pending: 'warning', approved: 'success', rejected: 'none' } as const satisfies Record<ApprovalStatus, Intent>;

/** The list's State filter: one option per status, with these labels (a screen may word a status its own way). */
export const approvalFilter = (labels: Readonly<Record<ApprovalStatus, string>> = APPROVAL_LABELS): FilterConfig =>
  ({ field: 'Status', label: 'State', options: APPROVAL_STATUSES.map((value) => ({ value, label: labels[value] })) });
