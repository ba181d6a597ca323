import './printers.css';
import { useEffect, useState } from 'react';
import { useParams } from 'wouter';
import { useMutation, useQuery } from '@apollo/client/react';
import {
  Button, Callout, Card, Checkbox, FormGroup, H2, H4, HTMLSelect, HTMLTable, InputGroup, NonIdealState, NumericInput, Spinner, Switch, Tag,
} from '@blueprintjs/core';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { dateTimeText } from '../../../domain/time';
import { ACCEPTANCE_DEADLINE } from '../../../domain/orderSettings';
import { PREPARATION_MINUTES } from '../../../domain/readyEstimate';
import { AddIcon, DuplicateIcon, PrintIcon, TickIcon, TrashIcon } from '@blueprintjs/icons';
import {
  BranchOrderSettings, BranchPrinters, BrandProductTypes, CreatePrinter, DeletePrinter, UpdateBranchOrderSettings, UpdatePrinter,
} from './operations';

/** The protocols a printer speaks (server/printing/protocols.ts PRINTER_PROTOCOLS), as a manager knows them. */
export const PROTOCOL_LABEL: Record<string, string> = { starCloudPrnt: 'Star CloudPRNT', epsonServerDirect: 'Epson Server Direct Print' };
const LANGUAGE_LABEL: Record<string, string> = { en: 'English', ar: 'Arabic' };
const REFRESH_MS = 30_000;

/**
 * /branches/printers/:id (issue 25): a branch's order settings (auto-accept, the acceptance
 * deadline, the preparation minutes) and its kitchen printers: each one's URL with its secret token, to copy into the
 * printer's settings, whether it polled lately, and what it has not printed yet.
 */
export default function PrintersPage() {
  const branchId = Number(useParams<{ id: string }>().id);
  const settings = useQuery(BranchOrderSettings, { variables: { id: branchId }, fetchPolicy: 'network-only' });
  const branch = settings.data?.list?.data?.[0] ?? null;
  const printers = useQuery(BranchPrinters, { variables: { branchId }, pollInterval: REFRESH_MS, fetchPolicy: 'cache-and-network' });
  const types = useQuery(BrandProductTypes, { variables: { brandId: branch?.brandId ?? 0 }, skip: !branch });
  const typeName = new Map((types.data?.types ?? []).flatMap((t) => (t ? [[t.id, t.name] as const] : [])));
  const list = (printers.data?.printers ?? []).flatMap((p) => (p ? [p] : []));

  if (settings.loading && !branch) return <Spinner className="console-page" aria-label="Loading the branch" />;
  if (!branch) return <NonIdealState className="console-page" title="No such branch" description={settings.error ? errorMessage(settings.error) : 'There is no branch here you can manage.'} />;

  return (
    <div className="console-page printers-page">
      <H2>Printers and orders · {branch.name}</H2>
      <div className="printers-grid">
        <OrderSettings key={branch.id} branch={branch} />
        <AddPrinter branchId={branchId} types={[...typeName]} onAdded={() => void printers.refetch()} />
      </div>
      <H4>Kitchen printers</H4>
      {printers.error && <Callout intent="danger" title="The printers did not load.">{errorMessage(printers.error)}</Callout>}
      {list.length === 0 && !printers.loading
        ? <NonIdealState icon={<PrintIcon />} title="No printer yet" description="Add one above, then copy its URL into the printer's cloud printing settings." />
        : (
          <HTMLTable compact striped className="printers-table" aria-label="Kitchen printers">
            <thead><tr><th>Name</th><th>Protocol</th><th>Prints</th><th>Language</th><th>URL</th><th>Last poll</th><th>State</th><th>Waiting</th><th /></tr></thead>
            <tbody>
              {list.map((p) => (
                <PrinterRow key={p.id} printer={p} types={typeName} onChanged={() => void printers.refetch()} />
              ))}
            </tbody>
          </HTMLTable>
        )}
    </div>
  );
}

type Branch = { id: number; autoAccept: boolean; acceptanceDeadlineMinutes: number; preparationMinutes: number };

/** A whole number of minutes within a setting's range (the server's schema holds the same). */
const inRange = (n: number, range: { min: number; max: number }) => Number.isInteger(n) && n >= range.min && n <= range.max;

