import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  buildSchema, getNamedType, isInputObjectType, isObjectType, isScalarType, isEnumType, isNonNullType,
  type GraphQLField, type GraphQLObjectType, type GraphQLSchema,
} from 'graphql';
import type { DeclaredParts } from '../server/resources/resource';

/**
 * The console's half of every declared resource (server/resources/index.ts RESOURCES), written to
 * src/console/resources/generated/<Service>.ts before codegen types it (scripts/build.ts):
 * - its list / create / update / delete documents, named as the gateway names the operations
 *   (`<Service>_<Method>`, server/http/routes.ts), each variable typed as the gateway's schema has it,
 *   selecting every field of the item;
 * - its form fields' rules from the create and update schemas (kind, required, limits, create-only,
 *   default), its sortable and filter fields, its default sorting and its scope.
 * A config (src/console/resources/configs) adds only what is the console's own: labels, widths,
 * renderers, the route. The files are generated on every build and not kept in git (like src/gql/).
 */

type Schema = {
  type?: string | string[]; format?: string; pattern?: string; enum?: unknown[]; const?: unknown; default?: unknown;
  minimum?: number; maximum?: number; maxLength?: number; anyOf?: Schema[]; properties?: Record<string, Schema>; required?: string[];
};

export interface GeneratedField {
  kind: 'text' | 'number' | 'boolean' | 'select' | 'datetime';
  required?: true; min?: number; max?: number; maxLength?: number; createOnly?: true;
  /** The server's pattern (ECMAScript, as its validator reads it with the `u` flag). */
  pattern?: string;
  /** The allowed values of a select (a `oneOf()` or enum field). */
  values?: readonly (string | number)[];
}

const ONE_OF = /^\^\(\?:(.*)\)\$$/;

/** A field's rules from its TypeBox schema (nullable unions read as their non-null member). */
export function fieldOf(schema: Schema, required: boolean, createOnly: boolean): GeneratedField {
  const nonNull = schema.anyOf?.filter((s) => s.type !== 'null') ?? [schema];
  const nullable = !!schema.anyOf?.some((s) => s.type === 'null');
  const s = nonNull.length === 1 ? nonNull[0] : schema;
  const consts = s.anyOf?.every((a) => a.const !== undefined) ? s.anyOf.map((a) => a.const) : undefined;
  const values = (s.enum ?? consts ?? (s.pattern && ONE_OF.test(s.pattern) ? ONE_OF.exec(s.pattern)![1].split('|').map((v) => v.replace(/\\(.)/g, '$1')) : undefined)) as (string | number)[] | undefined;
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  const field: GeneratedField = values ? { kind: 'select', values }
    : type === 'integer' || type === 'number' ? { kind: 'number', ...(s.minimum !== undefined && { min: s.minimum }), ...(s.maximum !== undefined && { max: s.maximum }) }
      : type === 'boolean' ? { kind: 'boolean' }
        : s.format === 'date-time' ? { kind: 'datetime' }
          : { kind: 'text', ...(s.maxLength !== undefined && { maxLength: s.maxLength }), ...(s.pattern && s.pattern !== '\\S' && { pattern: s.pattern }) };
  // A switch always has a value; a field with a default or a null is not asked for.
  if (required && !nullable && field.kind !== 'boolean' && schema.default === undefined) field.required = true;
  if (createOnly) field.createOnly = true;
  return field;
}

/** The fields a form may write, by name: create's and update's, without the row id. */
export function fieldsOf(decl: DeclaredParts): { fields: Record<string, GeneratedField>; defaults: Record<string, unknown> } {
  const create = decl.create as Schema;
  const update = decl.update as Schema;
  const fields: Record<string, GeneratedField> = {};
  const defaults: Record<string, unknown> = {};
  const names = [...new Set([...Object.keys(create.properties ?? {}), ...Object.keys(update.properties ?? {})])].filter((f) => f !== 'id');
  for (const name of names) {
    const inCreate = create.properties?.[name];
    const schema = inCreate ?? update.properties![name];
    const createOnly = !!inCreate && (!update.properties?.[name] || name === decl.scope?.field);
    fields[name] = fieldOf(schema, !!inCreate && !!create.required?.includes(name), createOnly);
    if (schema.default !== undefined) defaults[name] = schema.default;
  }
  return { fields, defaults };
}

