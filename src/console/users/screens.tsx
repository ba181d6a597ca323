import type { ReactNode } from 'react';
import { Tag } from '@blueprintjs/core';
import { MIN_PASSWORD_LENGTH } from '../../../domain/constants';
import { graphql } from '../../gql';
import type { ColumnConfig, FieldConfig, ResourceConfig } from '../resources/types';
import { BranchSelect, BrandSelect, CompanySelect, PlaceCell, RoleSelect } from './places';
import { AdminUserManagement } from '../resources/generated/AdminUserManagement';

/**
 * The three staff-user screens on the resource shape: /UserManagement (every user the caller
 * manages, any role they may give), /brands/users/:id (a brand's managers) and /branches/users/:id
 * (a branch's users). One user service on the server answers all three (adminUserManagement/staffUsers.ts).
 */
// The list is the declaration's (server/services/adminUserManagement/staffUsers.ts); the writes are hand-written there.
const UserCreate = graphql(`mutation DashboardUserCreate($input: CreateUserInput_Input!) { row: AdminUserManagement_CreateUser(input: $input) { id userName } }`);
const UserUpdate = graphql(`mutation DashboardUserUpdate($input: UpdateUserInput_Input!) { row: AdminUserManagement_UpdateUser(input: $input) { id userName } }`);
const UserDelete = graphql(`mutation DashboardUserDelete($id: Int!) { deleted: AdminUserManagement_DeleteDashboardUser(UserId: $id) }`);

const BranchUserList = graphql(`
  query BranchUserList($SkipCount: Int!, $MaxResultCount: Int!, $Sorting: String, $Search: String, $id: Int, $branchId: Int!) {
    list: Branch_GetBranchUsersByBranchId(SkipCount: $SkipCount, MaxResultCount: $MaxResultCount, Sorting: $Sorting, Search: $Search, id: $id, branchId: $branchId) {
      totalCount data { id userName fullName emailAddress phoneNumber role companyId brandId branchId passwordChangedAt createdAt }
    }
  }
`);
const BranchUserCreate = graphql(`mutation BranchUserCreate($input: CreateBranchUserInput_Input!) { row: Branch_CreateBranchUserForBranch(input: $input) { id userName } }`);
const BranchUserUpdate = graphql(`mutation BranchUserUpdate($input: UpdateBranchUserInput_Input!) { row: Branch_UpdateBranchUser(input: $input) { id userName } }`);

const BrandManagerList = graphql(`
  query BrandManagerList($SkipCount: Int!, $MaxResultCount: Int!, $Sorting: String, $Search: String, $id: Int, $brandId: Int!) {
    list: Brand_GetBrandManagersByBrandId(SkipCount: $SkipCount, MaxResultCount: $MaxResultCount, Sorting: $Sorting, Search: $Search, id: $id, brandId: $brandId) {
      totalCount data { id userName fullName emailAddress phoneNumber role companyId brandId branchId brandIds passwordChangedAt createdAt }
    }
  }
`);
const BrandManagerCreate = graphql(`mutation BrandManagerCreate($input: BrandManagerForBrandInput_Input!) { row: Brand_CreateBrandManagerForBrand(input: $input) { id userName } }`);
const BrandManagerUpdate = graphql(`mutation BrandManagerUpdate($input: UpdateBrandManagerForBrandInput_Input!) { row: Brand_UpdateBrandManagerForBrand(input: $input) { id userName } }`);

const text = (v: unknown) => (v == null || v === '' ? '—' : String(v));
const columns: ColumnConfig[] = [
  { field: 'userName', name: 'User name', width: 150, sortable: true },
  { field: 'fullName', name: 'Full name', width: 180, sortable: true },
  { field: 'role', name: 'Role', width: 150, sortable: true, render: (r) => <Tag minimal>{String(r.role)}</Tag> },
  { key: 'place', name: 'Place', width: 200, render: (r) => <PlaceCell row={r} /> },
  { field: 'emailAddress', name: 'E-mail', width: 200, render: (r) => text(r.emailAddress) },
];

