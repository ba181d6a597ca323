import { useState } from 'react';
import { Button, Dialog, DialogBody, DialogFooter, FormGroup, Radio, RadioGroup, TextArea } from '@blueprintjs/core';
import { REASON_CHOICES, REASON_MAX_LENGTH } from '../../../machines/orderLifecycle';

/** The events that finish an order with a reason: reject and no-show (machines/orderLifecycle.ts REASON_EVENTS). */
export type ReasonEvent = keyof typeof REASON_CHOICES;
export const takesReason = (event: string): event is ReasonEvent => event in REASON_CHOICES;

const TITLE: Record<ReasonEvent, (id: number) => string> = {
  'order.reject': (id) => `Reject order #${id}?`,
  'order.noShow': (id) => `Mark order #${id} as a no-show?`,
};
const CONFIRM: Record<ReasonEvent, string> = { 'order.reject': 'Reject the order', 'order.noShow': 'Mark as no-show' };
const OTHER = '__other';

export interface RejectDialogProps {
  orderId: number;
  event: ReasonEvent;
  onCancel: () => void;
  /** Called once, with the reason as the server keeps it (one line, trimmed, at most REASON_MAX_LENGTH). */
  onConfirm: (reason: string) => void;
}

/**
 * Reject and no-show are final, so they ask first (issue 11): a reason picked from the short list
 * (REASON_CHOICES) or typed. The customer reads it on /track-order. Nothing is sent until the
 * operator confirms; "Keep the order" and Escape send nothing. There is no undo: this is the confirmation.
 */
export function RejectDialog({ orderId, event, onCancel, onConfirm }: RejectDialogProps) {
  const [choice, setChoice] = useState('');
  const [typed, setTyped] = useState('');
  const reason = (choice === OTHER ? typed : choice).replace(/\s+/g, ' ').trim();
  const valid = reason.length > 0 && reason.length <= REASON_MAX_LENGTH;
  return (
    <Dialog isOpen title={TITLE[event](orderId)} onClose={onCancel} className="order-reason-dialog">
      <form onSubmit={(e) => { e.preventDefault(); if (valid) onConfirm(reason); }}>
        <DialogBody>
          <p>This cannot be undone. The customer is told the reason.</p>
          <RadioGroup label="Reason" name={`reason-${orderId}`} selectedValue={choice} onChange={(e) => setChoice(e.currentTarget.value)}>
            {REASON_CHOICES[event].map((r) => <Radio key={r} value={r} label={r} />)}
            <Radio value={OTHER} label="Another reason" />
          </RadioGroup>
          {choice === OTHER && (
            <FormGroup label="Your reason" labelFor="reason-text" helperText={`${reason.length}/${REASON_MAX_LENGTH}`}>
              <TextArea id="reason-text" fill autoFocus maxLength={REASON_MAX_LENGTH} value={typed} onChange={(e) => setTyped(e.target.value)} />
            </FormGroup>
          )}
        </DialogBody>
        <DialogFooter actions={<>
          <Button onClick={onCancel}>Keep the order</Button>
          <Button type="submit" intent="danger" disabled={!valid} data-testid="reason-confirm">{CONFIRM[event]}</Button>
        </>} />
      </form>
    </Dialog>
  );
}
