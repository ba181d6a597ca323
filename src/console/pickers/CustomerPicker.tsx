import { useQuery } from '@apollo/client/react';
import { graphql } from '../../gql';
import { errorMessage } from '../../lib/errors';
import type { FieldInputProps } from '../resources/types';
import { SearchPicker, type PickOption, type PickSearch } from './SearchPicker';

/** How many customers one search shows. */
export const CUSTOMER_PICKER_SIZE = 8;

const FindCustomers = graphql(`
  query PickerFindCustomers($Search: String, $MaxResultCount: Int!) {
    found: Customer_GetCustomersAccessibleForCurrentUser(SkipCount: 0, MaxResultCount: $MaxResultCount, Search: $Search) { data { id fullName phoneNumber } }
  }
`);
const CustomerById = graphql(`query PickerCustomerById($id: Int!) { customer: Customer_GetCustomerDetailsById(Id: $id) { id fullName userName phoneNumber } }`);

type Found = { id: number; fullName?: string | null; userName?: string | null; phoneNumber?: string | null };
const asOption = (c: Found): PickOption => ({ id: c.id, label: c.fullName || c.userName || `Customer ${c.id}`, detail: c.phoneNumber ?? undefined });

/** The customers the signed-in user may see (the server's rule, SPEC.md 6) whose name or phone has the text. */
function useCustomerSearch(text: string, open: boolean): PickSearch {
  const found = useQuery(FindCustomers, {
    variables: { Search: text || undefined, MaxResultCount: CUSTOMER_PICKER_SIZE }, skip: !open, context: { silent: true },
  });
  return {
    options: (found.data?.found?.data ?? []).flatMap((c) => (c ? [asOption(c)] : [])),
    loading: found.loading,
    error: found.error ? errorMessage(found.error) : undefined,
  };
}
function useCustomer(id: number | null): PickOption | undefined {
  const one = useQuery(CustomerById, { variables: { id: id ?? 0 }, skip: id == null, context: { silent: true } });
  const c = one.data?.customer;
  return c && c.id === id ? asOption(c) : undefined;
}

/** A form field that picks one customer by name or phone (shown as "name · phone"). */
export function CustomerPicker(props: FieldInputProps) {
  return (
    <SearchPicker {...props} placeholder="Find a customer by name or phone" listLabel="Customers" nothing="No customer of yours matches."
      useSearch={useCustomerSearch} useChosen={useCustomer} />
  );
}
