import { asc, desc, eq, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { Type, type TSchema } from 'typebox';
import { badRequest } from '../http/envelope';
import { pagingFields } from '../http/paging';

/**
 * The list parameters every admin list shares, so the gateway gives them one type each and a
 * generic console list sends the same variables to every list: paging, a sorting string checked
 * against the resource's whitelist, and a free-text search over its `contains` fields.
 */
export const sharedListFields = {
  ...pagingFields,
  Sorting: Type.Optional(Type.String({ maxLength: 60, description: '"<field> [asc|desc]", the field one of the sortable fields.' })),
  Search: Type.Optional(Type.String({ maxLength: 100, description: 'Part of any searchable text field, case-insensitive.' })),
};

/**
 * Sorting "<field> [asc|desc]" (field name case-insensitive, direction default asc) against the
 * whitelist; anything else is a 400 naming what is allowed. The id is always the last key, so
 * pages never overlap.
 */
export function orderByOf(sorting: string | undefined, sortable: Record<string, AnyColumn>, fallback: string, id: AnyColumn): SQL[] {
  const text = (sorting ?? '').trim() || fallback;
  const match = /^(\w+)(?:\s+(asc|desc))?$/i.exec(text);
  const key = match && Object.keys(sortable).find((k) => k.toLowerCase() === match[1].toLowerCase());
  if (!match || !key) {
    throw badRequest(`Sorting "${text}" is not supported. Sort by ${Object.keys(sortable).join(', ')}, then asc or desc.`, [
      { message: `Sort by ${Object.keys(sortable).join(', ')}, then asc or desc.`, members: ['Sorting'] },
    ]);
  }
  const dir = (match[2] ?? 'asc').toLowerCase() === 'desc' ? desc : asc;
  const column = sortable[key];
  return column === id ? [dir(id)] : [dir(column), dir(id)];
}

/** `column ilike '%text%'` with the text's own %, _ and \ taken literally. */
export function containsText(column: AnyColumn | SQL, text: string): SQL {
  return sql`${column} ilike ${`%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`;
}

/** `column = value`, or `column is null` for a null value. */
export const equalsValue = (column: AnyColumn, value: unknown): SQL => (value === null ? sql`${column} is null` : eq(column, value));

/**
 * A string that must be one of `values`. Declared as a pattern rather than an enum: the REST
 * service answers 400 for any other value, and the gateway's view (which drops patterns) sees a
 * plain String, so items, inputs and filters of every operation share their GraphQL types instead
 * of getting an enum type per operation (`mutation_<Op>_platform`…).
 */
export const oneOf = (values: readonly (string | number)[], opts: { description?: string } = {}) =>
  Type.String({
    pattern: `^(?:${values.map((v) => String(v).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})$`,
    description: opts.description ?? `One of: ${values.join(', ')}.`,
  });

/**
 * The query parameter that filters a field by equality, from the field's item schema: the same
 * scalar, optional. Enumerations become a string with a pattern (the REST service still answers
 * 400 for another value; the gateway's view drops patterns), so no list gets its own enum input type.
 */
export function filterParam(field: TSchema): TSchema {
  const f = field as { type?: string | string[]; enum?: unknown[]; anyOf?: { const?: unknown; type?: string }[]; pattern?: string; description?: string };
  const values = f.enum ?? (f.anyOf?.every((s) => s.const !== undefined) ? f.anyOf.map((s) => s.const) : undefined);
  if (values) return Type.Optional(oneOf(values as string[]));
  const type = Array.isArray(f.type) ? f.type.find((t) => t !== 'null') : f.type ?? f.anyOf?.find((s) => s.type && s.type !== 'null')?.type;
  if (type === 'integer') return Type.Optional(Type.Integer({ minimum: -2147483648, maximum: 2147483647 }));
  if (type === 'number') return Type.Optional(Type.Number());
  if (type === 'boolean') return Type.Optional(Type.Boolean());
  // a oneOf() field keeps its allowed values
  return Type.Optional(Type.String(f.pattern ? { pattern: f.pattern, description: f.description } : { maxLength: 200 }));
}
