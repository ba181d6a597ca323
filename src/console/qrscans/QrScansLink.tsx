import { useQuery } from '@apollo/client/react';
import { Link } from 'wouter';
import { graphql } from '../../gql';

const BrandNames = graphql(`query QrScansBrandNames { brands: Brand_GetBrandsForCurrentUser { id name } }`);

/** The way from a brand's statistics to its reward card scans (/brands/qrscans/{brandId}/{brandName}); brand managers have no brands list that links there. */
export function QrScansLink({ brandId }: { brandId: number }) {
  const brand = useQuery(BrandNames, { context: { silent: true } }).data?.brands?.find((b) => b?.id === brandId);
  if (!brand) return null;
  return <Link href={`/brands/qrscans/${brand.id}/${encodeURIComponent(brand.name)}`}>Reward card scans of {brand.name}</Link>;
}
