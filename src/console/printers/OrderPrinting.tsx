import { useEffect, useRef } from 'react';
import { Button, Tag } from '@blueprintjs/core';
import { useMutation, useQuery } from '@apollo/client/react';
import { can } from '../../../domain/permissions';
import { clockText } from '../../../domain/time';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { OrderPrintJobs, PrinterStates, ReprintOrder } from './operations';
import { PrintIcon } from '@blueprintjs/icons';

/** Statuses with a ticket to print again (the server refuses the others). */
const PRINTED_STATUSES = ['accepted', 'ready', 'closed'];

/**
 * An order's kitchen tickets in its drawer (issue 25): each job, printed (the printer confirmed
 * it) or waiting, and the explicit reprint. Nothing shows for a branch without printers.
 */
export function OrderPrinting({ orderId, branchId, status, version, role }: { orderId: number; branchId: number; status: string; version: number; role: string | null }) {
  const printers = useQuery(PrinterStates, { variables: { branchId }, fetchPolicy: 'cache-first', context: { silent: true } });
  const jobs = useQuery(OrderPrintJobs, { variables: { orderId }, fetchPolicy: 'network-only', context: { silent: true }, pollInterval: 5_000 });
  const [reprint, reprinting] = useMutation(ReprintOrder, { context: { silent: true } });
  // A step taken in the drawer (accepting queues the tickets) shows its jobs at once, not at the next poll.
  const { refetch } = jobs;
  const seen = useRef(version);
  useEffect(() => {
    if (seen.current !== version) { seen.current = version; void refetch(); }
  }, [version, refetch]);
  const list = (jobs.data?.jobs ?? []).flatMap((j) => (j ? [j] : []));
  const hasPrinters = (printers.data?.printers ?? []).some((p) => p?.branchId === branchId);
  if (!hasPrinters && !list.length) return null;
  const again = async () => {
    try {
      const res = await reprint({ variables: { input: { orderId } } });
      notify('success', 'Reprint', `${res.data?.queued ?? 0} ticket(s) sent to the kitchen printers.`);
      void jobs.refetch();
    } catch (err) { notify('danger', 'Reprint', errorMessage(err)); }
  };
  return (
    <div className="order-printing" data-testid="order-printing">
      <span className="order-printing-title">Kitchen tickets</span>
      {list.map((j) => (
        <Tag key={j.id} minimal intent={j.status === 'done' ? 'success' : 'warning'} data-testid="print-job" data-status={j.status}>
          {j.printerName}{j.kind === 'ticket' ? '' : ' (reprint)'}: {j.status === 'done' ? `printed ${clockText(j.doneAt)}` : 'waiting for the printer'}
        </Tag>
      ))}
      {can(role, 'orders.operate') && PRINTED_STATUSES.includes(status) && hasPrinters && (
        <Button small icon={<PrintIcon />} text="Reprint" loading={reprinting.loading} onClick={() => void again()} data-testid="reprint" />
      )}
    </div>
  );
}
