import type { ReactNode } from 'react';
import type { ResultOf } from '@graphql-typed-document-node/core';
import type { ReadMenuTree } from '../resources/generated/reads';

/**
 * What the product form and its history read of the menu (StorePage loads them once): the product
 * types with their sub-types, and each type's addition groups.
 */
export type Tree = { id: number; name: string; subtypes?: ({ id: number; name: string } | null)[] | null }[];
export type Additions = { id: number; additionGroups?: ({ id: number; name: string } | null)[] | null }[];

/** /store's rows as the gateway types them (the generated MenuTree read selects every field the server's tree answers). */
type MenuTreeData = ResultOf<typeof ReadMenuTree>;
export type TypeRow = NonNullable<NonNullable<MenuTreeData['tree']>[number]>;
export type SubtypeRow = NonNullable<NonNullable<TypeRow['subtypes']>[number]>;
export type ProductRow = NonNullable<NonNullable<SubtypeRow['products']>[number]>;

/** One thing a /store row shows: the field it shows (typed by the row, so a misspelt one fails tsc) and how. */
export interface StoreCell<R> { field: keyof R & string; render: (row: R) => ReactNode }
