import { setup, transition, type SnapshotFrom } from 'xstate';

/**
 * A customer request's approval (docs/decisions.md "Loyalty"): pending → approved | rejected,
 * both final. Shared by the server (server/loyalty/requests.ts runs every decision through
 * `nextApprovalState` under the request's row lock) and the console (which buttons a request shows).
 * Only the step to approved writes to the ledger, so approving twice can never pay twice: the
 * second approval finds the request approved already and is refused.
 */
export type ApprovalStatus = 'pending' | 'approved' | 'rejected';
export type ApprovalEvent = { type: 'request.approve' } | { type: 'request.reject' };

export const approvalMachine = setup({
  types: { events: {} as ApprovalEvent },
}).createMachine({
  id: 'approval',
  initial: 'pending',
  states: {
    pending: {
      meta: { label: 'Pending' },
      on: { 'request.approve': 'approved', 'request.reject': 'rejected' },
    },
    approved: { type: 'final', meta: { label: 'Approved' } },
    rejected: { type: 'final', meta: { label: 'Rejected' } },
  },
});

export type ApprovalSnapshot = SnapshotFrom<typeof approvalMachine>;
export const APPROVAL_STATUSES: ApprovalStatus[] = ['pending', 'approved', 'rejected'];

/** The status after `event`, or null when the machine refuses it (a decided request stays as it is). Pure. */
export function nextApprovalState(status: ApprovalStatus, event: ApprovalEvent): ApprovalStatus | null {
  const snapshot = approvalMachine.resolveState({ value: status, context: undefined });
  if (!snapshot.can(event)) return null;
  const [next] = transition(approvalMachine, snapshot, event);
  return next.value as ApprovalStatus;
}

/** The decisions a request in `status` still allows (the console shows these buttons). */
export const allowedDecisions = (status: ApprovalStatus): ApprovalEvent['type'][] =>
  (['request.approve', 'request.reject'] as const).filter((type) => nextApprovalState(status, { type }) !== null);
