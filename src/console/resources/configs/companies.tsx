import './org.css';
import { useState } from 'react';
import { useMutation } from '@apollo/client/react';
import { Switch, Tag } from '@blueprintjs/core';
import { Link } from 'wouter';
import { graphql } from '../../../gql';
import { can } from '../../../../domain/permissions';
import { errorMessage } from '../../../lib/errors';
import { notify, notifyError } from '../../../lib/notify';
import { useSession } from '../../../lib/session';
import { imageInput } from '../ImageInput';
import type { ResourceConfig } from '../types';
import { CategoryName, CategorySelect } from './orgDictionaries';

const CompanyList = graphql(`
  query CompanyList($SkipCount: Int!, $MaxResultCount: Int!, $Sorting: String, $Search: String, $id: Int, $categoryId: Int, $accessible: Boolean, $paused: Boolean) {
    list: Company_GetAllCompanies(SkipCount: $SkipCount, MaxResultCount: $MaxResultCount, Sorting: $Sorting, Search: $Search, id: $id, categoryId: $categoryId, accessible: $accessible, paused: $paused) {
      totalCount data { id name categoryId accessible paused logoUrl bannerUrl createdAt }
    }
  }
`);
const CompanyCreate = graphql(`mutation CompanyCreate($input: CompanyCreateInput_Input!) { row: Company_Create(input: $input) { id name categoryId accessible paused logoUrl bannerUrl createdAt } }`);
const CompanyUpdate = graphql(`mutation CompanyUpdate($input: CompanyUpdateInput_Input!) { row: Company_UpdateCompany(input: $input) { id name categoryId accessible paused logoUrl bannerUrl createdAt } }`);
const CompanyDelete = graphql(`mutation CompanyDelete($id: Int!) { deleted: Company_DeleteCompany(companyId: $id) }`);
const ChangeAccess = graphql(`mutation ChangeCompanyAccess($input: ChangeCompanyAccessStatusInput_Input!) { Company_ChangeCompanyAccessStatus(input: $input) { id accessible } }`);
const ChangePause = graphql(`mutation ChangeCompanyPause($input: ChangeCompanyPauseStatusInput_Input!) { Company_ChangeCompanyPauseStatus(input: $input) { id paused } }`);

type Company = { id: number; name?: unknown; accessible?: unknown; paused?: unknown; logoUrl?: unknown };

/**
 * A company's access or pause switch in its row (ADMIN; others see the state). The list is read
 * again once the server answered, so the row's style follows (SPEC.md 4).
 */
function CompanySwitch({ row, field, refresh }: { row: Company; field: 'accessible' | 'paused'; refresh: () => void }) {
  const { role } = useSession();
  const [busy, setBusy] = useState(false);
  const [change] = useMutation(field === 'accessible' ? ChangeAccess : ChangePause, { context: { silent: true } });
  const on = !!row[field];
  const label = field === 'accessible' ? 'Accessible' : 'Paused';
  if (!can(role, 'companies.list')) return <Tag minimal>{on ? label : `Not ${label.toLowerCase()}`}</Tag>;
  const flip = async () => {
    setBusy(true);
    try {
      await change({ variables: { input: { companyId: row.id, [field]: !on } as never } });
      // SPEC.md 8's verbatim text when access is removed.
      if (field === 'accessible' && on) notify('success', 'Companies', 'Company was remove access');
      else notify('success', 'Companies', `${String(row.name)} is ${field === 'accessible' ? 'accessible' : on ? 'running again' : 'paused'}.`);
      refresh();
    } catch (e) {
      notifyError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return <Switch className="company-switch" checked={on} disabled={busy} label={label} aria-label={`${label}: ${String(row.name)}`} onChange={() => void flip()} />;
}

/** /companies — every company (ADMIN): paused rows are warnings, companies without access errors (SPEC.md 4). */
export const companiesScreen: ResourceConfig<Company> = {
  path: '/companies',
  title: 'Companies',
  noun: 'company',
  historyResource: 'Company',
  columns: [
    { field: 'logoUrl', name: 'Logo', width: 64, render: (r) => (r.logoUrl ? <img className="org-logo" src={String(r.logoUrl)} alt="" /> : '—') },
    { field: 'name', name: 'Name', width: 220, sortable: true, render: (r) => <Link href={`/companies/${r.id}`}>{String(r.name)}</Link> },
    { field: 'categoryId', name: 'Category', width: 150, sortable: true, render: (r) => <CategoryName id={(r as Record<string, unknown>).categoryId} /> },
    { field: 'accessible', name: 'Access', width: 140, sortable: true, render: (r, list) => <CompanySwitch row={r} field="accessible" refresh={list.refresh} /> },
    { field: 'paused', name: 'Pause', width: 120, sortable: true, render: (r, list) => <CompanySwitch row={r} field="paused" refresh={list.refresh} /> },
  ],
  fields: [
    { name: 'name', label: 'Name', kind: 'text', required: true, maxLength: 120 },
    { name: 'categoryId', label: 'Category', kind: 'number', required: true, Input: CategorySelect },
    { name: 'logoUrl', label: 'Logo', kind: 'text', Input: imageInput('UploadCompanyLogoImage') },
    { name: 'bannerUrl', label: 'Banner', kind: 'text', Input: imageInput('UploadCompanyBannerImage') },
  ],
  filters: [
    { field: 'accessible', label: 'Access', options: [{ value: true, label: 'Accessible' }, { value: false, label: 'Not accessible' }] },
    { field: 'paused', label: 'Pause', options: [{ value: false, label: 'Running' }, { value: true, label: 'Paused' }] },
  ],
  searchPlaceholder: 'Search by name',
  defaultSorting: { field: 'name', direction: 'asc' },
  rowClassName: (r) => (!r.accessible ? 'resource-row-error' : r.paused ? 'resource-row-warning' : undefined),
  operations: { list: CompanyList, create: CompanyCreate, update: CompanyUpdate, delete: CompanyDelete },
};

/** /companies/:id — one company (ADMIN any, a company admin their own): its row and form, then its brands (./companyPage.tsx). */
export const companyScreen: ResourceConfig<Company> = {
  ...companiesScreen,
  path: '/companies/:id',
  title: 'Company',
  columns: companiesScreen.columns.map((c) => ({ ...c, sortable: false })),
  fixedFilter: (params) => ({ id: Number(params.id) }),
  filters: undefined,
  searchPlaceholder: undefined,
  operations: { list: CompanyList, update: CompanyUpdate },
};
