import { memo, useState } from 'react';
import { useSelector } from '@xstate/react';
import { Button, ButtonGroup, Classes, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup, TextArea } from '@blueprintjs/core';
import type { OrderActorRef, OrderActionDetails } from '../../../machines/orderBoard';
import type { OrderEventType, OrderLifecycleEvent } from '../../../machines/orderLifecycle';
import { canSendOrderEvent } from '../../../domain/permissions';
import { ORDER_ACTIONS, type OrderAction } from './format';
import { RejectDialog, takesReason, type ReasonEvent } from './RejectDialog';

export interface OrderActionsProps {
  orderId: number;
  /** The order's own lifecycle actor: an action shows only when `can(event)`. */
  order: OrderActorRef;
  role: string | null;
  /** The action on its way to the server, if any (its button spins, the others wait). */
  acting?: OrderEventType;
  onAct: (orderId: number, event: OrderLifecycleEvent, details?: OrderActionDetails) => void;
  size?: 'small' | 'medium';
  /** Only the order's steps, or only its money steps (the table splits them over two columns); all when absent. */
  place?: OrderAction['place'];
  /** A cash order: closing or serving it while unpaid asks whether the cash was collected. */
  isCash?: boolean;
}

const sameList = (a: OrderEventType[], b: OrderEventType[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** The buttons of one order, read from its lifecycle machine and the permission table. */
export const OrderActions = memo(function OrderActions({ orderId, order, role, acting, onAct, size = 'small', place, isCash = false }: OrderActionsProps) {
  const available = useSelector(
    order,
    (s) => ORDER_ACTIONS.filter((a) => (!place || a.place === place) && canSendOrderEvent(role, a.event) && s.can({ type: a.event } as OrderLifecycleEvent)).map((a) => a.event),
    sameList,
  );
  const [refunding, setRefunding] = useState(false);
  // Reject and no-show are final: they ask for the reason the customer will read (issue 11).
  const [asking, setAsking] = useState<ReasonEvent | null>(null);
  // Closing or serving an unpaid cash order: was the cash collected? (issue 21)
  const unpaid = useSelector(order, (s) => s.matches({ payment: 'unpaid' }));
  const [askingCash, setAskingCash] = useState<CashEvent | null>(null);
  if (!available.length) return null;
  // Four steps (an accepted drive-thru order: Ready, Served, Close, No-show) are wider than the
  // Actions column: they stand two by two in the row's two lines instead of running out of the cell.
  const twoRows = available.length >= 4 && size === 'small';
  return (
    <>
      <ButtonGroup className={twoRows ? 'order-actions order-actions-two-rows' : 'order-actions'}>
        {ORDER_ACTIONS.filter((a) => available.includes(a.event)).map((a) => (
          <Button
            key={a.event}
            size={size}
            intent={a.intent}
            variant={a.event === 'order.accept' || a.event === 'order.close' ? 'solid' : 'outlined'}
            loading={acting === a.event}
            disabled={!!acting && acting !== a.event}
            data-action={a.event}
            onClick={(e) => {
              e.stopPropagation();
              if (a.event === 'order.requestRefund') setRefunding(true);
              else if (takesReason(a.event)) setAsking(a.event);
              else if (isCash && unpaid && (a.event === 'order.close' || a.event === 'order.serve')) setAskingCash(a.event);
              else onAct(orderId, { type: a.event } as OrderLifecycleEvent);
            }}
          >
            {a.label}
          </Button>
        ))}
      </ButtonGroup>
      {asking && (
        <RejectDialog
          orderId={orderId}
          event={asking}
          onCancel={() => setAsking(null)}
          onConfirm={(reason) => { setAsking(null); onAct(orderId, { type: asking, reason } as OrderLifecycleEvent); }}
        />
      )}
      {askingCash && (
        <CashCollectedDialog
          orderId={orderId}
          event={askingCash}
          onCancel={() => setAskingCash(null)}
          onAnswer={(cashCollected) => { setAskingCash(null); onAct(orderId, { type: askingCash, ...(cashCollected && { cashCollected }) }); }}
        />
      )}
      {refunding && (
        <RefundDialog
          orderId={orderId}
          onCancel={() => setRefunding(false)}
          onConfirm={(details) => { setRefunding(false); onAct(orderId, { type: 'order.requestRefund' }, details); }}
        />
      )}
    </>
  );
});

type CashEvent = 'order.close' | 'order.serve';

/**
 * "Cash collected?" before a cash order is closed or served. Yes: the order is paid in the same step
 * (payment history, revenue); No: it is closed and stays owed, on /unpaidorders.
 */
function CashCollectedDialog({ orderId, event, onCancel, onAnswer }: { orderId: number; event: CashEvent; onCancel: () => void; onAnswer: (collected: boolean) => void }) {
  const verb = event === 'order.serve' ? 'served' : 'closed';
  return (
    <Dialog isOpen title="Cash collected?" onClose={onCancel} className="order-cash-dialog">
      <DialogBody>
        <p>Order #{orderId} is paid in cash at the branch. Was the cash collected?</p>
        <p className={Classes.TEXT_MUTED}>Yes marks it paid as it is {verb}. No {event === 'order.serve' ? 'serves' : 'closes'} it unpaid: it stays on Unpaid orders as cash owed.</p>
      </DialogBody>
      <DialogFooter actions={<>
        <Button onClick={onCancel}>Cancel</Button>
        <Button onClick={() => onAnswer(false)}>No, still owed</Button>
        <Button intent="success" variant="solid" autoFocus onClick={() => onAnswer(true)}>Yes, collected</Button>
      </>} />
    </Dialog>
  );
}

/** Asks for the reason (required by the server) and, optionally, a partial amount. */
function RefundDialog({ orderId, onCancel, onConfirm }: { orderId: number; onCancel: () => void; onConfirm: (d: OrderActionDetails) => void }) {
  const [reason, setReason] = useState('');
  const [amount, setAmount] = useState('');
  const parsed = amount.trim() ? Number(amount) : undefined;
  const valid = reason.trim().length > 0 && (parsed === undefined || (Number.isFinite(parsed) && parsed > 0));
  return (
    <Dialog isOpen title={`Refund order #${orderId}`} onClose={onCancel} className="order-refund-dialog">
      <form onSubmit={(e) => { e.preventDefault(); if (valid) onConfirm({ reason: reason.trim(), amount: parsed }); }}>
        <DialogBody>
          <FormGroup label="Reason" labelFor="refund-reason" labelInfo="(required)">
            <TextArea id="refund-reason" fill autoFocus value={reason} onChange={(e) => setReason(e.target.value)} />
          </FormGroup>
          <FormGroup label="Amount" labelFor="refund-amount" helperText="Leave empty to refund the whole order.">
            <InputGroup id="refund-amount" inputMode="decimal" value={amount} onValueChange={setAmount} rightElement={<span className={Classes.TEXT_MUTED}>KD&nbsp;</span>} />
          </FormGroup>
        </DialogBody>
        <DialogFooter actions={<>
          <Button onClick={onCancel}>Cancel</Button>
          <Button type="submit" intent="primary" disabled={!valid}>Ask for refund</Button>
        </>} />
      </form>
    </Dialog>
  );
}
