import { Button, Tag } from '@blueprintjs/core';
import { useMutation, useQuery } from '@apollo/client/react';
import { clockText } from '../../../domain/time';
import { OrderSlotLoads, SetOrderSlotClosed } from './operations';

/** The load changes with every order; the live feed already refreshes the board, this line asks again this often. */
const REFRESH_MS = 30_000;
const MODE_LABEL: Record<string, string> = { pickup: 'Pickup', carService: 'Car service', delivery: 'Delivery' };

/**
 * The order screens' line about capacity per time slot (issue 25), beside the printers' line: per
 * mode, the slot running now and the next one with their orders (of the maximum, when there is one),
 * and a button to close a slot in a rush or open it again (Branch/SetOrderSlotClosed, orders.operate).
 * A mode shows when it has a maximum, orders or a closed slot in those two slots.
 */
export function SlotLoads({ branchId, canClose }: { branchId: number; canClose: boolean }) {
  const { data, refetch } = useQuery(OrderSlotLoads, { variables: { branchId }, pollInterval: REFRESH_MS, fetchPolicy: 'cache-and-network', context: { silent: true } });
  const [setClosed, { loading }] = useMutation(SetOrderSlotClosed);
  const modes = [data?.pickup, data?.carService, data?.delivery].flatMap((m) => {
    const slots = (m?.slots ?? []).flatMap((s) => (s ? [s] : [])).slice(0, 2);
    return m && slots.length && (m.maxOrders != null || slots.some((s) => s.taken > 0 || s.state === 'closed')) ? [{ ...m, slots }] : [];
  });
  if (!modes.length) return null;
  const toggle = async (mode: string, slotStart: string, closed: boolean) => {
    await setClosed({ variables: { input: { branchId, mode, slotStart, closed } } });
    await refetch();
  };
  return (
    <div className="printer-status" role="status" aria-label="Time slots" data-testid="slot-loads">
      <span className="printer-status-title">Slots</span>
      {modes.map((m) => (
        <span key={m.mode} className="printer-status" data-testid={`slot-loads-${m.mode}`}>
          {MODE_LABEL[m.mode] ?? m.mode}
          {m.slots.map((s) => (
            <span key={s.start}>
              <Tag minimal={s.state === 'free'} intent={s.state === 'closed' ? 'danger' : s.state === 'full' ? 'warning' : 'none'}>
                {clockText(s.start)} {s.taken}{m.maxOrders != null ? `/${m.maxOrders}` : ''}{s.state === 'closed' ? ' closed' : s.state === 'full' ? ' full' : ''}
              </Tag>
              {canClose && (
                <Button size="small" variant="minimal" disabled={loading} onClick={() => void toggle(m.mode, s.start, s.state !== 'closed')}
                  aria-label={`${s.state === 'closed' ? 'Open' : 'Close'} the ${clockText(s.start)} ${MODE_LABEL[m.mode] ?? m.mode} slot`}>
                  {s.state === 'closed' ? 'Open' : 'Close'}
                </Button>
              )}
            </span>
          ))}
        </span>
      ))}
    </div>
  );
}
