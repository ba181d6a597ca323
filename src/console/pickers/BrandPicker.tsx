import { useEffect } from 'react';
import type { FieldInputProps } from '../resources/types';
import { useBrandOptions } from '../resources/configs/brandSettingsDictionaries';
import { SearchPicker, type PickOption, type PickSearch } from './SearchPicker';

function useBrands(): PickOption[] {
  return useBrandOptions().map((o) => ({ id: Number(o.value), label: o.label }));
}
/** The caller's brands (the server's scope) whose name has the text. */
function useBrandSearch(text: string): PickSearch {
  const brands = useBrands();
  const t = text.toLowerCase();
  return { options: brands.filter((b) => b.label.toLowerCase().includes(t)), loading: false };
}
function useBrand(id: number | null): PickOption | undefined {
  return useBrands().find((b) => b.id === id);
}

/** A form field that picks one of the caller's brands by name; the manager of a single brand gets it chosen. */
export function BrandPicker(props: FieldInputProps) {
  const brands = useBrands();
  const { value, onChange } = props;
  useEffect(() => { if (brands.length === 1 && value == null) onChange(brands[0].id); }, [brands, value, onChange]);
  return (
    <SearchPicker {...props} placeholder="Find a brand by name" listLabel="Brands" nothing="No brand of yours matches."
      useSearch={useBrandSearch} useChosen={useBrand} />
  );
}
