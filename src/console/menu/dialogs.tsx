import { useEffect, useState } from 'react';
import { useApolloClient } from '@apollo/client/react';
import { Button, Callout, Classes, Dialog, FormGroup, InputGroup, Intent } from '@blueprintjs/core';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { CreateAdditionGroup, UpdateAdditionGroup } from './operations';
import { GroupEditor } from './GroupEditor';
import { emptyGroup, groupError, groupInput, toDraft, type GroupDraft } from '../../../machines/groupDrafts';
import { arabicNameError } from '../../../domain/arabicName';

export interface NameAsk {
  title: string; label: string; initial?: string;
  /** The current Arabic name (name_ar), shown in the Arabic shop; empty: none. */
  initialAr?: string | null;
  run: (name: string, nameAr: string) => Promise<unknown>;
}

/**
 * Asks a name and its Arabic name (a new product type or sub-type, or a rename, which starts from
 * the current names) and runs the change with them.
 */
export function NameDialog({ ask, onClose }: { ask: NameAsk | null; onClose: () => void }) {
  const [name, setName] = useState('');
  const [nameAr, setNameAr] = useState('');
  useEffect(() => { setName(ask?.initial ?? ''); setNameAr(ask?.initialAr ?? ''); }, [ask]);
  const arabicProblem = arabicNameError(nameAr);
  const unchanged = !name.trim() || (name.trim() === ask?.initial && nameAr.trim() === (ask?.initialAr ?? ''));
  return (
    <Dialog isOpen={!!ask} title={ask?.title} onClose={onClose}>
      <form onSubmit={(e) => { e.preventDefault(); if (unchanged || arabicProblem || !ask) return; onClose(); void ask.run(name.trim(), nameAr.trim()); }}>
        <div className={Classes.DIALOG_BODY}>
          <FormGroup label={ask?.label} labelFor="mm-name"><InputGroup id="mm-name" autoFocus value={name} onChange={(e) => setName(e.target.value)} /></FormGroup>
          <FormGroup label="Arabic name" labelFor="mm-name-ar" labelInfo="(shown in the Arabic shop; empty: the name above)"
            intent={arabicProblem ? Intent.DANGER : Intent.NONE} helperText={arabicProblem ?? undefined}>
            <InputGroup id="mm-name-ar" dir="rtl" lang="ar" value={nameAr} onChange={(e) => setNameAr(e.target.value)} />
          </FormGroup>
        </div>
        <div className={Classes.DIALOG_FOOTER}><div className={Classes.DIALOG_FOOTER_ACTIONS}>
          <Button text="Cancel" onClick={onClose} />
          <Button type="submit" intent={Intent.PRIMARY} text="Save" disabled={unchanged || !!arabicProblem} />
        </div></div>
      </form>
    </Dialog>
  );
}

/** An addition group as the tree reads it. */
export interface AdditionGroupRow {
  id: number; name: string; allowMultiple: boolean; isRequired: boolean;
  subItems?: ({ id: number; name: string; price: number } | null)[] | null;
}
/** What the dialog works on: a new group of a product type, or an existing group. */
export type AdditionTarget = { productTypeId: number; typeName: string } | { group: AdditionGroupRow } | null;

/**
 * An addition group with its additions and their prices: a new one (CreateNewProductAdditionsGroup)
 * or an existing one, saved as a whole in one call (UpdateProductAdditionsGroup with `additions`:
 * additions kept by id, new ones added, removed ones gone, in the order shown).
 */
export function AdditionGroupDialog({ target, onClose }: { target: AdditionTarget; onClose: (saved: boolean) => void }) {
  const client = useApolloClient();
  const fresh = (): GroupDraft => (target && 'group' in target
    ? toDraft({ ...target.group, subItems: target.group.subItems ?? [] })
    : { ...emptyGroup(), allowMultiple: true });
  const [group, setGroup] = useState<GroupDraft>(fresh);
  /** The server's refusal of the last save; the form's own problems are read live once a save was tried. */
  const [error, setError] = useState<string | null>(null);
  const [tried, setTried] = useState(false);
  const [saving, setSaving] = useState(false);
  useEffect(() => { setGroup(fresh()); setError(null); setTried(false); }, [target]);
  const problem = tried ? groupError(group) : null;
  const editing = !!target && 'group' in target;
  const save = async () => {
    setTried(true);
    if (groupError(group) || !target) return;
    setSaving(true);
    setError(null);
    const { name, nameAr, allowMultiple, isRequired, subItems } = groupInput(group);
    try {
      if ('group' in target) {
        await client.mutate({ mutation: UpdateAdditionGroup, context: { silent: true }, variables: { input: { id: target.group.id, name, nameAr, allowMultiple, isRequired, additions: subItems } } });
      } else {
        await client.mutate({
          mutation: CreateAdditionGroup, context: { silent: true },
          variables: { input: { productTypeId: target.productTypeId, name, allowMultiple, isRequired, nameAr, additions: subItems.map(({ name: n, nameAr: ar, price }) => ({ name: n, nameAr: ar, price })) } },
        });
      }
      notify('success', 'Saved', `The addition group "${name}" is saved.`);
      onClose(true);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setSaving(false);
    }
  };
  const title = editing ? `Edit addition group ${(target as { group: AdditionGroupRow }).group.name}` : `New addition group${target && 'typeName' in target ? ` of ${target.typeName}` : ''}`;
  return (
    <Dialog isOpen={!!target} title={title} onClose={() => onClose(false)} style={{ width: 'min(640px, 96vw)' }} canOutsideClickClose={!saving}>
      <form aria-label={title} noValidate onSubmit={(e) => { e.preventDefault(); void save(); }}>
        <div className={Classes.DIALOG_BODY}>
          {(error ?? problem) && <Callout intent="danger" role="alert">{error ?? problem}</Callout>}
          <GroupEditor group={group} index={0} noun="Addition group" itemNoun="Addition" disabled={saving} onChange={(g) => { setGroup(g); setError(null); }} />
        </div>
        <div className={Classes.DIALOG_FOOTER}><div className={Classes.DIALOG_FOOTER_ACTIONS}>
          <Button text="Cancel" disabled={saving} onClick={() => onClose(false)} />
          <Button type="submit" intent={Intent.PRIMARY} text="Save" loading={saving} />
        </div></div>
      </form>
    </Dialog>
  );
}
