import { useEffect } from 'react';
import { useQuery } from '@apollo/client/react';
import { HTMLSelect } from '@blueprintjs/core';
import { graphql } from '../../../gql';
import type { FieldInputProps } from '../types';

/**
 * The dictionaries of the branch and brand-setting screens (the caller's brands, Kuwait's areas,
 * the platform's payment systems), read once per session through Apollo's cache: names in list
 * cells, options of the forms' selects.
 */
const MyBrands = graphql(`query MyBrandNames { brands: Brand_GetBrandsForCurrentUser { id name } }`);
const AreasTree = graphql(`query AllDeliveryAreas { regions: Country_GetDeliveryAreasTree { id name children { id parentId name } } }`);
const PaymentSystems = graphql(`query PaymentSystems { systems: BrandPayment_GetPaymentSystemsDictionary { id name displayName isCard } }`);

type Option = { value: string; label: string };
type Group = { label: string; options: Option[] };
const toId = (v: string) => (v === '' ? undefined : Number(v));
const labelOf = (options: Option[], value: unknown) => options.find((o) => o.value === String(value ?? ''))?.label ?? (value == null ? '—' : `#${String(value)}`);

export const useBrandOptions = (): Option[] =>
  (useQuery(MyBrands).data?.brands ?? []).flatMap((b) => (b ? [{ value: String(b.id), label: b.name }] : []));
const useAreaGroups = (): Group[] =>
  (useQuery(AreasTree).data?.regions ?? []).flatMap((r) => (r ? [{
    label: r.name, options: (r.children ?? []).flatMap((a) => (a ? [{ value: String(a.id), label: a.name }] : [])),
  }] : []));
export const usePaymentOptions = (): Option[] =>
  (useQuery(PaymentSystems).data?.systems ?? []).flatMap((p) => (p ? [{ value: String(p.id), label: p.displayName === p.name ? p.name : `${p.displayName} (${p.name})` }] : []));

export const BrandName = ({ id }: { id: unknown }) => <>{labelOf(useBrandOptions(), id)}</>;
export const PaymentSystemName = ({ id }: { id: unknown }) => <>{labelOf(usePaymentOptions(), id)}</>;
/** An area with its governorate: "Salmiya, Hawalli". */
export function AreaName({ id }: { id: unknown }) {
  const group = useAreaGroups().find((g) => g.options.some((o) => o.value === String(id)));
  return <>{group ? `${labelOf(group.options, id)}, ${group.label}` : labelOf([], id)}</>;
}

function Select({ groups, id, value, disabled, invalid, onChange, onBlur }: FieldInputProps & { groups: Group[] }) {
  return (
    <HTMLSelect id={id} fill disabled={disabled} aria-invalid={invalid} value={value == null ? '' : String(value)}
      onChange={(e) => onChange(toId(e.target.value))} onBlur={onBlur}>
      <option value="">Choose…</option>
      {groups.map((g) => (g.label
        ? <optgroup key={g.label} label={g.label}>{g.options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}</optgroup>
        : g.options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)))}
    </HTMLSelect>
  );
}

/** A new branch's brand: one of the caller's; a manager of a single brand gets it chosen. */
export function BrandSelect(p: FieldInputProps) {
  const options = useBrandOptions();
  const { value, onChange } = p;
  useEffect(() => { if (options.length === 1 && value == null) onChange(Number(options[0].value)); }, [options, value, onChange]);
  return <Select {...p} groups={[{ label: '', options }]} />;
}
/** An area, grouped by governorate (fees are set per area). */
export const AreaSelect = (p: FieldInputProps) => <Select {...p} groups={useAreaGroups()} />;
export const PaymentSystemSelect = (p: FieldInputProps) => <Select {...p} groups={[{ label: '', options: usePaymentOptions() }]} />;

export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
export const WeekdaySelect = (p: FieldInputProps) => <Select {...p} groups={[{ label: '', options: WEEKDAYS.map((label, i) => ({ value: String(i), label })) }]} />;

/** 'HH:MM', 00:00 to 23:59 (the server's rule, server/services/branch/resource.ts). */
export const CLOCK_TIME = { regex: /^([01]\d|2[0-3]):[0-5]\d$/, message: 'Use HH:MM, from 00:00 to 23:59.' };
