import { useState } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { Button, Callout, Checkbox, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect } from '@blueprintjs/core';
import { graphql } from '../../gql';
import { useSession } from '../../lib/session';
import { notify } from '../../lib/notify';
import { clockText } from '../../../domain/time';
import { TimeIcon } from '@blueprintjs/icons';

const BusyModeQuery = graphql(`
  query ConsoleBusyMode($branchId: Int!) {
    mode: Branch_GetBusyMode(branchId: $branchId) { branchId isBusy busyUntil delayMinutes delayUntil }
  }
`);

const UpdateBusyMode = graphql(`
  mutation UpdateBusyMode($input: UpdateBusyModeInput_Input!) {
    mode: Branch_UpdateBusyMode(input: $input) { branchId isBusy busyUntil delayMinutes delayUntil }
  }
`);

/** The waits a branch can announce and how long a mode may last (server/services/branch/busy.ts checks them). */
const DELAYS = [0, 15, 30, 45, 60];
const DURATIONS = [{ minutes: 15, label: '15 minutes' }, { minutes: 30, label: '30 minutes' }, { minutes: 60, label: '1 hour' }, { minutes: 120, label: '2 hours' }, { minutes: 240, label: '4 hours' }];
/** Busy mode ends by itself on the server; the console looks again this often so the banner goes with it. */
const REFRESH_MS = 30_000;

const time = (iso: unknown) => clockText(iso as string | null | undefined);

/**
 * Busy mode for the branch user's own branch (issue 11): busy (the shop takes no new orders)
 * and/or an announced extra wait, both until a time picked here. While either is on, a page-wide
 * banner says so, with the time it ends and a button that ends it now.
 */
export function BusyControl() {
  const { profile } = useSession();
  const branchId = profile?.branchId ?? 0;
  const { data } = useQuery(BusyModeQuery, { variables: { branchId }, skip: !branchId, pollInterval: REFRESH_MS, fetchPolicy: 'cache-and-network' });
  const [update, { loading }] = useMutation(UpdateBusyMode, {
    update(cache, result) {
      if (result.data?.mode) cache.writeQuery({ query: BusyModeQuery, variables: { branchId }, data: { mode: result.data.mode } });
    },
  });
  const [editing, setEditing] = useState(false);
  // The common case is a longer wait while still taking orders; refusing orders is the stronger step.
  const [busy, setBusy] = useState(false);
  const [delay, setDelay] = useState(15);
  const [forMinutes, setForMinutes] = useState(30);
  if (!branchId) return null;
  const mode = data?.mode;
  const on = !!mode && (mode.isBusy || mode.delayMinutes > 0);

  const apply = async (input: { isBusy: boolean; delayMinutes: number; forMinutes?: number }) => {
    const res = await update({ variables: { input } }).catch(() => null);
    if (!res?.data?.mode) return;
    setEditing(false);
    const m = res.data.mode;
    notify(m.isBusy || m.delayMinutes ? 'warning' : 'success', 'Busy mode',
      m.isBusy ? `The shop takes no new orders until ${time(m.busyUntil)}.`
        : m.delayMinutes ? `The shop announces +${m.delayMinutes} min until ${time(m.delayUntil)}.`
        : 'Busy mode is off: the shop takes orders at the usual wait.');
  };

  return (
    <>
      {on && (
        <Callout intent="warning" className="busy-banner" data-testid="console-busy-banner" title={mode.isBusy ? 'This branch is busy' : `Longer wait announced: +${mode.delayMinutes} min`}>
          {mode.isBusy ? `The shop takes no new orders until ${time(mode.busyUntil)}.` : ''}
          {mode.isBusy && mode.delayMinutes > 0 ? ' ' : ''}
          {mode.delayMinutes > 0 ? `Customers are told to expect ${mode.delayMinutes} minutes more until ${time(mode.delayUntil)}.` : ''}
          {' '}
          <Button size="small" variant="outlined" loading={loading} onClick={() => apply({ isBusy: false, delayMinutes: 0 })}>End busy mode now</Button>
        </Callout>
      )}
      <Button size="small" icon={<TimeIcon />} style={{ alignSelf: 'flex-end' }} onClick={() => setEditing(true)} data-testid="busy-mode-button">{on ? 'Change busy mode' : 'Busy mode…'}</Button>
      {editing && (
        <Dialog isOpen title="Busy mode" onClose={() => setEditing(false)}>
          <form onSubmit={(e) => { e.preventDefault(); void apply({ isBusy: busy, delayMinutes: delay, forMinutes }); }}>
            <DialogBody>
              <Checkbox checked={busy} onChange={(e) => setBusy(e.currentTarget.checked)} label="Take no new orders" />
              <FormGroup label="Announce a longer wait" labelFor="busy-delay">
                <HTMLSelect id="busy-delay" value={delay} onChange={(e) => setDelay(Number(e.currentTarget.value))}
                  options={DELAYS.map((d) => ({ value: d, label: d ? `+${d} minutes` : 'No extra wait' }))} />
              </FormGroup>
              <FormGroup label="Switch off by itself after" labelFor="busy-for">
                <HTMLSelect id="busy-for" value={forMinutes} onChange={(e) => setForMinutes(Number(e.currentTarget.value))}
                  options={DURATIONS.map((d) => ({ value: d.minutes, label: d.label }))} />
              </FormGroup>
            </DialogBody>
            <DialogFooter actions={<>
              <Button onClick={() => setEditing(false)}>Cancel</Button>
              <Button type="submit" intent="warning" loading={loading} disabled={!busy && delay === 0}>Start busy mode</Button>
            </>} />
          </form>
        </Dialog>
      )}
    </>
  );
}
