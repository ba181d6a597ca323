import { buildApp } from './app';

/** The OpenAPI document generated from the routes' schemas (no database needed). */
export async function generateOpenApi() {
  const { app } = await buildApp({ db: null as never, jwtSecret: 'openapi-generation-only' });
  await app.ready();
  const doc = app.swagger() as OpenApiDoc;
  await app.close();
  return doc;
}

type Schema = { properties?: Record<string, Schema>; anyOf?: Schema[]; type?: string; [k: string]: unknown };
type OpenApiDoc = { paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: Schema }> }> }>> };

/**
 * The gateway's view of the API: the ABP envelope is unwrapped by the gateway's fetch
 * (mesh/fetch.ts), so each operation answers with its `result` schema directly.
 */
export function unwrapEnvelopes(doc: OpenApiDoc): OpenApiDoc {
  const copy = structuredClone(doc);
  for (const ops of Object.values(copy.paths)) {
    for (const op of Object.values(ops)) {
      const media = op.responses?.['200']?.content?.['application/json'];
      const result = media?.schema?.properties?.result;
      if (!media || !result || !media.schema?.properties?.__abp) continue;
      // result is declared as `T | null` in the envelope (null on failures); the gateway raises failures as errors.
      const nonNull = result.anyOf?.filter((s) => s.type !== 'null');
      media.schema = nonNull?.length === 1 ? nonNull[0] : withoutNullable(result);
    }
  }
  stripConstraints(copy);
  return copy;
}

/**
 * A named schema answered by one operation and listed by another (StaffOrder: a mutation's answer
 * and a list's rows) is one GraphQL type only when the two are identical: Mesh names the second
 * by its path otherwise. The envelope's `nullable` would be the one difference.
 */
function withoutNullable(schema: Schema): Schema {
  const { nullable: _, ...rest } = schema;
  return rest;
}

/**
 * Range, length and pattern keywords are the REST services' to check (they answer 400 in the
 * envelope, which the gateway passes on). Left in the gateway's view, Mesh turns each constrained
 * field into its own scalar (`queryInput_<Op>_Search`, `NonNegativeInt`…), so no two operations
 * could share a variable type. Without them every argument is a plain Int, Float or String.
 */
const CONSTRAINTS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'pattern', 'multipleOf', 'minItems', 'maxItems'];
function stripConstraints(node: unknown, isPropertyMap = false): void {
  if (Array.isArray(node)) return node.forEach((n) => stripConstraints(n));
  if (!node || typeof node !== 'object') return;
  const obj = node as Record<string, unknown>;
  if (!isPropertyMap) for (const k of CONSTRAINTS) if (typeof obj[k] === 'number' || (k === 'pattern' && typeof obj[k] === 'string')) delete obj[k];
  for (const [k, v] of Object.entries(obj)) stripConstraints(v, !isPropertyMap && k === 'properties');
}
