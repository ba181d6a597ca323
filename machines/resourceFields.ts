/**
 * The rules of an admin form's fields (machines/resourceMachine.ts checks them on blur and on
 * save; the console's field list adds how each is shown). Messages are whole sentences that
 * stand beside the field.
 */

/** A field's rules; the console's field list adds how it is shown. */
export interface FieldRule {
  name: string;
  label: string;
  kind: 'text' | 'password' | 'textarea' | 'number' | 'boolean' | 'select' | 'datetime';
  required?: boolean;
  min?: number;
  max?: number;
  maxLength?: number;
  pattern?: { regex: RegExp; message: string };
  /** Only on create (e.g. the parent id, which never changes). */
  createOnly?: boolean;
}

export type FieldErrors = Record<string, string>;

/** The field's message, or nothing when its value passes its rules. */
export function checkField(rule: FieldRule, value: unknown): string | null {
  const empty = value === undefined || value === null || (typeof value === 'string' && !value.trim());
  if (empty) return rule.required ? `${rule.label} is required.` : null;
  if (rule.kind === 'number') {
    const n = Number(value);
    if (!Number.isFinite(n)) return `${rule.label} must be a number.`;
    if (rule.min !== undefined && n < rule.min) return `${rule.label} must be at least ${rule.min}.`;
    if (rule.max !== undefined && n > rule.max) return `${rule.label} must be at most ${rule.max}.`;
  }
  if (rule.kind === 'datetime' && Number.isNaN(Date.parse(String(value)))) return `${rule.label} is not a date and time.`;
  if (typeof value === 'string') {
    if (rule.maxLength !== undefined && value.length > rule.maxLength) return `${rule.label} must be at most ${rule.maxLength} characters.`;
    if (rule.pattern && !rule.pattern.regex.test(value)) return rule.pattern.message;
  }
  return null;
}

export const checkFields = (rules: readonly FieldRule[], values: Record<string, unknown>, isNew: boolean): FieldErrors =>
  Object.fromEntries(rules
    .filter((r) => isNew || !r.createOnly)
    .map((r) => [r.name, checkField(r, values[r.name])] as const)
    .filter((e): e is [string, string] => e[1] !== null));

