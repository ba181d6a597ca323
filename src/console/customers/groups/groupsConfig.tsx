import { Tag } from '@blueprintjs/core';
import { Link } from 'wouter';
import { graphql } from '../../../gql';
import { BrandName, BrandSelect } from '../../resources/configs/brandSettingsDictionaries';
import type { ResourceConfig } from '../../resources/types';
import { CustomersGroups } from '../../resources/generated/CustomersGroups';
import { PreInvitationLists } from '../../resources/generated/PreInvitationLists';
import { declaredScreen } from '../../resources/declared';
import { dateText } from '../../../../domain/time';

/** /groups — a brand's customer groups (SPEC.md 7 Groups); a row opens /groups/:id, the form creates and renames. */
export const groupsScreen = declaredScreen(CustomersGroups, {
  path: '/groups',
  title: 'Groups',
  noun: 'group',
  columns: [
    { field: 'name', name: 'Name', width: 200, render: (r) => <Link href={`/groups/${r.id}`}>{String(r.name)}</Link> },
    { field: 'brandId', name: 'Brand', width: 140, render: (r) => <BrandName id={r.brandId} /> },
    { field: 'isPrivatePointsProgram', name: 'Kind', width: 180, render: (r) => (r.isPrivatePointsProgram ? <Tag minimal intent="primary">Private points program</Tag> : 'Customers group') },
    { field: 'discountPercent', name: 'Discount', width: 90, render: (r) => (Number(r.discountPercent) ? `${Number(r.discountPercent)} %` : '—') },
  ],
  fields: [
    { name: 'brandId', label: 'Brand', Input: BrandSelect },
    { name: 'name', label: 'Name' },
    { name: 'isPrivatePointsProgram', label: 'Private points program group', help: 'Its members are the customers of a private points program.' },
  ],
  defaults: { isPrivatePointsProgram: false },
  searchPlaceholder: 'Search by name',
  filters: [{ field: 'isPrivatePointsProgram', label: 'Kind', options: [{ value: false, label: 'Customers groups' }, { value: true, label: 'Private points programs' }] }],
});

/** The pre-invitation list of the group of /groups/:id: invited phones, and who of them registered and joined. */
export const preInvitationsScreen = declaredScreen(PreInvitationLists, {
  path: '/groups/:id',
  title: 'Pre-invitation list',
  noun: 'invited phone',
  columns: [
    { field: 'phoneNumber', name: 'Phone', width: 180 },
    { field: 'joinedUserId', name: 'Registered', width: 200, render: (r) => (r.joinedUserId
      ? <Link href={`/customers/${r.joinedUserId}`}>Joined {dateText(String(r.joinedAt))}</Link>
      : <Tag minimal>Not yet</Tag>) },
    { field: 'createdAt', name: 'Invited', width: 160, render: (r) => dateText(String(r.createdAt)) },
  ],
  fields: [
    { name: 'phoneNumber', label: 'Phone', placeholder: '+965 5000 0000', help: 'E.164, or the 8 local digits of a Kuwait number.' },
  ],
  searchPlaceholder: 'Search by phone',
  fixedFilter: (params) => ({ groupId: Number(params.id) }),
  rowClassName: (r) => (r.joinedUserId ? 'resource-row-muted' : undefined),
  // the route fixes the group, whose page names it already
  parent: null,
});

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
