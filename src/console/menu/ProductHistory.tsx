import { useQuery } from '@apollo/client/react';
import { formatMoney } from '../../../domain/money';
import { errorMessage } from '../../lib/errors';
import { HistoryTable } from '../resources/HistoryTable';
import { EntityHistory } from '../resources/provideResource';
import type { HistoryEntry } from '../../../machines/resourceMachine';
import type { Additions, Tree } from './productTree';
import { PRODUCT_FORM_FIELDS } from './productConfig';

/** Labels of what is not a plain field of the form (those are the form's own, productConfig.ts). */
const LABELS: Record<string, string> = {
  isHidden: 'In the shop',
  sortOrder: 'Place in its sub-type', subtypeId: 'Sub-type', typeId: 'Product type', brandId: 'Brand', redeemPoints: 'Points to redeem',
  productImage: 'Image 1', productSecondImage: 'Image 2', productThirdImage: 'Image 3', optionGroups: 'Option groups', additionGroupIds: 'Addition groups',
};

type Group = { name: string; isRequired?: boolean; subItems?: { name: string; price: number }[] };

/**
 * A product's History tab on /store: its audit entries (AuditLog/GetEntityHistory, resource
 * Product), newest first, each value written as the form shows it (prices in KD, sub-type and
 * addition group names, option groups with their items).
 */
export function ProductHistory({ productId, tree, additions }: { productId: number; tree: Tree; additions: Additions }) {
  const { data, loading, error } = useQuery(EntityHistory, { variables: { resource: 'Product', id: productId }, fetchPolicy: 'network-only', context: { silent: true } });
  const entries = (data?.history?.data ?? []).filter((e) => !!e) as unknown as HistoryEntry[];
  const subtypeName = (id: number) => tree.flatMap((t) => t.subtypes ?? []).find((s) => s?.id === id)?.name ?? `#${id}`;
  const typeName = (id: number) => tree.find((t) => t.id === id)?.name ?? `#${id}`;
  const groupName = (id: number) => additions.flatMap((t) => t.additionGroups ?? []).find((g) => g?.id === id)?.name ?? `#${id}`;
  const show = (field: string, value: unknown): string => {
    if (value === null || value === undefined) return '';
    switch (field) {
      case 'price': return formatMoney(Number(value));
      case 'isHidden': return value ? 'hidden' : 'shown';
      case 'subtypeId': return subtypeName(Number(value));
      case 'typeId': return typeName(Number(value));
      case 'sortOrder': return String(Number(value) + 1);
      case 'additionGroupIds': return (value as number[]).map(groupName).join(', ') || 'none';
      case 'optionGroups': return (value as Group[]).map((g) =>
        `${g.name}${g.isRequired ? ' (required)' : ''}: ${(g.subItems ?? []).map((s) => `${s.name} ${formatMoney(s.price)}`).join(', ')}`).join('; ') || 'none';
      default: return String(value);
    }
  };
  return (
    <HistoryTable entries={entries} loading={loading && !data} error={error ? errorMessage(error) : null}
      label={(f) => LABELS[f] ?? PRODUCT_FORM_FIELDS.find((x) => x.name === f)?.label ?? f} show={show} />
  );
}
