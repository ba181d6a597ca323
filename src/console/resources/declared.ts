import type { ResultOf, TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { Row, Sorting } from '../../../machines/resourceMachine';
import type { ColumnConfig, FieldConfig, FilterConfig, ListData, ParentPlace, ResourceConfig, ResourceOperations } from './types';

/**
 * A resource the server declares (server/resources/index.ts), as the build generates it into
 * ./generated/<Service>.ts (scripts/resourceDocuments.ts): its documents, its fields' rules, its
 * sortable and filter fields, its default sorting and its scope.
 */
export interface Declared {
  readonly service: string;
  readonly operations: {
    readonly list: TypedDocumentNode<ListData, any>;
    readonly create?: ResourceOperations['create'];
    readonly update?: ResourceOperations['update'];
    readonly delete?: ResourceOperations['delete'];
  };
  readonly fields: { readonly [name: string]: DeclaredField };
  readonly defaults: { readonly [name: string]: unknown };
  readonly sortable: readonly string[];
  readonly filters: { readonly [name: string]: 'equals' | 'contains' };
  readonly defaultSorting: Readonly<Sorting>;
  readonly scope: Readonly<ParentPlace> | null;
}

/** A field's rules as the server's create and update schemas give them. */
export interface DeclaredField {
  readonly kind: 'text' | 'number' | 'boolean' | 'select' | 'datetime';
  readonly required?: boolean;
  readonly min?: number;
  readonly max?: number;
  readonly maxLength?: number;
  readonly createOnly?: boolean;
  readonly values?: readonly (string | number)[];
  readonly pattern?: string;
}

/** A row of the resource's list, as the gateway types it. */
export type RowOf<D extends Declared> = NonNullable<NonNullable<NonNullable<ResultOf<D['operations']['list']>['list']>['data']>[number]>;
/** The fields a form may write. */
export type FieldName<D extends Declared> = keyof D['fields'] & string;
/** The fields the list filters by. */
export type FilterName<D extends Declared> = keyof D['filters'] & string;
export type SortName<D extends Declared> = D['sortable'][number];

/** A form field: one the server declares, with the console's label; any rule or input may be the console's own. */
export type DeclaredScreenField<D extends Declared> = { name: FieldName<D>; label: string; patternMessage?: string } & Partial<Omit<FieldConfig, 'name' | 'label'>>;
type FilterOn<N extends string, F = FilterConfig> = F extends unknown ? Omit<F, 'field'> & { field: N } : never;

/**
 * What a declared resource's screen says: only the console's own. Columns are the row's fields
 * (sortable when the server sorts by them, unless `sortable: false`); fields, filters, defaults,
 * the fixed filter and the sorting name the declaration's fields, so a misspelt one does not compile.
 */
export interface DeclaredScreen<D extends Declared, R extends Row = RowOf<D>> {
  path: string;
  title: string;
  noun: string;
  plural?: string;
  columns: ColumnConfig<R>[];
  fields?: DeclaredScreenField<D>[];
  defaults?: { [K in FieldName<D>]?: unknown };
  filters?: FilterOn<FilterName<D>>[];
  searchPlaceholder?: string;
  fixedFilter?: (params: Record<string, string | undefined>) => { [K in FilterName<D> | 'id']?: unknown };
  defaultSorting?: { field: SortName<D>; direction: 'asc' | 'desc' };
  rowClassName?(row: R): string | undefined;
  openOnEntry?: ResourceConfig['openOnEntry'];
  closeTo?: string;
  /** Writes the screen leaves out although the server has them (a company's own page: no create, no delete). */
  without?: ('create' | 'update' | 'delete')[];
  /** Writes the server gives by hand, not by the declaration (until its declaration has them). */
  operations?: Omit<ResourceOperations, 'list'>;
  /** null: the screen does not name the place its route fixes. */
  parent?: ParentPlace | null;
}

const regexOf = (pattern: string) => {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return new RegExp(pattern);
  }
};

/** A form field's rules: the declaration's, then the console's. */
export function fieldOf<D extends Declared>(declared: D, field: DeclaredScreenField<D>): FieldConfig {
  const rule = declared.fields[field.name];
  if (!rule) throw new Error(`${declared.service} declares no field ${field.name}`);
  const options = field.options ?? rule.values?.map((v) => ({ value: String(v), label: String(v) }));
  const { patternMessage, ...own } = field;
  // the server's pattern, in the console's words when it has them (a blank value is `required`'s to judge)
  const pattern = rule.pattern ? { regex: regexOf(rule.pattern), message: patternMessage ?? `${field.label} is not in the expected form.` } : undefined;
  return {
    kind: rule.kind, required: rule.required, min: rule.min, max: rule.max, maxLength: rule.maxLength, createOnly: rule.createOnly,
    ...(options && { options }), ...(pattern && { pattern }),
    ...own,
  };
}

/** The screen of a declared resource: the declaration's half joined to the config's. */
export function declaredScreen<D extends Declared>(declared: D, screen: DeclaredScreen<D>): ResourceConfig<RowOf<D>> {
  const { without = [], operations, parent, fields, defaults, columns, ...own } = screen;
  const declaredOps: ResourceOperations = { ...declared.operations };
  for (const op of without) delete declaredOps[op];
  return {
    ...own,
    historyResource: declared.service,
    // named when the route fixes it (ResourceScreen); rows that place themselves (companies) have none
    parent: parent === null ? undefined : parent ?? (declared.scope && declared.scope.field !== 'id' ? { ...declared.scope } : undefined),
    columns: columns.map((c) => ({ ...c, sortable: !!c.field && c.sortable !== false && declared.sortable.includes(c.field) })),
    fields: fields?.map((f) => fieldOf(declared, f)),
    defaults: { ...declared.defaults, ...defaults },
    defaultSorting: screen.defaultSorting ?? { ...declared.defaultSorting },
    operations: { ...declaredOps, ...operations },
  };
}
