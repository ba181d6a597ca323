import { Tag } from '@blueprintjs/core';
import { Link } from 'wouter';
import { graphql } from '../../../gql';
import { BrandName, BrandSelect } from '../../resources/configs/brandSettingsDictionaries';
import type { ResourceConfig } from '../../resources/types';
import { dateText } from '../../../../domain/time';

const GroupList = graphql(`
  query CustomersGroupList($SkipCount: Int!, $MaxResultCount: Int!, $Sorting: String, $Search: String, $id: Int, $brandId: Int, $isPrivatePointsProgram: Boolean) {
    list: CustomersGroups_GetCustomersGroups(SkipCount: $SkipCount, MaxResultCount: $MaxResultCount, Sorting: $Sorting, Search: $Search, id: $id, brandId: $brandId, isPrivatePointsProgram: $isPrivatePointsProgram) {
      totalCount data { id brandId name discountPercent isPrivatePointsProgram }
    }
  }
`);
const GroupCreate = graphql(`mutation CustomersGroupCreate($input: CustomersGroupCreateInput_Input!) { row: CustomersGroups_CreateCustomersGroup(input: $input) { id brandId name discountPercent isPrivatePointsProgram } }`);
const GroupUpdate = graphql(`mutation CustomersGroupUpdate($input: CustomersGroupUpdateInput_Input!) { row: CustomersGroups_UpdateCustomersGroup(input: $input) { id brandId name discountPercent isPrivatePointsProgram } }`);

/** /groups — a brand's customer groups (SPEC.md 7 Groups); a row opens /groups/:id, the form creates and renames. */
export const groupsScreen: ResourceConfig = {
  path: '/groups',
  title: 'Groups',
  noun: 'group',
  historyResource: 'CustomersGroups',
  columns: [
    { field: 'name', name: 'Name', width: 200, sortable: true, render: (r) => <Link href={`/groups/${r.id}`}>{String(r.name)}</Link> },
    { field: 'brandId', name: 'Brand', width: 140, render: (r) => <BrandName id={r.brandId} /> },
    { field: 'isPrivatePointsProgram', name: 'Kind', width: 180, render: (r) => (r.isPrivatePointsProgram ? <Tag minimal intent="primary">Private points program</Tag> : 'Customers group') },
    { field: 'discountPercent', name: 'Discount', width: 90, render: (r) => (Number(r.discountPercent) ? `${Number(r.discountPercent)} %` : '—') },
  ],
  fields: [
    { name: 'brandId', label: 'Brand', kind: 'number', required: true, createOnly: true, Input: BrandSelect },
    { name: 'name', label: 'Name', kind: 'text', required: true, maxLength: 100 },
    { name: 'isPrivatePointsProgram', label: 'Private points program group', kind: 'boolean', createOnly: true, help: 'Its members are the customers of a private points program.' },
  ],
  defaults: { isPrivatePointsProgram: false },
  searchPlaceholder: 'Search by name',
  filters: [{ field: 'isPrivatePointsProgram', label: 'Kind', options: [{ value: false, label: 'Customers groups' }, { value: true, label: 'Private points programs' }] }],
  defaultSorting: { field: 'name', direction: 'asc' },
  operations: { list: GroupList, create: GroupCreate, update: GroupUpdate },
};

const InvitationList = graphql(`
  query PreInvitationList($SkipCount: Int!, $MaxResultCount: Int!, $Sorting: String, $Search: String, $id: Int, $groupId: Int) {
    list: PreInvitationLists_GetAllPreInvitationLists(SkipCount: $SkipCount, MaxResultCount: $MaxResultCount, Sorting: $Sorting, Search: $Search, id: $id, groupId: $groupId) {
      totalCount data { id groupId brandId phoneNumber joinedUserId joinedAt createdAt }
    }
  }
`);
const InvitationCreate = graphql(`mutation PreInvitationCreate($input: CreatePreInvitationListInput_Input!) { row: PreInvitationLists_CreatePreInvitationList(input: $input) { id groupId brandId phoneNumber joinedUserId joinedAt createdAt } }`);
const InvitationUpdate = graphql(`mutation PreInvitationUpdate($input: UpdatePreInvitationListInput_Input!) { row: PreInvitationLists_UpdatePreInvitationList(input: $input) { id groupId brandId phoneNumber joinedUserId joinedAt createdAt } }`);
const InvitationDelete = graphql(`mutation PreInvitationDelete($id: Int!) { deleted: PreInvitationLists_DeletePreInvitationList(Id: $id) }`);

/** The pre-invitation list of the group of /groups/:id: invited phones, and who of them registered and joined. */
export const preInvitationsScreen: ResourceConfig = {
  path: '/groups/:id',
  title: 'Pre-invitation list',
  noun: 'invited phone',
  historyResource: 'PreInvitationLists',
  columns: [
    { field: 'phoneNumber', name: 'Phone', width: 180, sortable: true },
    { field: 'joinedUserId', name: 'Registered', width: 200, render: (r) => (r.joinedUserId
      ? <Link href={`/customers/${r.joinedUserId}`}>Joined {dateText(String(r.joinedAt))}</Link>
      : <Tag minimal>Not yet</Tag>) },
    { field: 'createdAt', name: 'Invited', width: 160, sortable: true, render: (r) => dateText(String(r.createdAt)) },
  ],
  fields: [
    { name: 'phoneNumber', label: 'Phone', kind: 'text', required: true, maxLength: 40, placeholder: '+965 5000 0000', help: 'E.164, or the 8 local digits of a Kuwait number.' },
  ],
  searchPlaceholder: 'Search by phone',
  fixedFilter: (params) => ({ groupId: Number(params.id) }),
  defaultSorting: { field: 'id', direction: 'desc' },
  rowClassName: (r) => (r.joinedUserId ? 'resource-row-muted' : undefined),
  operations: { list: InvitationList, create: InvitationCreate, update: InvitationUpdate, delete: InvitationDelete },
};

const MemberList = graphql(`
  query GroupMemberList($SkipCount: Int!, $MaxResultCount: Int!, $Search: String, $GroupId: Int!) {
    list: Customer_GetCustomerDetailsByCustomersGroupId(SkipCount: $SkipCount, MaxResultCount: $MaxResultCount, Search: $Search, GroupId: $GroupId) {
      totalCount data { id fullName phoneNumber emailAddress createdAt }
    }
  }
`);

/** The customers of the group of /groups/:id (the Remove cell is added by the page, which knows the group). */
export const groupMembersScreen: ResourceConfig = {
  path: '/groups/:id',
  title: 'Customers',
  noun: 'customer',
  columns: [
    { field: 'fullName', name: 'Name', width: 220, render: (r) => <Link href={`/customers/${r.id}`}>{String(r.fullName || '—')}</Link> },
    { field: 'phoneNumber', name: 'Phone', width: 160 },
    { field: 'emailAddress', name: 'E-mail', width: 220 },
  ],
  searchPlaceholder: 'Search by name or phone',
  fixedFilter: (params) => ({ GroupId: Number(params.id) }),
  operations: { list: MemberList },
};