function OrderSettings({ branch }: { branch: Branch }) {
  const [autoAccept, setAutoAccept] = useState(branch.autoAccept);
  const [minutes, setMinutes] = useState(branch.acceptanceDeadlineMinutes);
  const [preparation, setPreparation] = useState(branch.preparationMinutes);
  const [save, saving] = useMutation(UpdateBranchOrderSettings, { context: { silent: true } });
  const [error, setError] = useState<string | null>(null);
  const valid = inRange(minutes, ACCEPTANCE_DEADLINE);
  const preparationValid = inRange(preparation, PREPARATION_MINUTES);
  const changed = autoAccept !== branch.autoAccept || minutes !== branch.acceptanceDeadlineMinutes || preparation !== branch.preparationMinutes;
  const submit = async () => {
    setError(null);
    try {
      await save({ variables: { input: { id: branch.id, autoAccept, acceptanceDeadlineMinutes: minutes, preparationMinutes: preparation } } });
      notify('success', 'Order settings', autoAccept ? 'New orders are accepted at once.' : 'New orders wait for someone to accept them.');
    } catch (err) { setError(errorMessage(err)); }
  };
  return (
    <Card className="printers-card" aria-label="Order settings">
      <H4>Orders</H4>
      <Switch checked={autoAccept} onChange={(e) => setAutoAccept(e.currentTarget.checked)} label="Accept new orders automatically"
        data-testid="auto-accept" />
      <p className="printers-hint">Each new order is accepted as it arrives and its tickets print. The new-order alert still sounds.</p>
      <FormGroup label="Reject an order nobody accepted after" labelFor="acceptance-deadline"
        helperText={valid ? `minutes (${ACCEPTANCE_DEADLINE.min}–${ACCEPTANCE_DEADLINE.max}).` : `Give a whole number of minutes from ${ACCEPTANCE_DEADLINE.min} to ${ACCEPTANCE_DEADLINE.max}.`}
        intent={valid ? 'none' : 'danger'}>
        <NumericInput id="acceptance-deadline" value={minutes} min={ACCEPTANCE_DEADLINE.min} max={ACCEPTANCE_DEADLINE.max} stepSize={1} minorStepSize={null}
          clampValueOnBlur onValueChange={(v) => setMinutes(v)} intent={valid ? 'none' : 'danger'} />
      </FormGroup>
      <FormGroup label="Preparation time" labelFor="preparation-minutes"
        helperText={preparationValid
          ? `minutes (${PREPARATION_MINUTES.min}–${PREPARATION_MINUTES.max}): the shop's ready estimate, and an order for later reaches the kitchen this long before its time.`
          : `Give a whole number of minutes from ${PREPARATION_MINUTES.min} to ${PREPARATION_MINUTES.max}.`}
        intent={preparationValid ? 'none' : 'danger'}>
        <NumericInput id="preparation-minutes" value={preparation} min={PREPARATION_MINUTES.min} max={PREPARATION_MINUTES.max} stepSize={1} minorStepSize={null}
          clampValueOnBlur onValueChange={(v) => setPreparation(v)} intent={preparationValid ? 'none' : 'danger'} />
      </FormGroup>
      {error && <Callout intent="danger">{error}</Callout>}
      <Button intent="primary" text="Save" disabled={!changed || !valid || !preparationValid} loading={saving.loading} onClick={() => void submit()} />
    </Card>
  );
}

