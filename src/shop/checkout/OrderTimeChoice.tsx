import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { selectWhen, type checkoutMachine, type DeliveryMode } from '../../../machines/checkout';
import { OrderTimeChoiceOf } from '../OrderTimePicker';

/** Binds the choice to the checkout machine: reads `selectWhen`, sends `checkout.when`. */
export function OrderTimeChoice({ checkout, branchId, mode, disabled }: {
  checkout: ActorRefFrom<typeof checkoutMachine>; branchId: number; mode: DeliveryMode; disabled: boolean;
}) {
  const when = useSelector(checkout, selectWhen);
  return <OrderTimeChoiceOf when={when} branchId={branchId} mode={mode} disabled={disabled} onChange={(next) => checkout.send({ type: 'checkout.when', when: next })} />;
}
