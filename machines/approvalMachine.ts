import { setup, transition, type SnapshotFrom } from 'xstate';

/**
 * A request's approval (docs/decisions.md "Loyalty: four eyes"): pending → approved | rejected,
 * both final, and only by someone other than the one who asked. Shared by the server
 * (server/services/customer/requests.ts and the notification requests run every decision through
 * `nextApprovalState` under the request's row lock) and the console (which buttons a request shows,
 * `allowedDecisions`). Only the step to approved writes to the ledger, so approving twice can never
 * pay twice: the second approval finds the request approved already and is refused.
 *
 * Who may decide at all (the role, the brand's scope) is the permission table's and the scope's
 * business; the machine holds the one rule they cannot express: nobody decides their own request.
 */
export type ApprovalStatus = 'pending' | 'approved' | 'rejected';
export type ApprovalDecision = 'request.approve' | 'request.reject';
export type ApprovalEvent = { type: ApprovalDecision };
/** Who asked (null: the system or a request older than the rule) and who is deciding now (null: nobody signed in). */
export interface ApprovalParties { requestedBy: number | null; decidedBy: number | null }

type MachineEvent = ApprovalEvent & { by: number | null };

export const approvalMachine = setup({
  types: { context: {} as { requestedBy: number | null }, input: {} as { requestedBy: number | null }, events: {} as MachineEvent },
  guards: {
    /** Four eyes: a signed-in decider who is not the asker. */
    notTheAsker: ({ context, event }) => event.by !== null && event.by !== context.requestedBy,
  },
}).createMachine({
  id: 'approval',
  initial: 'pending',
  context: ({ input }) => ({ requestedBy: input.requestedBy }),
  states: {
    pending: {
      meta: { label: 'Pending' },
      on: {
        'request.approve': { guard: 'notTheAsker', target: 'approved' },
        'request.reject': { guard: 'notTheAsker', target: 'rejected' },
      },
    },
    approved: { type: 'final', meta: { label: 'Approved' } },
    rejected: { type: 'final', meta: { label: 'Rejected' } },
  },
});

export type ApprovalSnapshot = SnapshotFrom<typeof approvalMachine>;
export const APPROVAL_STATUSES: ApprovalStatus[] = ['pending', 'approved', 'rejected'];
export const APPROVAL_DECISIONS: readonly ApprovalDecision[] = ['request.approve', 'request.reject'];

const snapshotOf = (status: ApprovalStatus, parties: ApprovalParties) =>
  approvalMachine.resolveState({ value: status, context: { requestedBy: parties.requestedBy } });

/** The status after `event` by `parties.decidedBy`, or null when the machine refuses it. Pure. */
export function nextApprovalState(status: ApprovalStatus, event: ApprovalEvent, parties: ApprovalParties): ApprovalStatus | null {
  const snapshot = snapshotOf(status, parties);
  const machineEvent: MachineEvent = { type: event.type, by: parties.decidedBy };
  if (!snapshot.can(machineEvent)) return null;
  const [next] = transition(approvalMachine, snapshot, machineEvent);
  return next.value as ApprovalStatus;
}

/**
 * Why the machine refuses a decision: 'decided' (the request is approved or rejected already: a
 * 409) or 'ownRequest' (the decider asked for it: a 403); null when it allows it.
 */
export function approvalRefusal(status: ApprovalStatus, event: ApprovalEvent, parties: ApprovalParties): 'decided' | 'ownRequest' | null {
  if (nextApprovalState(status, event, parties) !== null) return null;
  return snapshotOf(status, parties).status === 'done' ? 'decided' : 'ownRequest';
}

/** The decisions `parties.decidedBy` may still take on a request in `status` (the console shows these buttons). */
export const allowedDecisions = (status: ApprovalStatus, parties: ApprovalParties): ApprovalDecision[] =>
  APPROVAL_DECISIONS.filter((type) => nextApprovalState(status, { type }, parties) !== null);

/** The console's hint beside a pending request that its author cannot decide. */
export const WAITING_FOR_ANOTHER_APPROVER = 'Waiting for another approver';
/** The 403's message when someone tries to decide their own request. */
export const OWN_REQUEST = 'You asked for this request; another approver must decide it.';
