import './org.css';
import './branches.css';
import { Tag } from '@blueprintjs/core';
import { Link } from 'wouter';
import { graphql } from '../../../gql';
import { imageInput } from '../ImageInput';
import type { ResourceConfig } from '../types';
import { BrandName, BrandSelect, CLOCK_TIME } from './brandSettingsDictionaries';
import { ARABIC_LETTER, ARABIC_NAME_MAX, ARABIC_NAME_MESSAGE, ARABIC_TEXT_MESSAGE } from '../../../../domain/arabicName';

// The Arabic shop's texts: in Arabic letters or empty (domain/arabicName.ts, as the server checks).
const ARABIC_NAME = { regex: ARABIC_LETTER, message: ARABIC_NAME_MESSAGE };
const ARABIC_TEXT = { regex: ARABIC_LETTER, message: ARABIC_TEXT_MESSAGE };

const BranchList = graphql(`
  query BranchList($SkipCount: Int!, $MaxResultCount: Int!, $Sorting: String, $Search: String, $id: Int, $brandId: Int) {
    list: Branch_GetBranchesForCurrentUser(SkipCount: $SkipCount, MaxResultCount: $MaxResultCount, Sorting: $Sorting, Search: $Search, id: $id, brandId: $brandId) {
      totalCount data { id brandId name logoUrl openTime closeTime nameAr branchAddress branchAddressAr branchPhoneNumber deliveryText deliveryTextAr isBusy latitude longitude createdAt }
    }
  }
`);
const BranchCreate = graphql(`mutation BranchCreate($input: BranchCreateInput_Input!) { row: Branch_Create(input: $input) { id brandId name logoUrl openTime closeTime nameAr branchAddress branchAddressAr branchPhoneNumber deliveryText deliveryTextAr isBusy latitude longitude createdAt } }`);
const BranchUpdate = graphql(`mutation BranchUpdate($input: BranchUpdateInput_Input!) { row: Branch_Update(input: $input) { id brandId name logoUrl openTime closeTime nameAr branchAddress branchAddressAr branchPhoneNumber deliveryText deliveryTextAr isBusy latitude longitude createdAt } }`);

type Branch = { id: number; brandId?: unknown; name?: unknown; logoUrl?: unknown; openTime?: unknown; closeTime?: unknown; isBusy?: unknown };

/** /branches — the caller's branches (SPEC.md 2.2: ADMIN, COMPANY_ADMIN, BRAND_MANAGER), each with its schedule, users and reward programs. */
export const branchesScreen: ResourceConfig<Branch> = {
  path: '/branches',
  title: 'Branches',
  noun: 'branch',
  historyResource: 'Branch',
  columns: [
    { field: 'logoUrl', name: 'Logo', width: 64, render: (r) => (r.logoUrl ? <img className="org-logo" src={String(r.logoUrl)} alt="" /> : '—') },
    { field: 'name', name: 'Name', width: 180, sortable: true },
    { field: 'brandId', name: 'Brand', width: 150, sortable: true, render: (r) => <BrandName id={r.brandId} /> },
    { field: 'openTime', name: 'Hours', width: 110, sortable: true, render: (r) => `${String(r.openTime)}–${String(r.closeTime)}` },
    { field: 'branchAddress', name: 'Address', width: 240 },
    { field: 'branchPhoneNumber', name: 'Phone', width: 130 },
    { field: 'isBusy', name: 'Now', width: 80, render: (r) => (r.isBusy ? <Tag minimal intent="warning">Busy</Tag> : <Tag minimal>Open</Tag>) },
    {
      field: 'screens', name: 'Screens', width: 320,
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
    { name: 'brandId', label: 'Brand', kind: 'number', required: true, createOnly: true, Input: BrandSelect },
    { name: 'name', label: 'Name', kind: 'text', required: true, maxLength: 120 },
    { name: 'nameAr', label: 'Arabic name', kind: 'text', maxLength: ARABIC_NAME_MAX, pattern: ARABIC_NAME, help: 'Shown in the Arabic shop; empty: the name above.' },
    { name: 'branchAddress', label: 'Address', kind: 'text', maxLength: 300 },
    { name: 'branchAddressAr', label: 'Arabic address', kind: 'text', maxLength: 300, pattern: ARABIC_TEXT, help: 'Shown in the Arabic shop; empty: the address above.' },
    { name: 'branchPhoneNumber', label: 'Phone', kind: 'text', maxLength: 30, placeholder: '+965 2220 0001', pattern: { regex: /^(\+?[\d\s\-()]{6,25})?$/, message: 'Use digits, spaces and an optional leading +.' } },
    { name: 'openTime', label: 'Opens at', kind: 'text', required: true, placeholder: 'HH:MM', pattern: CLOCK_TIME, help: 'Kuwait time. Online ordering follows the schedule once it has one.' },
    { name: 'closeTime', label: 'Closes at', kind: 'text', required: true, placeholder: 'HH:MM', pattern: CLOCK_TIME, help: 'A time before the opening runs past midnight.' },
    { name: 'deliveryText', label: 'Delivery text', kind: 'text', maxLength: 300, placeholder: 'Delivery in 30–45 minutes' },
    { name: 'deliveryTextAr', label: 'Arabic delivery text', kind: 'text', maxLength: 300, pattern: ARABIC_TEXT, placeholder: 'التوصيل خلال 30–45 دقيقة', help: 'Shown in the Arabic shop; empty: the delivery text above.' },
    { name: 'logoUrl', label: 'Logo', kind: 'text', Input: imageInput('UploadBranchLogoImage') },
    { name: 'latitude', label: 'Latitude', kind: 'number', min: -90, max: 90, help: 'Optional: where the branch is on the map.' },
    { name: 'longitude', label: 'Longitude', kind: 'number', min: -180, max: 180 },
  ],
  defaults: { openTime: '07:00', closeTime: '23:00' },
  searchPlaceholder: 'Search by name or address',
  defaultSorting: { field: 'name', direction: 'asc' },
  operations: { list: BranchList, create: BranchCreate, update: BranchUpdate },
};