/** Who the user is; the password is set here and never shown again (a blank password on edit keeps theirs). */
const person: FieldConfig[] = [
  { name: 'userName', label: 'User name', kind: 'text', required: true, maxLength: 64, pattern: { regex: /^\S+$/, message: 'User name has no spaces.' }, help: 'What they log in with.' },
  { name: 'fullName', label: 'Full name', kind: 'text', required: true, maxLength: 100 },
  { name: 'emailAddress', label: 'E-mail', kind: 'text', maxLength: 256, pattern: { regex: /^$|^[^\s@]+@[^\s@]+\.[^\s@]+$/, message: 'Not an e-mail address.' } },
  { name: 'phoneNumber', label: 'Phone', kind: 'text', maxLength: 20, placeholder: '+965…' },
  {
    name: 'password', label: 'Password', kind: 'password', maxLength: 128,
    pattern: { regex: new RegExp(`^.{${MIN_PASSWORD_LENGTH},}$`), message: `Password has at least ${MIN_PASSWORD_LENGTH} characters.` },
    help: `At least ${MIN_PASSWORD_LENGTH} characters; needed for a new user. Leave it empty to keep theirs.`,
  },
];

export const usersScreen: ResourceConfig = {
  path: '/UserManagement',
  title: 'User Management',
  noun: 'user',
  historyResource: AdminUserManagement.service,
  columns,
  fields: [
    ...person,
    { name: 'role', label: 'Role', kind: 'text', required: true, Input: RoleSelect },
    { name: 'companyId', label: 'Company', kind: 'number', Input: CompanySelect, help: 'For company roles.' },
    { name: 'brandId', label: 'Brand', kind: 'number', Input: BrandSelect, help: 'For brand roles (and a branch’s brand).' },
    { name: 'branchId', label: 'Branch', kind: 'number', Input: BranchSelect, help: 'For branch roles.' },
  ],
  filters: [{ field: 'role', label: 'Role', options: ['ADMIN', 'COMPANY_ADMIN', 'COMPANY_REVIEWER', 'BRAND_MANAGER', 'BRAND_REVIEWER', 'BRANCH_USER', 'BRANCH_REVIEWER'].map((r) => ({ value: r, label: r })) }],
  searchPlaceholder: 'User name, name or e-mail',
  defaultSorting: { field: 'userName', direction: 'asc' },
  operations: { list: AdminUserManagement.operations.list, create: UserCreate, update: UserUpdate, delete: UserDelete },
};

export const branchUsersScreen: ResourceConfig = {
  path: '/branches/users/:id',
  title: 'Branch Users',
  noun: 'branch user',
  historyResource: 'AdminUserManagement',
  parent: { level: 'branch', field: 'branchId' },
  fixedFilter: (params) => ({ branchId: Number(params.id) }),
  columns: columns.filter((c) => c.key !== 'place'),
  fields: [
    ...person,
    { name: 'role', label: 'Role', kind: 'select', options: [{ value: 'BRANCH_USER', label: 'Branch user' }, { value: 'BRANCH_REVIEWER', label: 'Branch reviewer' }], help: 'Branch user unless chosen.' },
  ],
  defaults: { role: 'BRANCH_USER' },
  searchPlaceholder: 'User name, name or e-mail',
  defaultSorting: { field: 'userName', direction: 'asc' },
  // Delete gets only the row id (the shape's contract), so it goes through DeleteDashboardUser: the same archive.
  operations: { list: BranchUserList, create: BranchUserCreate, update: BranchUserUpdate, delete: UserDelete },
};

export const brandUsersScreen: ResourceConfig = {
  path: '/brands/users/:id',
  title: 'Brand Users',
  noun: 'brand manager',
  historyResource: 'AdminUserManagement',
  parent: { level: 'brand', field: 'brandId' },
  fixedFilter: (params) => ({ brandId: Number(params.id) }),
  columns: [
    ...columns.filter((c) => c.key !== 'place' && c.field !== 'role'),
    { field: 'brandIds', name: 'Brands', width: 200, render: (r) => <PlaceList ids={r.brandIds} /> },
  ],
  fields: person,
  searchPlaceholder: 'User name, name or e-mail',
  defaultSorting: { field: 'userName', direction: 'asc' },
  operations: { list: BrandManagerList, create: BrandManagerCreate, update: BrandManagerUpdate, delete: UserDelete },
};

function PlaceList({ ids }: { ids: unknown }) {
  const list = Array.isArray(ids) ? ids : [];
  return <>{list.map((id) => <PlaceCell key={String(id)} row={{ brandId: id }} />).reduce<ReactNode[]>((a, c, i) => (i ? [...a, ', ', c] : [c]), [])}</>;
}
