import { useState } from 'react';
import { useSelector } from '@xstate/react';
import {
  Alert, Button, Callout, Classes, Drawer, FormGroup, HTMLSelect, InputGroup, Intent, Spinner, Switch, Tab, Tabs, TextArea,
} from '@blueprintjs/core';
import type { Values } from '../../../machines/resourceMachine';
import { selectForm, selectHistory, type ResourceSnapshot } from '../../../machines/resourceSelectors';
import type { ActorRefFrom } from 'xstate';
import type { resourceMachine } from '../../../machines/resourceMachine';
import { HistoryTable } from './HistoryTable';
import type { AnyResourceConfig, FieldConfig } from './types';
import { toZoneInput } from '../../../domain/time';

type ResourceActor = ActorRefFrom<typeof resourceMachine>;
const sameForm = (a: ReturnType<typeof selectForm>, b: ReturnType<typeof selectForm>) =>
  a.open === b.open && a.loading === b.loading && a.saving === b.saving && a.confirming === b.confirming && a.values === b.values && a.saveError === b.saveError
  && JSON.stringify(a.errors) === JSON.stringify(b.errors) && a.editId === b.editId;

/**
 * The edit drawer of a resource: its fields from the config (rules checked on blur and on save,
 * each message beside its field, the server's too), the input kept when a save is refused, and
 * a History tab with the row's audit entries.
 */
export function ResourceForm({ actor, config }: { actor: ResourceActor; config: AnyResourceConfig }) {
  const form = useSelector(actor, selectForm, sameForm);
  const [tab, setTab] = useState<'details' | 'history'>('details');
  const title = form.isNew ? `New ${config.noun}` : `Edit ${config.noun} #${form.editId}`;
  const close = () => { setTab('details'); actor.send({ type: 'resource.cancel' }); };
  const details = form.loading ? <Spinner aria-label="Loading" /> : (
    <form
      className="resource-form"
      noValidate
      aria-label={title}
      onSubmit={(e) => { e.preventDefault(); actor.send({ type: 'resource.save' }); }}
    >
      {form.saveError && <Callout intent="danger" role="alert" className="resource-save-error">{form.saveError}</Callout>}
      {(config.fields ?? []).filter((f) => form.isNew || !f.createOnly).map((f) => (
        <Field key={f.name} field={f} value={form.values[f.name]} values={form.values} error={form.errors[f.name]} disabled={form.saving}
          onChange={(value) => actor.send({ type: 'resource.change', field: f.name, value })}
          onBlur={() => actor.send({ type: 'resource.blur', field: f.name })} />
      ))}
      <div className={Classes.DIALOG_FOOTER_ACTIONS}>
        <Button text="Cancel" onClick={close} disabled={form.saving} />
        <Button type="submit" intent={Intent.PRIMARY} text="Save" loading={form.saving} />
      </div>
    </form>
  );
  return (
    <Drawer isOpen={form.open} onClose={close} title={title} size="min(560px, 100%)" canOutsideClickClose={!form.saving}>
      <div className={Classes.DRAWER_BODY}>
        <div className={Classes.DIALOG_BODY}>
          {form.isNew || !config.historyResource ? details : (
            <Tabs id="resource-tabs" selectedTabId={tab} onChange={(id) => {
              setTab(id as 'details' | 'history');
              if (id === 'history') actor.send({ type: 'resource.history' });
            }}>
              <Tab id="details" title="Details" panel={details} />
              <Tab id="history" title="History" panel={<History actor={actor} fields={config.fields ?? []} />} />
            </Tabs>
          )}
        </div>
      </div>
      {config.confirmSave && (
        <Alert isOpen={form.confirming} intent={Intent.PRIMARY} cancelButtonText="Back to the form" confirmButtonText={config.confirmSave.confirm}
          onCancel={() => actor.send({ type: 'resource.cancel' })} onConfirm={() => actor.send({ type: 'resource.confirmSave' })}>
          <p>{config.confirmSave.message(form.values)}</p>
        </Alert>
      )}
    </Drawer>
  );
}

function Field({ field, value, values, error, disabled, onChange, onBlur }: {
  field: FieldConfig; value: unknown; values: Values; error?: string; disabled: boolean; onChange: (value: unknown) => void; onBlur: () => void;
}) {
  const id = `field-${field.name}`;
  const intent = error ? Intent.DANGER : Intent.NONE;
  const text = value === undefined || value === null ? '' : String(value);
  const common = { id, disabled, onBlur, 'aria-invalid': !!error, 'aria-describedby': `${id}-message` };
  let input;
  if (field.Input) {
    input = <field.Input id={id} value={value} disabled={disabled} invalid={!!error} onChange={onChange} onBlur={onBlur} values={values} />;
  } else switch (field.kind) {
    case 'boolean':
      input = <Switch {...common} checked={!!value} label={field.label} onChange={(e) => onChange((e.target as HTMLInputElement).checked)} />;
      break;
    case 'textarea':
      input = <TextArea {...common} fill value={text} intent={intent} onChange={(e) => onChange(e.target.value)} />;
      break;
    case 'select':
      input = (
        <HTMLSelect {...common} fill value={text} onChange={(e) => onChange(e.target.value)}>
          <option value="">Choose…</option>
          {field.options?.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
        </HTMLSelect>
      );
      break;
    case 'datetime':
      input = <InputGroup {...common} type="datetime-local" value={toZoneInput(value as string | null | undefined)} intent={intent} onChange={(e) => onChange(e.target.value)} />;
      break;
    default:
      input = (
        <InputGroup {...common} value={text} intent={intent} placeholder={field.placeholder}
          {...(field.kind === 'password' && { type: 'password', autoComplete: 'new-password' })}
          inputMode={field.kind === 'number' ? 'decimal' : undefined} onChange={(e) => onChange(e.target.value)} />
      );
  }
  return (
    <FormGroup
      label={field.kind === 'boolean' ? undefined : field.label}
      labelFor={id}
      labelInfo={field.required ? '(required)' : undefined}
      intent={intent}
      helperText={<span id={`${id}-message`} className={error ? 'resource-field-error' : undefined}>{error ?? field.help}</span>}
    >
      {input}
    </FormGroup>
  );
}

function History({ actor, fields }: { actor: ResourceActor; fields: FieldConfig[] }) {
  const history = useSelector(actor, selectHistory, (a, b) => a.entries === b.entries && a.loading === b.loading && a.error === b.error);
  return <HistoryTable entries={history.entries} loading={history.loading} error={history.error} label={(name) => fields.find((f) => f.name === name)?.label ?? name} />;
}

export type { ResourceSnapshot };
