/**
 * Option groups as the product form edits them (prices as typed text), and the form's own checks,
 * which mirror the server's (server/services/productTypesAndSubtypes/menuAdmin.ts); the server's
 * answer still decides.
 */
import { arabicNameError } from '../domain/arabicName';
import { moneyDecimal } from '../domain/money';

/** `nameAr`: the name in the Arabic shop, empty for none (domain/arabicName.ts). */
export interface SubItemDraft { id?: number; name: string; nameAr: string; price: string }
export interface GroupDraft { id?: number; name: string; nameAr: string; allowMultiple: boolean; isRequired: boolean; subItems: SubItemDraft[] }

const KD = /^\d{1,5}(\.\d{1,3})?$/;

/** A price in KD with at most 3 decimals, never negative; null when it is fine. */
export function priceError(text: string): string | null {
  if (!text.trim()) return 'Give a price (0 for free).';
  if (!KD.test(text.trim())) return 'A price in KD with up to 3 decimals, e.g. 1.250.';
  return null;
}

export const emptyGroup = (): GroupDraft => ({ name: '', nameAr: '', allowMultiple: false, isRequired: false, subItems: [{ name: '', nameAr: '', price: '0' }] });

export const toDraft = (g: { id: number; name: string; nameAr?: string | null; allowMultiple: boolean; isRequired: boolean; subItems: ({ id: number; name: string; nameAr?: string | null; price: number } | null)[] }): GroupDraft => ({
  id: g.id, name: g.name, nameAr: g.nameAr ?? '', allowMultiple: g.allowMultiple, isRequired: g.isRequired,
  subItems: g.subItems.filter((s): s is NonNullable<typeof s> => !!s).map((s) => ({ id: s.id, name: s.name, nameAr: s.nameAr ?? '', price: moneyDecimal(s.price) })),
});

/** The first problem of a group, in words; null when it can be sent. */
export function groupError(g: GroupDraft): string | null {
  if (!g.name.trim()) return 'Every option group needs a name.';
  const groupAr = arabicNameError(g.nameAr);
  if (groupAr) return `"${g.name}": ${groupAr}`;
  if (!g.subItems.length) return `"${g.name}" has no items: give it at least one.`;
  for (const s of g.subItems) {
    if (!s.name.trim()) return `Every item of "${g.name}" needs a name.`;
    const itemAr = arabicNameError(s.nameAr);
    if (itemAr) return `${s.name}: ${itemAr}`;
    const p = priceError(s.price);
    if (p) return `${s.name}: ${p}`;
  }
  return null;
}

export const groupInput = (g: GroupDraft) => ({
  ...(g.id && { id: g.id }), name: g.name.trim(), nameAr: g.nameAr.trim(), allowMultiple: g.allowMultiple, isRequired: g.isRequired,
  subItems: g.subItems.map((s) => ({ ...(s.id && { id: s.id }), name: s.name.trim(), nameAr: s.nameAr.trim(), price: Number(s.price) })),
});
