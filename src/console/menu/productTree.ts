/**
 * What the product form and its history read of the menu (StorePage loads them once): the product
 * types with their sub-types, and each type's addition groups.
 */
export type Tree = { id: number; name: string; subtypes?: ({ id: number; name: string } | null)[] | null }[];
export type Additions = { id: number; additionGroups?: ({ id: number; name: string } | null)[] | null }[];
