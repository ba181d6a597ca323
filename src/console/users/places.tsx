import { useQuery } from '@apollo/client/react';
import { HTMLSelect } from '@blueprintjs/core';
import { assignableRoles } from '../../../domain/permissions';
import { graphql } from '../../gql';
import { useSession } from '../../lib/session';
import type { FieldInputProps } from '../resources/types';

/**
 * The places a user-management caller may put a user in (AdminUserManagement/*UM, in their scope)
 * and the roles they may give (domain/permissions.ts ASSIGNABLE_ROLES, the table the server reads).
 */
export const CompaniesUM = graphql(`query CompaniesUM { companies: AdminUserManagement_GetAllCompaniesUM { id name } }`);
export const BrandsUM = graphql(`query BrandsUM { brands: AdminUserManagement_GetBrandsForCurrentUserUM { id name companyId } }`);
export const BranchesUM = graphql(`query BranchesUM { branches: AdminUserManagement_GetBranchesForCurrentUserUM { id name brandId } }`);

type Named = { id: number; name: string };
const clean = <T extends Named>(list: (T | null)[] | null | undefined) => (list ?? []).filter((x): x is T => !!x);

export const useCompanies = () => clean(useQuery(CompaniesUM, { fetchPolicy: 'cache-first' }).data?.companies);
export const useBrands = () => clean(useQuery(BrandsUM, { fetchPolicy: 'cache-first' }).data?.brands);
export const useBranches = () => clean(useQuery(BranchesUM, { fetchPolicy: 'cache-first' }).data?.branches);

function PlaceSelect({ places, none, ...props }: FieldInputProps & { places: Named[]; none: string }) {
  return (
    <HTMLSelect id={props.id} fill disabled={props.disabled} aria-invalid={props.invalid} onBlur={props.onBlur}
      value={props.value == null ? '' : String(props.value)}
      onChange={(e) => props.onChange(e.target.value === '' ? null : Number(e.target.value))}>
      <option value="">{none}</option>
      {places.map((p) => <option key={p.id} value={p.id}>{p.name}</option>)}
    </HTMLSelect>
  );
}
export const CompanySelect = (props: FieldInputProps) => <PlaceSelect {...props} places={useCompanies()} none="No company" />;
export const BrandSelect = (props: FieldInputProps) => <PlaceSelect {...props} places={useBrands()} none="No brand" />;
export const BranchSelect = (props: FieldInputProps) => <PlaceSelect {...props} places={useBranches()} none="No branch" />;

/** The roles the signed-in user may give. */
export function RoleSelect(props: FieldInputProps) {
  const { role } = useSession();
  return (
    <HTMLSelect id={props.id} fill disabled={props.disabled} aria-invalid={props.invalid} onBlur={props.onBlur}
      value={props.value == null ? '' : String(props.value)} onChange={(e) => props.onChange(e.target.value || null)}>
      <option value="">Choose…</option>
      {assignableRoles(role).map((r) => <option key={r} value={r}>{r}</option>)}
    </HTMLSelect>
  );
}

/** A user's place as names: "Mango Coffee · Salmiya". */
export function PlaceCell({ row }: { row: Record<string, unknown> }) {
  const companies = useCompanies();
  const brands = useBrands();
  const branches = useBranches();
  const name = (list: Named[], id: unknown) => (id == null ? null : list.find((p) => p.id === id)?.name ?? `#${String(id)}`);
  const parts = row.branchId != null ? [name(brands, row.brandId), name(branches, row.branchId)]
    : row.brandId != null ? [name(brands, row.brandId)]
      : [name(companies, row.companyId)];
  const text = parts.filter(Boolean).join(' · ');
  return <>{text || '—'}</>;
}
