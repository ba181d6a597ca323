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
import { Company } from '../generated/Company';
import { declaredScreen, type DeclaredScreen, type RowOf } from '../declared';
import { CategoryName, CategorySelect } from './orgDictionaries';

const ChangeAccess = graphql(`mutation ChangeCompanyAccess($input: ChangeCompanyAccessStatusInput_Input!) { Company_ChangeCompanyAccessStatus(input: $input) { id accessible } }`);
const ChangePause = graphql(`mutation ChangeCompanyPause($input: ChangeCompanyPauseStatusInput_Input!) { Company_ChangeCompanyPauseStatus(input: $input) { id paused } }`);

type CompanyRow = RowOf<typeof Company>;

/**
 * The two switches of a company: what each controls (its column, and its switch's constant name),
 * and the words of its two states (the switch's inner text, the tag, the filter's options).
 */
const SWITCHES = {
  accessible: { control: 'Access', on: 'Accessible', off: 'Not accessible' },
  paused: { control: 'Pause', on: 'Paused', off: 'Running' },
} as const;

/**
 * A company's access or pause switch in its row (ADMIN; others see the state). Its name says what
 * it controls ("Pause: Gulf Roasters") and stays the same; its state is its checked state and the
 * word inside it ("Running", "Paused"), so no label names a state the switch is not in (issue 23).
 * The list is read again once the server answered, so the row's style follows (SPEC.md 4).
 */
function CompanySwitch({ row, field, refresh }: { row: CompanyRow; field: 'accessible' | 'paused'; refresh: () => void }) {
  const { role } = useSession();
  const [busy, setBusy] = useState(false);
  const [change] = useMutation(field === 'accessible' ? ChangeAccess : ChangePause, { context: { silent: true } });
  const on = !!row[field];
  const words = SWITCHES[field];
  if (!can(role, 'companies.list')) return <Tag minimal>{on ? words.on : words.off}</Tag>;
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
  return (
    <Switch className="company-switch" role="switch" checked={on} disabled={busy} innerLabel={words.off} innerLabelChecked={words.on}
      aria-label={`${words.control}: ${String(row.name)}`} onChange={() => void flip()} />
  );
}

/** /companies — every company (ADMIN): paused rows are warnings, companies without access errors (SPEC.md 4). */
const company = {
  path: '/companies',
  title: 'Companies',
  noun: 'company',
  columns: [
    { field: 'logoUrl', name: 'Logo', width: 64, render: (r) => (r.logoUrl ? <img className="org-logo" src={String(r.logoUrl)} alt="" /> : '—') },
    { field: 'name', name: 'Name', width: 220, render: (r) => <Link href={`/companies/${r.id}`}>{String(r.name)}</Link> },
    { field: 'categoryId', name: 'Category', width: 150, render: (r) => <CategoryName id={r.categoryId} /> },
    { field: 'accessible', name: SWITCHES.accessible.control, width: 150, render: (r, list) => <CompanySwitch row={r} field="accessible" refresh={list.refresh} /> },
    { field: 'paused', name: SWITCHES.paused.control, width: 120, render: (r, list) => <CompanySwitch row={r} field="paused" refresh={list.refresh} /> },
  ],
  fields: [
    { name: 'name', label: 'Name' },
    { name: 'categoryId', label: 'Category', Input: CategorySelect },
    { name: 'logoUrl', label: 'Logo', Input: imageInput('UploadCompanyLogoImage') },
    { name: 'bannerUrl', label: 'Banner', Input: imageInput('UploadCompanyBannerImage') },
  ],
} satisfies DeclaredScreen<typeof Company>;

export const companiesScreen = declaredScreen(Company, {
  ...company,
  filters: [
    { field: 'accessible', label: SWITCHES.accessible.control, options: [{ value: true, label: SWITCHES.accessible.on }, { value: false, label: SWITCHES.accessible.off }] },
    { field: 'paused', label: SWITCHES.paused.control, options: [{ value: false, label: SWITCHES.paused.off }, { value: true, label: SWITCHES.paused.on }] },
  ],
  searchPlaceholder: 'Search by name',
  rowClassName: (r) => (!r.accessible ? 'resource-row-error' : r.paused ? 'resource-row-warning' : undefined),
});

/** /companies/:id — one company (ADMIN any, a company admin their own): its row and form, then its brands (./companyPage.tsx). */
export const companyScreen = declaredScreen(Company, {
  ...company,
  path: '/companies/:id',
  title: 'Company',
  columns: company.columns.map((c) => ({ ...c, sortable: false })),
  fixedFilter: (params) => ({ id: Number(params.id) }),
  without: ['create', 'delete'],
});
