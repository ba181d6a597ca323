import { useQuery } from '@apollo/client/react';
import { graphql } from '../../gql';
import { errorMessage } from '../../lib/errors';
import type { FieldInputProps } from '../resources/types';
import { SearchPicker, type PickOption, type PickSearch } from './SearchPicker';

// The caller's brands with their groups and member counts (the server's scope), read once through Apollo's cache.
const GroupsTree = graphql(`query PickerGroupsTree { tree: CustomersGroups_GetCustomersGroupsTreeView { brandId brandName groups { id name memberCount } } }`);

const members = (n: number) => `${n} ${n === 1 ? 'customer' : 'customers'}`;

/** The caller's groups (of one brand when `brandId` is given), each with its member count. */
export function useGroups(brandId?: number | null): { groups: PickOption[]; loading: boolean; error?: string } {
  const tree = useQuery(GroupsTree, { context: { silent: true } });
  const brands = (tree.data?.tree ?? []).flatMap((b) => (b && (brandId == null || b.brandId === brandId) ? [b] : []));
  const groups = brands.flatMap((b) => (b.groups ?? []).flatMap((g) => (g ? [{
    id: g.id, label: g.name, detail: brandId == null && brands.length > 1 ? `${b.brandName} · ${members(g.memberCount)}` : members(g.memberCount),
  }] : [])));
  return { groups, loading: tree.loading, error: tree.error ? errorMessage(tree.error) : undefined };
}

/** A group's name for a list cell ("VIP · 12 customers"; an id not among the caller's groups shows as its number). */
export function GroupName({ id }: { id: unknown }) {
  const g = useGroups().groups.find((o) => o.id === Number(id));
  return <>{g ? `${g.label} (${g.detail})` : id == null ? '—' : `#${String(id)}`}</>;
}

/** A form field that picks one customer group by name, of the brand `brandId` when given. */
export function GroupPicker({ brandId, ...props }: FieldInputProps & { brandId?: number | null }) {
  const useSearch = (text: string): PickSearch => {
    const { groups, loading, error } = useGroups(brandId);
    const t = text.toLowerCase();
    return { options: groups.filter((g) => g.label.toLowerCase().includes(t)), loading, error };
  };
  const useChosen = (id: number | null) => useGroups(brandId).groups.find((g) => g.id === id);
  return (
    <SearchPicker {...props} placeholder="Find a group by name" listLabel="Customer groups" nothing="No group of this brand matches."
      useSearch={useSearch} useChosen={useChosen} />
  );
}