/** `{ a b { c } }`: every field of the type, objects to their scalars. */
function selectionOf(type: GraphQLObjectType, depth = 0): string {
  const parts = Object.values(type.getFields()).map((f) => {
    const named = getNamedType(f.type);
    if (isScalarType(named) || isEnumType(named)) return f.name;
    return depth < 3 && isObjectType(named) ? `${f.name} ${selectionOf(named, depth + 1)}` : null;
  });
  return `{ ${parts.filter(Boolean).join(' ')} }`;
}

function operationField(schema: GraphQLSchema, kind: 'Query' | 'Mutation', name: string): GraphQLField<unknown, unknown> {
  const root = kind === 'Query' ? schema.getQueryType() : schema.getMutationType();
  const field = root?.getFields()[name];
  if (!field) throw new Error(`resources: the gateway has no ${kind} ${name} (a declared resource's method)`);
  return field;
}

/** The operation's name as the gateway names it: `<Service>_<Method>`, the method without a verb or parameters. */
const gatewayName = (service: string, method: string) => `${service}_${method.replace(/^\w+ /, '').split('?')[0]}`;

export interface GeneratedDocuments { list?: string; create?: string; update?: string; delete?: string }

/** The resource's operations as GraphQL documents (the console's conventions: `list`, `row`, `$input`, `$id`). */
export function documentsOf(decl: DeclaredParts, schema: GraphQLSchema, prefix: string): GeneratedDocuments {
  const service = decl.mount ?? decl.service;
  const docs: GeneratedDocuments = {};
  let item = '';
  if (decl.methods.list) {
    const list = operationField(schema, 'Query', gatewayName(service, decl.methods.list));
    const listType = getNamedType(list.type);
    const itemType = isObjectType(listType) ? getNamedType(listType.getFields().data?.type) : null;
    if (!isObjectType(itemType)) throw new Error(`resources: ${list.name} answers no { data, totalCount } page`);
    item = selectionOf(itemType);
    const variables = list.args.map((a) => `$${a.name}: ${String(a.type)}`).join(', ');
    const args = list.args.map((a) => `${a.name}: $${a.name}`).join(', ');
    docs.list = `query ${prefix}List(${variables}) { list: ${list.name}(${args}) { totalCount data ${item} } }`;
  }
  for (const kind of ['create', 'update'] as const) {
    const method = decl.methods[kind];
    if (!method) continue;
    const field = operationField(schema, 'Mutation', gatewayName(service, method));
    const input = field.args.find((a) => isInputObjectType(getNamedType(a.type)));
    if (!input) throw new Error(`resources: ${field.name} takes no input object`);
    const type = isNonNullType(input.type) ? String(input.type) : `${String(input.type)}!`;
    const name = kind === 'create' ? 'Create' : 'Update';
    const answer = getNamedType(field.type);
    docs[kind] = `mutation ${prefix}${name}($input: ${type}) { row: ${field.name}(${input.name}: $input) ${isObjectType(answer) ? selectionOf(answer) : item} }`;
  }
  if (decl.methods.delete) {
    const field = operationField(schema, 'Mutation', gatewayName(service, decl.methods.delete));
    const idParam = decl.methods.delete.split('?')[1].split('&')[0];
    const arg = field.args.find((a) => a.name === idParam);
    if (!arg) throw new Error(`resources: ${field.name} takes no ${idParam}`);
    docs.delete = `mutation ${prefix}Delete($id: ${String(arg.type)}) { deleted: ${field.name}(${idParam}: $id) }`;
  }
  return docs;
}

const sortingOf = (text: string) => {
  const [field, direction = 'asc'] = text.trim().split(/\s+/);
  return { field, direction: direction.toLowerCase() === 'desc' ? 'desc' : 'asc' };
};

