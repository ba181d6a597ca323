import { useEffect } from 'react';
import { HTMLSelect } from '@blueprintjs/core';
import { useBrands } from '../users/places';
import { managerBrand, useManagerBrand } from './managerBrand';

/**
 * The brand switch of the top bar (brand managers only): the brands they manage, from the server;
 * the choice persists in the browser and the screens filter by it. A stored brand they no longer
 * manage gives way to their first brand.
 */
export function BrandSwitch() {
  const brands = useBrands();
  const current = useManagerBrand();
  useEffect(() => {
    if (brands.length && !brands.some((b) => b.id === current)) managerBrand.choose(brands[0].id);
  }, [brands, current]);
  if (!brands.length) return null;
  return (
    <HTMLSelect
      className="console-brand-switch"
      aria-label="Brand"
      value={current ?? ''}
      onChange={(e) => managerBrand.choose(Number(e.target.value))}
      options={brands.map((b) => ({ value: b.id, label: b.name }))}
    />
  );
}
