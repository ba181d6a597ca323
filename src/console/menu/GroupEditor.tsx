import { Button, Card, InputGroup, Switch } from '@blueprintjs/core';
import { priceError, type GroupDraft } from './groupDrafts';

/** One option group: its name, single or multiple choice, required, and its items with their prices. */
export function GroupEditor({ group, index, disabled, onChange, onRemove }: {
  group: GroupDraft; index: number; disabled: boolean; onChange: (g: GroupDraft) => void; onRemove?: () => void;
}) {
  const set = (patch: Partial<GroupDraft>) => onChange({ ...group, ...patch });
  const setItem = (i: number, patch: Partial<GroupDraft['subItems'][number]>) => set({ subItems: group.subItems.map((s, j) => (j === i ? { ...s, ...patch } : s)) });
  return (
    <Card className="mm-group" compact aria-label={`Option group ${index + 1}`}>
      <div className="mm-group-head">
        <InputGroup aria-label={`Option group ${index + 1} name`} placeholder="Group name, e.g. Size" value={group.name} disabled={disabled}
          onChange={(e) => set({ name: e.target.value })} />
        <Switch label="Required" checked={group.isRequired} disabled={disabled} onChange={() => set({ isRequired: !group.isRequired })} />
        <Switch label="Several allowed" checked={group.allowMultiple} disabled={disabled} onChange={() => set({ allowMultiple: !group.allowMultiple })} />
        {onRemove && <Button minimal icon="trash" aria-label={`Remove option group ${index + 1}`} disabled={disabled} onClick={onRemove} />}
      </div>
      {group.subItems.map((s, i) => {
        const error = priceError(s.price);
        return (
          <div key={s.id ?? `new-${i}`} className="mm-subitem">
            <InputGroup aria-label={`Group ${index + 1} item ${i + 1} name`} placeholder="Item, e.g. Large" value={s.name} disabled={disabled}
              onChange={(e) => setItem(i, { name: e.target.value })} />
            <InputGroup aria-label={`Group ${index + 1} item ${i + 1} price`} className="mm-price-input" rightElement={<span className="mm-unit">KD</span>}
              inputMode="decimal" value={s.price} disabled={disabled} intent={error ? 'danger' : 'none'} title={error ?? undefined}
              onChange={(e) => setItem(i, { price: e.target.value })} />
            <Button minimal icon="cross" aria-label={`Remove item ${i + 1} of group ${index + 1}`} disabled={disabled || group.subItems.length === 1}
              onClick={() => set({ subItems: group.subItems.filter((_, j) => j !== i) })} />
          </div>
        );
      })}
      <Button minimal icon="add" text="Item" disabled={disabled} onClick={() => set({ subItems: [...group.subItems, { name: '', price: '0' }] })} />
    </Card>
  );
}
