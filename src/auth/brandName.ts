import { useQuery } from '@apollo/client/react';
import { graphql } from '../gql';
import { KEYS, storage } from '../lib/storage';
import { DEFAULT_BRAND_ID } from '../../domain/constants';

const AuthBrandNames = graphql(`
  query AuthBrandNames {
    Brand_GetBrandsForMangoCustomer { id name }
  }
`);

/**
 * The brand this browser orders from, as the shop's header names it (src/shop/shopContext.tsx
 * storedSelection): the shop's stored choice (its own copy, then the spec's `brandId` key), else
 * the shop's default brand (SPEC.md 3: brand 7).
 */
export function knownBrandId(): number {
  const own = storage.getJson<{ brandId?: number }>(KEYS.shopSelection, {});
  return Number(own.brandId) || Number(storage.get(KEYS.brandId)) || DEFAULT_BRAND_ID;
}

/** The brand's name, in the shop's language, for the sign-in and registration cards; null until the brands are loaded. */
export function useKnownBrandName(): string | null {
  const brandId = knownBrandId();
  const { data } = useQuery(AuthBrandNames, { context: { silent: true } });
  return data?.Brand_GetBrandsForMangoCustomer?.find((b) => b?.id === brandId)?.name ?? null;
}
