import { useEffect, useState } from 'react';
import { useApolloClient } from '@apollo/client/react';
import { Button, Callout, Classes, Dialog, FormGroup, InputGroup, Intent } from '@blueprintjs/core';
import { errorMessage } from '../../lib/errors';
import { CreateAdditionGroup } from './operations';
import { GroupEditor } from './GroupEditor';
import { emptyGroup, groupError, type GroupDraft } from './groupDrafts';

/** Asks one name (a new product type or sub-type, a rename) and runs the change with it. */
export function NameDialog({ ask, onClose }: { ask: { title: string; label: string; run: (name: string) => Promise<unknown> } | null; onClose: () => void }) {
  const [name, setName] = useState('');
  useEffect(() => setName(''), [ask]);
  return (
    <Dialog isOpen={!!ask} title={ask?.title} onClose={onClose}>
      <form onSubmit={(e) => { e.preventDefault(); if (!name.trim() || !ask) return; onClose(); void ask.run(name.trim()); }}>
        <div className={Classes.DIALOG_BODY}>
          <FormGroup label={ask?.label} labelFor="mm-name"><InputGroup id="mm-name" autoFocus value={name} onChange={(e) => setName(e.target.value)} /></FormGroup>
        </div>
        <div className={Classes.DIALOG_FOOTER}><div className={Classes.DIALOG_FOOTER_ACTIONS}>
          <Button text="Cancel" onClick={onClose} />
          <Button type="submit" intent={Intent.PRIMARY} text="Save" disabled={!name.trim()} />
        </div></div>
      </form>
    </Dialog>
  );
}

/** A new addition group of a product type, with its additions and their prices. */
export function AdditionGroupDialog({ productTypeId, onClose }: { productTypeId: number | null; onClose: (saved: boolean) => void }) {
  const client = useApolloClient();
  const [group, setGroup] = useState<GroupDraft>({ ...emptyGroup(), allowMultiple: true });
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  useEffect(() => { setGroup({ ...emptyGroup(), allowMultiple: true }); setError(null); }, [productTypeId]);
  const save = async () => {
    const problem = groupError(group);
    if (problem || productTypeId === null) { setError(problem); return; }
    setSaving(true);
    try {
      await client.mutate({
        mutation: CreateAdditionGroup, context: { silent: true },
        variables: { input: { productTypeId, name: group.name.trim(), allowMultiple: group.allowMultiple, isRequired: group.isRequired, additions: group.subItems.map((s) => ({ name: s.name.trim(), price: Number(s.price) })) } },
      });
      onClose(true);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Dialog isOpen={productTypeId !== null} title="New addition group" onClose={() => onClose(false)} style={{ width: 'min(640px, 96vw)' }}>
      <div className={Classes.DIALOG_BODY}>
        {error && <Callout intent="danger" role="alert">{error}</Callout>}
        <GroupEditor group={group} index={0} disabled={saving} onChange={setGroup} />
      </div>
      <div className={Classes.DIALOG_FOOTER}><div className={Classes.DIALOG_FOOTER_ACTIONS}>
        <Button text="Cancel" onClick={() => onClose(false)} />
        <Button intent={Intent.PRIMARY} text="Save" loading={saving} onClick={() => void save()} />
      </div></div>
    </Dialog>
  );
}
