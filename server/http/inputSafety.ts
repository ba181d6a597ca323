import type { TSchema } from 'typebox';
import { badRequest, type ValidationError } from './envelope';

/**
 * What every route's input is held to before its handler runs, whatever its own schema says
 * (docs/decisions.md "Hardening: input"). `service()` applies it to each route it mounts, so a
 * new route cannot forget it.
 */

/** Ids and counts are `serial`/`integer` columns (int4): a number past them is a 400, never a database error. */
export const INT4 = { minimum: -2_147_483_648, maximum: 2_147_483_647 } as const;
/** Amounts are numeric(12,3): at most 999,999,999.999 either way. Coordinates fit in it too. */
export const NUMERIC_12_3 = { minimum: -999_999_999.999, maximum: 999_999_999.999 } as const;
/**
 * Nesting a request may have. The deepest real input (an order: products → additions → option)
 * is 4 levels; anything near this limit is an attack, and walks over the input (ours, ajv's,
 * the idempotency hash) stay far from the stack's limit.
 */
export const MAX_INPUT_DEPTH = 32;

type JsonSchema = Record<string, unknown>;
const SUBSCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;
const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions'] as const;
const SUBSCHEMAS = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains'] as const;

/**
 * A copy of a request schema in which every integer without bounds gets the int4 range and every
 * number the numeric(12,3) range (a bound the schema sets itself is kept). So `2147483648`,
 * `1e23` and `Infinity` are a 400 that names the field. The copy leaves the route's declared
 * schema (and the response schemas sharing its parts) untouched; the gateway's view of the
 * OpenAPI document strips these keywords again (server/openapi.ts), so GraphQL types do not change.
 */
export function boundedInputSchema<T extends TSchema>(schema: T): T {
  return bound(schema as unknown as JsonSchema) as unknown as T;
}

function bound(schema: JsonSchema): JsonSchema {
  const copy: JsonSchema = { ...schema };
  const types = ([] as unknown[]).concat(copy.type ?? []);
  const range = types.includes('integer') ? INT4 : types.includes('number') ? NUMERIC_12_3 : null;
  if (range) {
    if (copy.minimum === undefined && copy.exclusiveMinimum === undefined) copy.minimum = range.minimum;
    if (copy.maximum === undefined && copy.exclusiveMaximum === undefined) copy.maximum = range.maximum;
  }
  for (const k of SUBSCHEMA_LISTS) if (Array.isArray(copy[k])) copy[k] = (copy[k] as JsonSchema[]).map(bound);
  for (const k of SUBSCHEMA_MAPS) {
    const map = copy[k];
    if (map && typeof map === 'object') copy[k] = Object.fromEntries(Object.entries(map).map(([name, s]) => [name, bound(s as JsonSchema)]));
  }
  for (const k of SUBSCHEMAS) if (copy[k] && typeof copy[k] === 'object') copy[k] = bound(copy[k] as JsonSchema);
  return copy;
}

/**
 * Checks parsed input (query or body) before the schema sees it: no NUL character in any string
 * or key (PostgreSQL text cannot hold one, and the driver would fail with a 500), and no nesting
 * deeper than MAX_INPUT_DEPTH, including inside properties the schema does not know. Iterative,
 * so a 5,000-deep body cannot overflow the stack here. Throws the envelope's 400.
 */
export function checkInputShape(value: unknown, part: InputPart) {
  const problems: ValidationError[] = [];
  walk(value, part, (v, path, key) => {
    if ((typeof v === 'string' && v.includes('\u0000')) || key?.includes('\u0000')) {
      problems.push({ message: `${path || part}: must not contain the NUL character (\\u0000)`, members: path ? [path] : [] });
    }
  });
  if (problems.length) throw badRequest('Your request is not valid!', problems);
}

/**
 * Checks validated input: every number is finite. ajv's type coercion turns the query text
 * "Infinity" into a number and then skips its range checks for it (they only look at finite
 * numbers), so the schema alone lets it through.
 */
export function checkFiniteNumbers(value: unknown, part: InputPart) {
  const problems: ValidationError[] = [];
  walk(value, part, (v, path) => {
    if (typeof v === 'number' && !Number.isFinite(v)) problems.push({ message: `${path || part}: must be a finite number`, members: path ? [path] : [] });
  });
  if (problems.length) throw badRequest('Your request is not valid!', problems);
}

type InputPart = 'querystring' | 'body' | 'params';

/** Visits every value of a parsed input without recursion; deeper than MAX_INPUT_DEPTH is a 400. */
function walk(value: unknown, part: InputPart, visit: (value: unknown, path: string, key: string | null) => void) {
  const stack: { value: unknown; path: string; key: string | null; depth: number }[] = [{ value, path: '', key: null, depth: 0 }];
  while (stack.length) {
    const { value: v, path, key, depth } = stack.pop()!;
    visit(v, path, key);
    if (!v || typeof v !== 'object') continue;
    if (depth >= MAX_INPUT_DEPTH) {
      throw badRequest('Your request is not valid!', [{ message: `${path || part}: is nested more than ${MAX_INPUT_DEPTH} levels deep`, members: path ? [path] : [] }]);
    }
    for (const [k, child] of Object.entries(v)) {
      stack.push({ value: child, path: `${path ? `${path}.` : ''}${k.replaceAll('\u0000', '\\u0000')}`, key: k, depth: depth + 1 });
    }
  }
}
