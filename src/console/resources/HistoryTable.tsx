import './resources.css';
import { Callout, HTMLTable, NonIdealState, Spinner } from '@blueprintjs/core';
import type { HistoryEntry, Values } from '../../../machines/resourceMachine';
import { dateTimeText } from '../../../domain/time';

/**
 * A row's audit entries (AuditLog/GetEntityHistory), newest first: when, who, and what changed.
 * Used by the resource shape's History tab and by the custom screens (the menu's product form);
 * `label` names a field and `show` writes a value (defaults: the field's name, the value as text).
 */
export function HistoryTable({ entries, loading, error, label = (f) => f, show = shown }: {
  entries: readonly HistoryEntry[]; loading: boolean; error: string | null;
  label?: (field: string) => string; show?: (field: string, value: unknown) => string;
}) {
  if (loading) return <Spinner aria-label="Loading history" />;
  if (error) return <Callout intent="danger">{error}</Callout>;
  if (!entries.length) return <NonIdealState title="No changes recorded" />;
  return (
    <HTMLTable compact striped className="resource-history" aria-label="History">
      <thead><tr><th>When</th><th>Who</th><th>What</th></tr></thead>
      <tbody>
        {entries.map((h) => (
          <tr key={h.id}>
            <td>{dateTimeText(h.at)}</td>
            <td>{h.userName ?? 'system'}</td>
            <td><strong>{ACTION_LABEL[h.action] ?? h.action}</strong>{changesOf(h).map(([field, before, after]) => (
              <span key={field} className="resource-change">
                {label(field)}: {h.action !== 'create' && <del>{orDash(show(field, before))}</del>}{h.action !== 'delete' && <ins>{orDash(show(field, after))}</ins>}
              </span>
            ))}</td>
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}

const ACTION_LABEL: Record<string, string> = { create: 'Created', update: 'Changed', delete: 'Deleted' };
const shown = (_field: string, v: unknown) => (v === null || v === undefined ? '' : String(v));
const orDash = (text: string) => (text === '' ? '—' : text);

/** The fields an entry changed (all of them for a create or a delete), without the id. */
function changesOf(h: HistoryEntry): [string, unknown, unknown][] {
  const before: Values = h.before ?? {};
  const after: Values = h.after ?? {};
  return [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((k) => k !== 'id' && (h.action !== 'update' || JSON.stringify(before[k]) !== JSON.stringify(after[k])))
    .map((k) => [k, before[k], after[k]]);
}
