import './org.css';
import { Button, Menu, MenuItem, Popover } from '@blueprintjs/core';
import { CaretDownIcon } from '@blueprintjs/icons';
import { Link, useLocation } from 'wouter';
import { graphql } from '../../../gql';
import { imageInput } from '../ImageInput';
import type { ResourceConfig } from '../types';
import { ARABIC_LETTER, ARABIC_NAME_MAX, ARABIC_NAME_MESSAGE } from '../../../../domain/arabicName';
import { CompanyInput, CompanyName, CurrencyName, CurrencySelect, LanguageName, LanguageSelect } from './orgDictionaries';

const BrandList = graphql(`
  query BrandList($SkipCount: Int!, $MaxResultCount: Int!, $Sorting: String, $Search: String, $id: Int, $companyId: Int, $currencyId: Int) {
    list: Brand_GetBrandsForCurrentUserV2(SkipCount: $SkipCount, MaxResultCount: $MaxResultCount, Sorting: $Sorting, Search: $Search, id: $id, companyId: $companyId, currencyId: $currencyId) {
      totalCount data { id companyId name nameAr logoUrl bannerUrl currencyId defaultLanguage createdAt }
    }
  }
`);
const BrandCreate = graphql(`mutation BrandCreate($input: BrandCreateInput_Input!) { row: Brand_CreateBrand(input: $input) { id companyId name nameAr logoUrl bannerUrl currencyId defaultLanguage createdAt } }`);
const BrandUpdate = graphql(`mutation BrandUpdate($input: BrandUpdateInput_Input!) { row: Brand_UpdateBrand(input: $input) { id companyId name nameAr logoUrl bannerUrl currencyId defaultLanguage createdAt } }`);

type Brand = { id: number; name?: unknown; companyId?: unknown; currencyId?: unknown; defaultLanguage?: unknown; logoUrl?: unknown };

/** A brand's own screens (SPEC.md 2.2), built by their own configs. */
const BRAND_SCREENS = (b: Brand) => [
  ['Users', `/brands/users/${b.id}`],
  ['Taxes', `/brands/taxes/${b.id}`],
  ['Delivery address fields', `/brands/BrandDeliveryAddressField/${b.id}`],
  ['Delivery fees', `/brands/BrandDeliveryFee/${b.id}`],
  ['Payments', `/brands/payments/${b.id}`],
  ['QR scans', `/brands/qrscans/${b.id}/${encodeURIComponent(String(b.name))}`],
] as const;

function BrandScreensMenu({ brand }: { brand: Brand }) {
  const [, navigate] = useLocation();
  return (
    <Popover placement="bottom-start" content={
      <Menu aria-label={`Screens of ${String(brand.name)}`}>
        {BRAND_SCREENS(brand).map(([label, href]) => <MenuItem key={href} text={label} href={href} onClick={(e) => { e.preventDefault(); navigate(href); }} />)}
      </Menu>
    }>
      <Button size="small" variant="minimal" endIcon={<CaretDownIcon />} text="Settings" aria-label={`Settings of ${String(brand.name)}`} />
    </Popover>
  );
}

/** /brands — the caller's brands (ADMIN every one, a company admin their company's), each with its own screens. */
export const brandsScreen: ResourceConfig<Brand> = {
  path: '/brands',
  title: 'Brands',
  noun: 'brand',
  historyResource: 'Brand',
  columns: [
    { field: 'logoUrl', name: 'Logo', width: 64, render: (r) => (r.logoUrl ? <img className="org-logo" src={String(r.logoUrl)} alt="" /> : '—') },
    { field: 'name', name: 'Name', width: 200, sortable: true, render: (r) => <Link href={`/brands/edit/${r.id}`}>{String(r.name)}</Link> },
    { field: 'companyId', name: 'Company', width: 180, sortable: true, render: (r) => <CompanyName id={r.companyId} /> },
    { field: 'currencyId', name: 'Currency', width: 110, sortable: true, render: (r) => <CurrencyName id={r.currencyId} /> },
    { field: 'defaultLanguage', name: 'Language', width: 110, render: (r) => <LanguageName code={r.defaultLanguage} /> },
    { field: 'screens', name: 'Screens', width: 120, render: (r) => <BrandScreensMenu brand={r} /> },
  ],
  fields: [
    { name: 'name', label: 'Name', kind: 'text', required: true, maxLength: 120 },
    {
      name: 'nameAr', label: 'Arabic name', kind: 'text', maxLength: ARABIC_NAME_MAX, pattern: { regex: ARABIC_LETTER, message: ARABIC_NAME_MESSAGE },
      help: 'Shown in the Arabic shop; empty: the name above.',
    },
    { name: 'companyId', label: 'Company', kind: 'number', required: true, createOnly: true, Input: CompanyInput },
    { name: 'currencyId', label: 'Currency', kind: 'number', required: true, Input: CurrencySelect, help: 'The prices of its menu and orders.' },
    { name: 'defaultLanguage', label: 'Language', kind: 'select', required: true, Input: LanguageSelect, help: 'The language its shop starts in.' },
    { name: 'logoUrl', label: 'Logo', kind: 'text', Input: imageInput('UploadBrandLogoImage') },
    { name: 'bannerUrl', label: 'Banner', kind: 'text', Input: imageInput('UploadBrandBannerImage') },
  ],
  defaults: { defaultLanguage: 'en' },
  searchPlaceholder: 'Search by name',
  defaultSorting: { field: 'name', direction: 'asc' },
  operations: { list: BrandList, create: BrandCreate, update: BrandUpdate },
};

/** /brands/new and /brands/edit/:id — the brands list with the form open; closing it returns to /brands. */
export const brandNewScreen: ResourceConfig<Brand> = { ...brandsScreen, path: '/brands/new', openOnEntry: () => ({ create: true }), closeTo: '/brands' };
export const brandEditScreen: ResourceConfig<Brand> = {
  ...brandsScreen, path: '/brands/edit/:id', closeTo: '/brands',
  openOnEntry: (params) => (Number(params.id) > 0 ? { edit: Number(params.id) } : null),
};

/** The brands of one company, under it on /companies/:id; a new brand there belongs to that company. */
export const companyBrandsScreen: ResourceConfig<Brand> = {
  ...brandsScreen,
  path: '/companies/:id',
  columns: brandsScreen.columns.filter((c) => c.field !== 'companyId'),
  fixedFilter: (params) => ({ companyId: Number(params.id) }),
};