function AddPrinter({ branchId, types, onAdded }: { branchId: number; types: (readonly [number, string])[]; onAdded: () => void }) {
  const [name, setName] = useState('');
  const [protocol, setProtocol] = useState('starCloudPrnt');
  const [language, setLanguage] = useState<string>('');
  const [picked, setPicked] = useState<number[]>([]);
  const [create, creating] = useMutation(CreatePrinter, { context: { silent: true } });
  const [error, setError] = useState<string | null>(null);
  const submit = async () => {
    setError(null);
    try {
      await create({ variables: { input: { branchId, name: name.trim(), protocol, productTypeIds: picked, ...(language ? { language } : {}) } } });
      setName(''); setPicked([]);
      notify('success', 'Printer added', 'Copy its URL into the printer.');
      onAdded();
    } catch (err) { setError(errorMessage(err)); }
  };
  return (
    <Card className="printers-card" aria-label="Add a printer">
      <H4>Add a printer</H4>
      <FormGroup label="Name" labelFor="printer-name"><InputGroup id="printer-name" value={name} maxLength={60} placeholder="Bar" onValueChange={setName} /></FormGroup>
      <FormGroup label="Protocol" labelFor="printer-protocol">
        <HTMLSelect id="printer-protocol" value={protocol} onChange={(e) => setProtocol(e.currentTarget.value)}
          options={Object.entries(PROTOCOL_LABEL).map(([value, label]) => ({ value, label }))} />
      </FormGroup>
      <FormGroup label="Ticket language" labelFor="printer-language">
        <HTMLSelect id="printer-language" value={language} onChange={(e) => setLanguage(e.currentTarget.value)}
          options={[{ value: '', label: "The brand's language" }, ...Object.entries(LANGUAGE_LABEL).map(([value, label]) => ({ value, label }))]} />
      </FormGroup>
      <FormGroup label="Prints" helperText="None ticked: every item.">
        {types.map(([id, label]) => (
          <Checkbox key={id} inline label={label} checked={picked.includes(id)}
            onChange={(e) => setPicked(e.currentTarget.checked ? [...picked, id] : picked.filter((x) => x !== id))} />
        ))}
      </FormGroup>
      {error && <Callout intent="danger">{error}</Callout>}
      <Button intent="primary" icon={<AddIcon />} text="Add printer" disabled={!name.trim()} loading={creating.loading} onClick={() => void submit()} />
    </Card>
  );
}

type Printer = {
  id: number; name: string; protocol: string; productTypeIds: (number | null)[]; language: string; path: string;
  lastPolledAt?: string | null; lastStatus?: string | null; isOnline: boolean; pendingJobs: number;
};

function PrinterRow({ printer: p, types, onChanged }: { printer: Printer; types: Map<number, string>; onChanged: () => void }) {
  const url = `${window.location.origin}${p.path}`;
  const [update] = useMutation(UpdatePrinter, { context: { silent: true } });
  const [remove] = useMutation(DeletePrinter, { context: { silent: true } });
  const [copied, setCopied] = useState(false);
  useEffect(() => { if (copied) { const t = setTimeout(() => setCopied(false), 2000); return () => clearTimeout(t); } }, [copied]);
  const act = async (what: () => Promise<unknown>, done: string) => {
    try { await what(); notify('success', p.name, done); onChanged(); } catch (err) { notify('danger', p.name, errorMessage(err)); }
  };
  const prints = p.productTypeIds.filter((id): id is number => id !== null).map((id) => types.get(id) ?? `#${id}`);
  return (
    <tr data-testid={`printer-${p.id}`}>
      <td>{p.name}</td>
      <td>{PROTOCOL_LABEL[p.protocol] ?? p.protocol}</td>
      <td>{prints.length ? prints.join(', ') : 'Everything'}</td>
      <td>{LANGUAGE_LABEL[p.language] ?? p.language}</td>
      <td className="printers-url">
        <code data-testid="printer-url">{url}</code>
        <Button small minimal icon={copied ? <TickIcon /> : <DuplicateIcon />} aria-label={`Copy the URL of ${p.name}`}
          onClick={() => void navigator.clipboard?.writeText(url).then(() => setCopied(true), () => {})} />
      </td>
      <td>{p.lastPolledAt ? dateTimeText(p.lastPolledAt) : 'Never'}</td>
      <td><PrinterStateTag isOnline={p.isOnline} /></td>
      <td>{p.pendingJobs}</td>
      <td className="printers-actions">
        <Button small text="New URL" title="The old URL stops working" onClick={() => void act(() => update({ variables: { input: { id: p.id, renewToken: true } } }), 'It has a new URL: copy it into the printer.')} />
        <Button small intent="danger" minimal icon={<TrashIcon />} aria-label={`Remove ${p.name}`}
          onClick={() => { if (window.confirm(`Remove ${p.name}? Its unprinted tickets are dropped.`)) void act(() => remove({ variables: { id: p.id } }), 'Removed.'); }} />
      </td>
    </tr>
  );
}

/** Online: polled within the last 2 minutes (domain/orderSettings.ts PRINTER_OFFLINE_AFTER_MS, judged by the server). */
export function PrinterStateTag({ isOnline }: { isOnline: boolean }) {
  return isOnline ? <Tag minimal intent="success">Online</Tag> : <Tag intent="danger">Offline</Tag>;
}
