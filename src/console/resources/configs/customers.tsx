import { Link } from 'wouter';
import { graphql } from '../../../gql';
import type { ResourceConfig } from '../types';
import { dateText } from '../../../../domain/time';

const CustomerList = graphql(`
  query CustomerList($SkipCount: Int!, $MaxResultCount: Int!, $Search: String) {
    list: Customer_GetCustomersAccessibleForCurrentUser(SkipCount: $SkipCount, MaxResultCount: $MaxResultCount, Search: $Search) {
      totalCount data { id fullName phoneNumber emailAddress createdAt }
    }
  }
`);

/** /customers — the customers the caller may see (SPEC.md 6), 10 a page, searched by name or phone; a row opens /customers/:id. */
export const customersScreen: ResourceConfig = {
  path: '/customers',
  title: 'Customers',
  noun: 'customer',
  columns: [
    { field: 'fullName', name: 'Name', width: 240, render: (r) => <Link href={`/customers/${r.id}`}>{String(r.fullName || '—')}</Link> },
    { field: 'phoneNumber', name: 'Phone', width: 160 },
    { field: 'emailAddress', name: 'E-mail', width: 240 },
    { field: 'createdAt', name: 'Registered', width: 180, render: (r) => dateText(String(r.createdAt)) },
  ],
  searchPlaceholder: 'Search by name or phone',
  operations: { list: CustomerList },
};
