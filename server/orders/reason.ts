import { Type } from 'typebox';
import { badRequest } from '../http/envelope';
import {
  EVENT_VERBS, REASON_EVENTS, REASON_MAX_LENGTH, type OrderLifecycleEvent, type OrderEventType,
} from '../../machines/orderLifecycle';

/** The `reason` field of the status-change calls (its bounds are checked here, so the message names the rule). */
export const ReasonField = Type.Optional(Type.String({
  maxLength: 1000,
  description: `Why the order is rejected or marked a no-show (required for those, at most ${REASON_MAX_LENGTH} characters; shown to the customer).`,
}));

const takesReason = (type: OrderEventType): type is (typeof REASON_EVENTS)[number] =>
  (REASON_EVENTS as readonly OrderEventType[]).includes(type);

/**
 * The lifecycle event a status-change call asks for, with the operator's reason. Reject and
 * no-show need one (the customer reads it on /track-order); no other event keeps one. Whitespace
 * runs become one space, so what the customer reads is one line. Throws a 400 naming the field.
 */
export function eventWithReason(type: OrderEventType, raw: string | undefined): OrderLifecycleEvent {
  const reason = (raw ?? '').replace(/\s+/g, ' ').trim();
  if (!takesReason(type)) {
    if (reason) throw invalid(`A reason is kept only when an order is ${REASON_EVENTS.map((e) => EVENT_VERBS[e]).join(' or ')}.`);
    return { type } as OrderLifecycleEvent;
  }
  if (!reason) throw invalid(`Give a reason why the order is ${EVENT_VERBS[type]}; the customer is told it.`);
  if (reason.length > REASON_MAX_LENGTH) throw invalid(`The reason is at most ${REASON_MAX_LENGTH} characters (it has ${reason.length}).`);
  return { type, reason };
}

const invalid = (message: string) => badRequest(message, [{ message: `reason: ${message}`, members: ['reason'] }]);
