import { Tag } from '@blueprintjs/core';
import { MenuHoursTag } from './MenuHoursDialog';
import type { StoreCell, SubtypeRow, TypeRow } from './productTree';

/**
 * The console's half of the product types' and sub-types' declarations on /store
 * (server/services/productTypesAndSubtypes/resource.ts): what each row shows, in order, before its
 * switch and its buttons. The tree's document is generated (every field the server answers), so a
 * field added to a declaration's item is shown by one line here. Products' cells are in
 * productConfig.tsx, beside their form's fields.
 */

/** An Arabic name beside the English one: a word of its own, right to left. */
export const arabicName = (text: string | null | undefined) => text ? <span className="mm-name-ar" lang="ar" dir="rtl">{text}</span> : null;
/** The Hidden tag of a row hidden in the shop. */
export const hiddenCell = { field: 'isHidden', render: (row: { isHidden: boolean }) => row.isHidden && <Tag minimal>Hidden</Tag> } as const;
/** The menu hours' tag (nothing when always offered). */
export const hoursCell = { field: 'availabilityWindows', render: (row: { availabilityWindows?: Parameters<typeof MenuHoursTag>[0]['windows'] }) => <MenuHoursTag windows={row.availabilityWindows} /> } as const;

export const TYPE_CELLS: readonly StoreCell<TypeRow>[] = [
  { field: 'name', render: (t) => <strong>{t.name}</strong> },
  { field: 'nameAr', render: (t) => arabicName(t.nameAr) },
  hiddenCell,
  hoursCell,
];

export const SUBTYPE_CELLS: readonly StoreCell<SubtypeRow>[] = [
  { field: 'name', render: (s) => <span>{s.name}</span> },
  { field: 'nameAr', render: (s) => arabicName(s.nameAr) },
  hiddenCell,
  hoursCell,
];
