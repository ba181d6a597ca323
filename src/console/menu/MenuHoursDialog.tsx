import { useEffect, useState } from 'react';
import { useApolloClient } from '@apollo/client/react';
import { Button, Callout, Classes, Dialog, HTMLSelect, InputGroup, Intent, Tag } from '@blueprintjs/core';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { clockOfMinutes, menuWindowsError, minutesOfText, windowText, type MenuWindow } from '../../../domain/menuWindows';
import { WEEKDAYS } from '../resources/configs/brandSettingsDictionaries';
import { UpdateProduct, UpdateSubtype, UpdateType } from './operations';
import { AddIcon, TimeIcon, TrashIcon } from '@blueprintjs/icons';

/** A product type, sub-type or product whose menu hours are edited. */
export interface HoursTarget {
  kind: 'type' | 'subtype' | 'product';
  id: number;
  name: string;
  windows: readonly MenuWindow[];
}

const MUTATIONS = { type: UpdateType, subtype: UpdateSubtype, product: UpdateProduct };
const NOUNS = { type: 'product type', subtype: 'sub-type', product: 'product' };

/** The windows in a row's tag: 'Sun 06:00–11:00 · Mon 06:00–11:00'; nothing when it is always offered. */
export function MenuHoursTag({ windows }: { windows?: readonly (MenuWindow | null)[] | null }) {
  const list = (windows ?? []).filter((w): w is MenuWindow => !!w);
  if (!list.length) return null;
  const text = list.map((w) => `${WEEKDAYS[w.weekday]?.slice(0, 3) ?? w.weekday} ${windowText(w)}`).join(' · ');
  return <Tag minimal icon={<TimeIcon />} title="Offered in the shop only at these times (Kuwait time)">{text}</Tag>;
}

interface Row { weekday: number; from: string; to: string }
const rowOf = (w: MenuWindow): Row => ({ weekday: w.weekday, from: clockOfMinutes(w.fromMinute), to: clockOfMinutes(w.toMinute) });

/** The rows as windows, or what is wrong with them (the server says the same: domain/menuWindows.ts). */
function windowsOf(rows: Row[]): { windows: MenuWindow[]; problem: string | null } {
  const windows: MenuWindow[] = [];
  for (const [i, r] of rows.entries()) {
    const fromMinute = minutesOfText(r.from), toMinute = minutesOfText(r.to);
    if (fromMinute === null || toMinute === null) return { windows, problem: `Availability window ${i + 1}: use HH:MM, from 00:00 to 24:00.` };
    windows.push({ weekday: r.weekday, fromMinute, toMinute });
  }
  return { windows, problem: menuWindowsError(windows) };
}

/**
 * Menu hours (issue 25, menus by time of day): the weekdays and times, on Kuwait's clock, when
 * the shop offers a product type, a sub-type or a product. None: always. A product is offered
 * when its type, its sub-type and itself all are. An end before the start runs past midnight.
 */
export function MenuHoursDialog({ target, onClose }: { target: HoursTarget | null; onClose: (saved: boolean) => void }) {
  const client = useApolloClient();
  const [rows, setRows] = useState<Row[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [tried, setTried] = useState(false);
  const [saving, setSaving] = useState(false);
  useEffect(() => { setRows((target?.windows ?? []).map(rowOf)); setError(null); setTried(false); }, [target]);
  const { windows, problem } = windowsOf(rows);
  const change = (i: number, patch: Partial<Row>) => { setRows(rows.map((r, j) => (j === i ? { ...r, ...patch } : r))); setError(null); };
  const save = async () => {
    setTried(true);
    if (problem || !target) return;
    setSaving(true);
    try {
      await client.mutate({ mutation: MUTATIONS[target.kind], variables: { input: { id: target.id, availabilityWindows: windows } } as never, context: { silent: true } });
      notify('success', 'Saved', windows.length ? `${target.name} is offered at its menu hours.` : `${target.name} is offered at all hours.`);
      onClose(true);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setSaving(false);
    }
  };
  const title = target ? `Menu hours of the ${NOUNS[target.kind]} ${target.name}` : '';
  const shown = error ?? (tried ? problem : null);
  return (
    <Dialog isOpen={!!target} title={title} onClose={() => onClose(false)} style={{ width: 'min(560px, 96vw)' }} canOutsideClickClose={!saving}>
      <form aria-label={title} noValidate onSubmit={(e) => { e.preventDefault(); void save(); }}>
        <div className={Classes.DIALOG_BODY}>
          <p className="mm-muted">Kuwait time. No hours: offered all day, every day. An end before the start runs past midnight; 00:00–24:00 is the whole day.</p>
          {shown && <Callout intent="danger" role="alert">{shown}</Callout>}
          {rows.map((r, i) => (
            <div key={i} className="mm-subitem" role="group" aria-label={`Hours ${i + 1}`}>
              <HTMLSelect aria-label={`Weekday ${i + 1}`} value={r.weekday} disabled={saving}
                onChange={(e) => change(i, { weekday: Number(e.target.value) })} options={WEEKDAYS.map((label, value) => ({ label, value }))} />
              <InputGroup aria-label={`From ${i + 1}`} placeholder="06:00" value={r.from} disabled={saving} onChange={(e) => change(i, { from: e.target.value })} />
              <InputGroup aria-label={`To ${i + 1}`} placeholder="11:00" value={r.to} disabled={saving} onChange={(e) => change(i, { to: e.target.value })} />
              <Button minimal icon={<TrashIcon />} aria-label={`Remove hours ${i + 1}`} disabled={saving} onClick={() => setRows(rows.filter((_, j) => j !== i))} />
            </div>
          ))}
          <Button icon={<AddIcon />} text="Add hours" disabled={saving} onClick={() => setRows([...rows, rows.length ? { ...rows[rows.length - 1], weekday: (rows[rows.length - 1].weekday + 1) % 7 } : { weekday: 0, from: '06:00', to: '11:00' }])} />
        </div>
        <div className={Classes.DIALOG_FOOTER}><div className={Classes.DIALOG_FOOTER_ACTIONS}>
          <Button text="Cancel" disabled={saving} onClick={() => onClose(false)} />
          <Button type="submit" intent={Intent.PRIMARY} text="Save" loading={saving} />
        </div></div>
      </form>
    </Dialog>
  );
}
