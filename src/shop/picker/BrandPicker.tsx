import { useState } from 'react';
import { useQuery } from '@apollo/client/react';
import { graphql } from '../../gql';
import type { ShopBrandsQuery } from '../../gql/graphql';

export const ShopBrands = graphql(`
  query ShopBrands {
    Brand_GetBrandsForMangoCustomer {
      id name logoUrl currency currencyDecimals
      branches { id brandId name logoUrl openTime closeTime branchAddress branchPhoneNumber isBusy }
    }
  }
`);

export type Brand = NonNullable<NonNullable<ShopBrandsQuery['Brand_GetBrandsForMangoCustomer']>[number]>;
export type Branch = NonNullable<Brand['branches'][number]>;

/** The accordion of brands, each listing its branches with logo, name, hours and address. */
export function BrandPicker({ selectedBranchId, onPick }: { selectedBranchId: number; onPick: (brand: Brand, branch: Branch) => void }) {
  const { data, loading, error } = useQuery(ShopBrands);
  const brands = (data?.Brand_GetBrandsForMangoCustomer ?? []).filter((b): b is Brand => !!b);
  const [open, setOpen] = useState<number | null>(null);
  if (loading && !brands.length) return <p className="shop-muted" role="status">Loading brands…</p>;
  if (error && !brands.length) return <p className="shop-error" role="alert">The brands could not be loaded.</p>;
  return (
    <div className="picker" role="list" aria-label="Brands">
      {brands.map((brand) => {
        const expanded = open === brand.id || (open === null && brand.branches.some((b) => b?.id === selectedBranchId));
        return (
          <section key={brand.id} className="picker-brand" role="listitem">
            <button className="picker-brand__head" aria-expanded={expanded} onClick={() => setOpen(expanded ? -1 : brand.id)}>
              {brand.logoUrl && <img src={brand.logoUrl} alt="" width={40} height={40} />}
              <span className="picker-brand__name">{brand.name}</span>
              <span className="picker-brand__count">{brand.branches.length} {brand.branches.length === 1 ? 'branch' : 'branches'}</span>
            </button>
            {expanded && (
              <ul className="picker-branches">
                {brand.branches.filter((b): b is Branch => !!b).map((branch) => (
                  <li key={branch.id}>
                    <button className={`picker-branch${branch.id === selectedBranchId ? ' is-selected' : ''}`} onClick={() => onPick(brand, branch)} aria-pressed={branch.id === selectedBranchId}>
                      {branch.logoUrl && <img src={branch.logoUrl} alt="" width={36} height={36} />}
                      <span className="picker-branch__body">
                        <strong>{branch.name}</strong>
                        <span>{branch.openTime} – {branch.closeTime}{branch.isBusy ? ' · Busy' : ''}</span>
                        <span className="shop-muted">{branch.branchAddress}</span>
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </section>
        );
      })}
    </div>
  );
}