/** One resource's generated module. */
export function moduleOf(decl: DeclaredParts, schema: GraphQLSchema): string {
  const name = decl.service.replace(/\W/g, '');
  const docs = documentsOf(decl, schema, `Resource${name}`);
  const { fields, defaults } = fieldsOf(decl);
  const json = (v: unknown) => JSON.stringify(v);
  const operations = (Object.keys(docs) as (keyof GeneratedDocuments)[])
    .map((k) => `    ${k}: graphql(\`${docs[k]}\`),`).join('\n');
  return `// Generated by scripts/resourceDocuments.ts from the server's declaration of ${decl.service} (server/resources/index.ts). Do not edit.
import { graphql } from '../../../gql';

export const ${name} = {
  service: ${json(decl.service)},
  operations: {
${operations}
  },
  fields: ${json(fields)},
  defaults: ${json(defaults)},
  sortable: ${json(decl.sortable)},
  filters: ${json(decl.filters)},
  defaultSorting: ${json(sortingOf(decl.defaultSorting))},
  scope: ${json(decl.scope)},
} as const;
`;
}

/**
 * Reads a console screen shows whole (a tree rather than a declared list): the screen's document
 * selects every field of each answer, so a field added to a declaration's item (or a product field
 * flagged `tree`) reaches the screen with no document to edit; only the screen's config says how
 * it shows. Document name → its root fields' aliases → the gateway's query.
 */
export const READS: Record<string, Record<string, string>> = {
  /** /store (src/console/menu/StorePage.tsx): types → sub-types → products, and the addition groups. */
  MenuTree: { tree: 'Products_GetProductsGroupedByTypeAndSubtype', additions: 'ProductAddition_GetProductAdditionsTreeView' },
};

/** One read as a query named `Read<Name>`: each root field aliased, every field of its answer selected; its variables are the queries' arguments (one name, one type). */
export function readDocumentOf(name: string, roots: Record<string, string>, schema: GraphQLSchema): string {
  const variables = new Map<string, string>();
  const fields = Object.entries(roots).map(([alias, query]) => {
    const field = operationField(schema, 'Query', query);
    for (const a of field.args) {
      if (variables.has(a.name) && variables.get(a.name) !== String(a.type)) throw new Error(`resources: ${name} takes $${a.name} as two types`);
      variables.set(a.name, String(a.type));
    }
    const answer = getNamedType(field.type);
    if (!isObjectType(answer)) throw new Error(`resources: ${query} answers no object`);
    return `${alias}: ${field.name}(${field.args.map((a) => `${a.name}: $${a.name}`).join(', ')}) ${selectionOf(answer)}`;
  });
  const vars = [...variables].map(([v, type]) => `$${v}: ${type}`).join(', ');
  return `query Read${name}${vars ? `(${vars})` : ''} { ${fields.join(' ')} }`;
}

/** The module of every read (`generated/reads.ts`). */
export function readsModuleOf(schema: GraphQLSchema, reads = READS): string {
  const docs = Object.entries(reads).map(([name, roots]) => `export const Read${name} = graphql(\`${readDocumentOf(name, roots, schema)}\`);`);
  return `// Generated by scripts/resourceDocuments.ts (READS) from the gateway's schema. Do not edit.
import { graphql } from '../../../gql';

${docs.join('\n')}
`;
}

/** Writes one module per registered resource and the reads' module, and removes those of resources no longer registered. */
export async function writeResourceDocuments(schemaFile = '.mesh/schema.graphql', outDir = 'src/console/resources/generated') {
  const { RESOURCES } = await import('../server/resources/index');
  const schema = buildSchema(readFileSync(schemaFile, 'utf8'), { assumeValidSDL: true });
  mkdirSync(outDir, { recursive: true });
  const written = new Set<string>();
  for (const resource of RESOURCES) {
    const file = `${resource.declaration.service.replace(/\W/g, '')}.ts`;
    if (written.has(file)) throw new Error(`resources: two declarations of the service ${resource.declaration.service}`);
    written.add(file);
    writeFileSync(path.join(outDir, file), moduleOf(resource.declaration, schema));
  }
  written.add('reads.ts');
  writeFileSync(path.join(outDir, 'reads.ts'), readsModuleOf(schema));
  for (const file of readdirSync(outDir)) if (!written.has(file)) rmSync(path.join(outDir, file));
}
