import './printers.css';
import { Tag } from '@blueprintjs/core';
import { useQuery } from '@apollo/client/react';
import { clockText } from '../../../domain/time';
import { PrinterStates } from './operations';

/** The server judges online (a poll in the last 2 minutes); the screen asks again this often. */
const REFRESH_MS = 30_000;

/**
 * The order screens' line about the kitchen printers (issue 25): nothing when the caller's
 * branches have none; otherwise how many are online and, by name, each one that is offline,
 * with its last poll, so nobody waits for a ticket that will not come.
 */
export function PrinterStatus() {
  const { data } = useQuery(PrinterStates, { variables: {}, pollInterval: REFRESH_MS, fetchPolicy: 'cache-and-network', context: { silent: true } });
  const printers = (data?.printers ?? []).flatMap((p) => (p ? [p] : []));
  if (!printers.length) return null;
  const offline = printers.filter((p) => !p.isOnline);
  const branches = new Set(printers.map((p) => p.branchId)).size;
  return (
    <div className="printer-status" role="status" aria-label="Kitchen printers" data-testid="printer-status">
      <span className="printer-status-title">Printers</span>
      {printers.length > offline.length && <Tag minimal intent="success">{printers.length - offline.length} online</Tag>}
      {offline.map((p) => (
        <Tag key={p.id} intent="danger" data-testid={`printer-offline-${p.id}`}>
          {branches > 1 ? `${p.branchName} · ` : ''}{p.name} offline{p.lastPolledAt ? ` since ${clockText(p.lastPolledAt)}` : ''}
        </Tag>
      ))}
    </div>
  );
}
