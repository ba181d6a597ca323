import './org.css';
import { Button, Menu, MenuItem, Popover } from '@blueprintjs/core';
import { CaretDownIcon } from '@blueprintjs/icons';
import { Link, useLocation } from 'wouter';
import { imageInput } from '../ImageInput';
import { Brand } from '../generated/Brand';
import { declaredScreen, type RowOf } from '../declared';
import { ARABIC_NAME_MESSAGE } from '../../../../domain/arabicName';
import { CompanyInput, CompanyName, CurrencyName, CurrencySelect, LanguageName, LanguageSelect } from './orgDictionaries';

type BrandRow = RowOf<typeof Brand>;

/** A brand's own screens (SPEC.md 2.2), built by their own configs. */
const BRAND_SCREENS = (b: BrandRow) => [
  ['Users', `/brands/users/${b.id}`],
  ['Taxes', `/brands/taxes/${b.id}`],
  ['Delivery address fields', `/brands/BrandDeliveryAddressField/${b.id}`],
  ['Delivery fees', `/brands/BrandDeliveryFee/${b.id}`],
  ['Payments', `/brands/payments/${b.id}`],
  ['QR scans', `/brands/qrscans/${b.id}/${encodeURIComponent(String(b.name))}`],
] as const;

function BrandScreensMenu({ brand }: { brand: BrandRow }) {
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
export const brandsScreen = declaredScreen(Brand, {
  path: '/brands',
  title: 'Brands',
  noun: 'brand',
  columns: [
    { field: 'logoUrl', name: 'Logo', width: 64, render: (r) => (r.logoUrl ? <img className="org-logo" src={String(r.logoUrl)} alt="" /> : '—') },
    { field: 'name', name: 'Name', width: 200, render: (r) => <Link href={`/brands/edit/${r.id}`}>{String(r.name)}</Link> },
    { field: 'companyId', name: 'Company', width: 180, render: (r) => <CompanyName id={r.companyId} /> },
    { field: 'currencyId', name: 'Currency', width: 110, render: (r) => <CurrencyName id={r.currencyId} /> },
    { field: 'defaultLanguage', name: 'Language', width: 110, render: (r) => <LanguageName code={r.defaultLanguage} /> },
    { key: 'screens', name: 'Screens', width: 120, render: (r) => <BrandScreensMenu brand={r} /> },
  ],
  fields: [
    { name: 'name', label: 'Name' },
    { name: 'nameAr', label: 'Arabic name', patternMessage: ARABIC_NAME_MESSAGE, help: 'Shown in the Arabic shop; empty: the name above.' },
    { name: 'companyId', label: 'Company', Input: CompanyInput },
    { name: 'currencyId', label: 'Currency', Input: CurrencySelect, help: 'The prices of its menu and orders.' },
    { name: 'defaultLanguage', label: 'Language', required: true, Input: LanguageSelect, help: 'The language its shop starts in.' },
    { name: 'logoUrl', label: 'Logo', Input: imageInput('UploadBrandLogoImage') },
    { name: 'bannerUrl', label: 'Banner', Input: imageInput('UploadBrandBannerImage') },
  ],
  defaults: { defaultLanguage: 'en' },
  searchPlaceholder: 'Search by name',
});

/** /brands/new and /brands/edit/:id — the brands list with the form open; closing it returns to /brands. */
export const brandNewScreen: typeof brandsScreen = { ...brandsScreen, path: '/brands/new', openOnEntry: () => ({ create: true }), closeTo: '/brands' };
export const brandEditScreen: typeof brandsScreen = {
  ...brandsScreen, path: '/brands/edit/:id', closeTo: '/brands',
  openOnEntry: (params) => (Number(params.id) > 0 ? { edit: Number(params.id) } : null),
};

/** The brands of one company, under it on /companies/:id; a new brand there belongs to that company. */
export const companyBrandsScreen: typeof brandsScreen = {
  ...brandsScreen,
  path: '/companies/:id',
  columns: brandsScreen.columns.filter((c) => c.field !== 'companyId'),
  fixedFilter: (params) => ({ companyId: Number(params.id) }),
};
