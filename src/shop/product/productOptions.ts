import { fromFils, toFils } from '../../../domain/money';

/** An option group of SPEC.md 3: one choice (radio) unless allowMultiple (checkboxes). */
export interface OptionGroup {
  id: number;
  name: string;
  allowMultiple: boolean;
  isRequired: boolean;
  subItem: { id: number; name: string; price: number }[];
}

/** Chosen option ids by group id. */
export type OptionChoice = Record<number, number[]>;

/** Picks or unpicks an option: a single-choice group holds at most one, a second click on it clears it. */
export function toggleOption(choice: OptionChoice, group: OptionGroup, optionId: number): OptionChoice {
  const current = choice[group.id] ?? [];
  const chosen = current.includes(optionId);
  const next = group.allowMultiple
    ? (chosen ? current.filter((id) => id !== optionId) : [...current, optionId])
    : (chosen && !group.isRequired ? [] : [optionId]);
  return { ...choice, [group.id]: next };
}

/** Required groups with nothing chosen: while any is left, Add to Cart stays disabled (SPEC.md 5). */
export const missingGroups = (groups: OptionGroup[], choice: OptionChoice) =>
  groups.filter((g) => g.isRequired && g.subItem.length > 0 && !(choice[g.id]?.length));

export function selectedOptions(groups: OptionGroup[], choice: OptionChoice) {
  return groups.flatMap((g) => g.subItem.filter((o) => choice[g.id]?.includes(o.id)));
}

/** The live price: (product + chosen options) × quantity. */
export function livePrice(price: number, groups: OptionGroup[], choice: OptionChoice, quantity: number): number {
  const unit = toFils(price) + selectedOptions(groups, choice).reduce((sum, o) => sum + toFils(o.price), 0);
  return fromFils(unit * quantity);
}
