import type { TypePolicies } from '@apollo/client';

/**
 * The shop's cache rules. Some types carry an `id` that is not unique among their own kind, so
 * they must not be normalised by it:
 * - CarDictionaryItem: car brands, types and colors share the type, each numbered from 1;
 * - OrderDetailOption: an option's id, while its quantity and price belong to one order's line.
 */
export const shopTypePolicies: TypePolicies = {
  CarDictionaryItem: { keyFields: false },
  OrderDetailOption: { keyFields: false },
};
