import { useEffect } from 'react';
import { useQuery } from '@apollo/client/react';
import { HTMLSelect } from '@blueprintjs/core';
import { graphql } from '../../../gql';
import { useSession } from '../../../lib/session';
import type { FieldInputProps } from '../types';

/**
 * The dictionaries of the company and brand screens (categories, companies, currencies,
 * languages), read once per session through Apollo's cache, as names in list cells and as the
 * options of the forms' selects.
 */
const Categories = graphql(`query CompanyCategories { categories: Company_GetAllCompanyCategories { id name } }`);
const CompanyNames = graphql(`
  query CompanyNames { companies: Company_GetAllCompanies(SkipCount: 0, MaxResultCount: 100, Sorting: "name asc") { data { id name } } }
`);
const Currencies = graphql(`query Currencies { currencies: Currency_GetCurrenciesDictionary { id code name decimals } }`);
const Languages = graphql(`query Languages { languages: Brand_GetLanguagesDictionary { code name nativeName } }`);

type Option = { value: string; label: string };
/** A dictionary's options; `loaded` once the server answered (names show '…' until then). */
type Options = Option[] & { loaded?: boolean };
const optionsOf = <T,>(result: { data?: unknown; loading: boolean }, items: (T | null)[] | null | undefined, toOption: (item: T) => Option): Options =>
  Object.assign((items ?? []).flatMap((i) => (i ? [toOption(i)] : [])), { loaded: !result.loading && !!result.data });
const toId = (v: string) => (v === '' ? undefined : Number(v));

function useCategoryOptions() {
  const q = useQuery(Categories);
  return optionsOf(q, q.data?.categories, (c) => ({ value: String(c.id), label: c.name }));
}
function useCompanyOptions() {
  const q = useQuery(CompanyNames);
  return optionsOf(q, q.data?.companies?.data, (c) => ({ value: String(c.id), label: c.name }));
}
function useCurrencyOptions() {
  const q = useQuery(Currencies);
  return optionsOf(q, q.data?.currencies, (c) => ({ value: String(c.id), label: `${c.code} — ${c.name}` }));
}
function useLanguageOptions() {
  const q = useQuery(Languages);
  return optionsOf(q, q.data?.languages, (l) => ({ value: l.code, label: l.name === l.nativeName ? l.name : `${l.name} (${l.nativeName})` }));
}

const labelOf = (options: Options, value: unknown) =>
  value == null ? '—' : options.find((o) => o.value === String(value))?.label ?? (options.loaded ? `#${String(value)}` : '…');

export const CategoryName = ({ id }: { id: unknown }) => <>{labelOf(useCategoryOptions(), id)}</>;
export const CompanyName = ({ id }: { id: unknown }) => <>{labelOf(useCompanyOptions(), id)}</>;
export const CurrencyName = ({ id }: { id: unknown }) => <>{labelOf(useCurrencyOptions(), id).split(' — ')[0]}</>;
export const LanguageName = ({ code }: { code: unknown }) => <>{labelOf(useLanguageOptions(), code)}</>;

function Select({ options, id, value, disabled, invalid, onChange, onBlur, parse }: FieldInputProps & { options: Option[]; parse: (v: string) => unknown }) {
  return (
    <HTMLSelect id={id} fill disabled={disabled} aria-invalid={invalid} value={value == null ? '' : String(value)}
      onChange={(e) => onChange(parse(e.target.value))} onBlur={onBlur}>
      <option value="">Choose…</option>
      {options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
    </HTMLSelect>
  );
}

export const CategorySelect = (p: FieldInputProps) => <Select {...p} options={useCategoryOptions()} parse={toId} />;
export const CurrencySelect = (p: FieldInputProps) => <Select {...p} options={useCurrencyOptions()} parse={toId} />;
export const LanguageSelect = (p: FieldInputProps) => <Select {...p} options={useLanguageOptions()} parse={(v) => v || undefined} />;

/**
 * A new brand's company: ADMIN chooses it; a company admin's is their own, shown and fixed (the
 * server refuses any other with a 400 anyway).
 */
export function CompanyInput(p: FieldInputProps) {
  const { role, profile } = useSession();
  const own = role === 'ADMIN' ? null : profile?.companyId ?? null;
  const options = useCompanyOptions();
  const { onChange, value } = p;
  useEffect(() => { if (own !== null && value !== own) onChange(own); }, [own, value, onChange]);
  return own === null ? <Select {...p} options={options} parse={toId} /> : <Select {...p} value={own} disabled options={options} parse={toId} />;
}
