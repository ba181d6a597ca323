import { useState } from 'react';
import type { BrandSummary, BranchSummary } from '../../../machines/branchChange';
import { t, translateMessage } from '../../i18n';
import { orderingText, useOrdering } from '../branch/ordering';

/** Whether the branch takes online orders now, by the schedule the order check enforces ('Closed · opens 20:00'). */
export function BranchHours({ branch, className = '', busy = t('picker.busy') }: { branch: BranchSummary; className?: string; busy?: string }) {
  const ordering = useOrdering(branch);
  return (
    <span className={`branch-hours${ordering.open ? '' : ' is-closed'} ${className}`.trim()} data-testid="branch-hours">
      {orderingText(ordering)}{branch.isBusy ? busy : ''}
    </span>
  );
}

/** The accordion of brands, each listing its branches with logo, name, hours and address. */
export function BrandPicker({ brands, loading, error, selectedBranchId, onPick }: {
  brands: BrandSummary[];
  loading: boolean;
  error: string | null;
  selectedBranchId: number;
  onPick: (brand: BrandSummary, branch: BranchSummary) => void;
}) {
  const [open, setOpen] = useState<number | null>(null);
  if (loading && !brands.length) return <p className="shop-muted" role="status">{t('picker.loading')}</p>;
  if (error && !brands.length) return <p className="shop-error" role="alert">{translateMessage(error) || t('picker.failed')}</p>;
  return (
    <div className="picker" role="list" aria-label={t('picker.brands')}>
      {brands.map((brand) => {
        const expanded = open === brand.id || (open === null && brand.branches.some((b) => b.id === selectedBranchId));
        return (
          <div key={brand.id} className="picker-brand" role="listitem">
            <button className="picker-brand__head" aria-expanded={expanded} onClick={() => setOpen(expanded ? -1 : brand.id)}>
              {brand.logoUrl && <img src={brand.logoUrl} alt="" width={40} height={40} />}
              <span className="picker-brand__name">{brand.name}</span>
              <span className="picker-brand__count">{t('picker.branches', { count: brand.branches.length })}</span>
              <span className={`picker-brand__chevron${expanded ? ' is-open' : ''}`} aria-hidden="true" />
            </button>
            {expanded && (
              <ul className="picker-branches">
                {brand.branches.map((branch) => (
                  <li key={branch.id}>
                    <button className={`picker-branch${branch.id === selectedBranchId ? ' is-selected' : ''}`} onClick={() => onPick(brand, branch)} aria-pressed={branch.id === selectedBranchId}>
                      {branch.logoUrl && <img src={branch.logoUrl} alt="" width={36} height={36} />}
                      <span className="picker-branch__body">
                        <strong>{branch.name}</strong>
                        <BranchHours branch={branch} />
                        <span className="shop-muted">{branch.branchAddress}</span>
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </div>
        );
      })}
    </div>
  );
}
