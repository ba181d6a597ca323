import { Button, Card, InputGroup, Switch } from '@blueprintjs/core';
import { priceError, type GroupDraft } from '../../../machines/groupDrafts';
import { AddIcon, CrossIcon, TrashIcon } from '@blueprintjs/icons';

/**
 * One option group (a product's own, or an addition group): its name, single or multiple choice,
 * required, and its items with their prices. The product form numbers its groups ("Option group
 * 2", "Group 2 item 1 price"); the addition group dialog edits one group and names its items
 * ("Addition 1 price"), so `itemNoun` switches the labels.
 */
export function GroupEditor({ group, index, disabled, onChange, onRemove, noun = 'Option group', itemNoun }: {
  group: GroupDraft; index: number; disabled: boolean; onChange: (g: GroupDraft) => void; onRemove?: () => void;
  noun?: string; itemNoun?: string;
}) {
  const set = (patch: Partial<GroupDraft>) => onChange({ ...group, ...patch });
  const setItem = (i: number, patch: Partial<GroupDraft['subItems'][number]>) => set({ subItems: group.subItems.map((s, j) => (j === i ? { ...s, ...patch } : s)) });
  const groupLabel = itemNoun ? noun : `${noun} ${index + 1}`;
  const itemLabel = (i: number) => (itemNoun ? `${itemNoun} ${i + 1}` : `Group ${index + 1} item ${i + 1}`);
  return (
    <Card className="mm-group" compact aria-label={groupLabel}>
      <div className="mm-group-head">
        <InputGroup aria-label={`${groupLabel} name`} placeholder={itemNoun ? 'Group name, e.g. Sauces' : 'Group name, e.g. Size'} value={group.name} disabled={disabled}
          onChange={(e) => set({ name: e.target.value })} />
        <InputGroup aria-label={`${groupLabel} Arabic name`} placeholder="الاسم بالعربية" dir="rtl" lang="ar" value={group.nameAr} disabled={disabled}
          onChange={(e) => set({ nameAr: e.target.value })} />
        <Switch label="Required" checked={group.isRequired} disabled={disabled} onChange={() => set({ isRequired: !group.isRequired })} />
        <Switch label="Several allowed" checked={group.allowMultiple} disabled={disabled} onChange={() => set({ allowMultiple: !group.allowMultiple })} />
        {onRemove && <Button minimal icon={<TrashIcon />} aria-label={`Remove option group ${index + 1}`} disabled={disabled} onClick={onRemove} />}
      </div>
      {group.subItems.map((s, i) => {
        const error = priceError(s.price);
        return (
          <div key={s.id ?? `new-${i}`} className="mm-subitem">
            <InputGroup aria-label={`${itemLabel(i)} name`} placeholder={itemNoun ? 'Addition, e.g. Garlic' : 'Item, e.g. Large'} value={s.name} disabled={disabled}
              onChange={(e) => setItem(i, { name: e.target.value })} />
            <InputGroup aria-label={`${itemLabel(i)} Arabic name`} placeholder="بالعربية" dir="rtl" lang="ar" value={s.nameAr} disabled={disabled}
              onChange={(e) => setItem(i, { nameAr: e.target.value })} />
            <InputGroup aria-label={`${itemLabel(i)} price`} className="mm-price-input" rightElement={<span className="mm-unit">KD</span>}
              inputMode="decimal" value={s.price} disabled={disabled} intent={error ? 'danger' : 'none'} title={error ?? undefined}
              onChange={(e) => setItem(i, { price: e.target.value })} />
            <Button minimal icon={<CrossIcon />} aria-label={`Remove ${itemLabel(i).toLowerCase()}`} disabled={disabled || group.subItems.length === 1}
              onClick={() => set({ subItems: group.subItems.filter((_, j) => j !== i) })} />
          </div>
        );
      })}
      <Button minimal icon={<AddIcon />} text={itemNoun ?? 'Item'} disabled={disabled} onClick={() => set({ subItems: [...group.subItems, { name: '', nameAr: '', price: '0' }] })} />
    </Card>
  );
}
