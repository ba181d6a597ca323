import { useEffect, type ReactNode } from 'react';
import { useLocation, useParams } from 'wouter';
import { useQuery } from '@apollo/client/react';
import { Spinner } from '@blueprintjs/core';
import { can, homeFor, refusedRedirect, type Capability } from '../../../domain/permissions';
import { notify } from '../../lib/notify';
import { carryNotice } from '../../common/Toasts';
import { BranchesUM, BrandsUM, CompaniesUM } from '../users/places';
import type { ConsoleRoute, PlaceKind } from './currentRoute';
import { NotYours } from './NotYours';

/** Why a refused route did not open: one notice, shown where the user lands (issue 23). */
export const refusalText = (route: ConsoleRoute, role: string | null) => `${route.title} is not open to your role (${role ?? 'none'}).`;

/**
 * The route guard's refusal (SPEC.md 6): a branch user goes to /order, anyone else to /, and one
 * notice says why. The console's toaster shows it on /order; the shop's on / (carried across).
 */
export function Refused({ route, role, inConsole }: { route: ConsoleRoute; role: string | null; inConsole: (path: string) => boolean }) {
  const [, navigate] = useLocation();
  useEffect(() => {
    const target = refusedRedirect(role);
    if (inConsole(target)) notify('warning', 'Not allowed', refusalText(route, role));
    else carryNotice('warning', 'Not allowed', refusalText(route, role));
    navigate(target, { replace: true });
    // once per refused route
  }, [route.path]); // eslint-disable-line react-hooks/exhaustive-deps
  return null;
}

const PLACE_NAMES: Record<PlaceKind, { what: string; list: string; label: string; capability: Capability }> = {
  company: { what: 'company', list: '/companies', label: 'Back to companies', capability: 'companies.list' },
  brand: { what: 'brand', list: '/brands', label: 'Back to brands', capability: 'brands.manage' },
  branch: { what: 'branch', list: '/branches', label: 'Back to branches', capability: 'branches.manage' },
};

/**
 * A route whose id names a company, brand or branch opens only on one the user may see (the
 * server's scope, through the user-management place lists every main role reads): another
 * tenant's id, or one that does not exist, shows "Not found, or not yours" with a way back.
 */
export function PlaceGate({ route, role, children }: { route: ConsoleRoute; role: string | null; children: ReactNode }) {
  if (!route.place || !can(role, 'users.manage')) return <>{children}</>;
  return <PlaceCheck kind={route.place.kind} param={route.place.param} role={role}>{children}</PlaceCheck>;
}

function PlaceCheck({ kind, param, role, children }: { kind: PlaceKind; param: string; role: string | null; children: ReactNode }) {
  const params = useParams<Record<string, string>>();
  // The same cached lists the user forms and pickers read (cache-first); only the one of this kind is asked.
  const companies = useQuery(CompaniesUM, { fetchPolicy: 'cache-first', skip: kind !== 'company' });
  const brands = useQuery(BrandsUM, { fetchPolicy: 'cache-first', skip: kind !== 'brand' });
  const branches = useQuery(BranchesUM, { fetchPolicy: 'cache-first', skip: kind !== 'branch' });
  const answer = kind === 'company' ? companies : kind === 'brand' ? brands : branches;
  const id = Number(params[param]);
  // A failed check leaves the answer to the page (it reports its own errors).
  if (answer.error) return <>{children}</>;
  if (!answer.data) return <div className="console-loading"><Spinner /></div>;
  const places: ({ id: number } | null)[] =
    (kind === 'company' ? companies.data?.companies : kind === 'brand' ? brands.data?.brands : branches.data?.branches) ?? [];
  if (Number.isInteger(id) && places.some((p) => p?.id === id)) return <>{children}</>;
  const names = PLACE_NAMES[kind];
  const back = can(role, names.capability) ? names.list : homeFor(role);
  return <NotYours what={names.what} back={back} backLabel={can(role, names.capability) ? names.label : 'Back to the start'} />;
}
