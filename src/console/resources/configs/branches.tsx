import './org.css';
import './branches.css';
import { Tag } from '@blueprintjs/core';
import { Link } from 'wouter';
import { imageInput } from '../ImageInput';
import { Branch } from '../generated/Branch';
import { declaredScreen } from '../declared';
import { BrandName, BrandSelect, CLOCK_TIME } from './brandSettingsDictionaries';
import { ARABIC_NAME_MESSAGE, ARABIC_TEXT_MESSAGE } from '../../../../domain/arabicName';

/** /branches — the caller's branches (SPEC.md 2.2: ADMIN, COMPANY_ADMIN, BRAND_MANAGER), each with its schedule, users and reward programs. */
export const branchesScreen = declaredScreen(Branch, {
  path: '/branches',
  title: 'Branches',
  noun: 'branch',
  columns: [
    { field: 'logoUrl', name: 'Logo', width: 64, render: (r) => (r.logoUrl ? <img className="org-logo" src={String(r.logoUrl)} alt="" /> : '—') },
    { field: 'name', name: 'Name', width: 180 },
    { field: 'brandId', name: 'Brand', width: 150, render: (r) => <BrandName id={r.brandId} /> },
    { field: 'openTime', name: 'Hours', width: 110, render: (r) => `${String(r.openTime)}–${String(r.closeTime)}` },
    { field: 'branchAddress', name: 'Address', width: 240 },
    { field: 'branchPhoneNumber', name: 'Phone', width: 130 },
    { field: 'isBusy', name: 'Now', width: 80, render: (r) => (r.isBusy ? <Tag minimal intent="warning">Busy</Tag> : <Tag minimal>Open</Tag>) },
    {
      key: 'screens', name: 'Screens', width: 320,
      render: (r) => (
        <span className="branch-links">
          <Link href={`/branch/schedule/${r.id}`} aria-label={`Schedule of ${String(r.name)}`}>Schedule</Link>
          <Link href={`/branches/users/${r.id}`} aria-label={`Users of ${String(r.name)}`}>Users</Link>
          <Link href={`/branches/reward-programs/${r.id}`} aria-label={`Reward programs of ${String(r.name)}`}>Reward programs</Link>
          <Link href={`/branches/printers/${r.id}`} aria-label={`Printers and orders of ${String(r.name)}`}>Printers</Link>
        </span>
      ),
    },
  ],
  fields: [
    { name: 'brandId', label: 'Brand', Input: BrandSelect },
    { name: 'name', label: 'Name' },
    { name: 'nameAr', label: 'Arabic name', patternMessage: ARABIC_NAME_MESSAGE, help: 'Shown in the Arabic shop; empty: the name above.' },
    { name: 'branchAddress', label: 'Address' },
    { name: 'branchAddressAr', label: 'Arabic address', patternMessage: ARABIC_TEXT_MESSAGE, help: 'Shown in the Arabic shop; empty: the address above.' },
    { name: 'branchPhoneNumber', label: 'Phone', placeholder: '+965 2220 0001', patternMessage: 'Use digits, spaces and an optional leading +.' },
    { name: 'openTime', label: 'Opens at', required: true, placeholder: 'HH:MM', patternMessage: CLOCK_TIME.message, help: 'Kuwait time. Online ordering follows the schedule once it has one.' },
    { name: 'closeTime', label: 'Closes at', required: true, placeholder: 'HH:MM', patternMessage: CLOCK_TIME.message, help: 'A time before the opening runs past midnight.' },
    { name: 'deliveryText', label: 'Delivery text', placeholder: 'Delivery in 30–45 minutes' },
    { name: 'deliveryTextAr', label: 'Arabic delivery text', patternMessage: ARABIC_TEXT_MESSAGE, placeholder: 'التوصيل خلال 30–45 دقيقة', help: 'Shown in the Arabic shop; empty: the delivery text above.' },
    { name: 'logoUrl', label: 'Logo', Input: imageInput('UploadBranchLogoImage') },
    { name: 'latitude', label: 'Latitude', help: 'Optional: where the branch is on the map.' },
    { name: 'longitude', label: 'Longitude' },
  ],
  defaults: { openTime: '07:00', closeTime: '23:00' },
  searchPlaceholder: 'Search by name or address',
});
