import { useEffect, useState, type FormEvent } from 'react';
import { useQuery } from '@apollo/client/react';
import { Card, FormGroup, HTMLSelect } from '@blueprintjs/core';
import { DayRangeFields } from './DayRangeFields';
import { graphql } from '../../gql';
import { dayKey } from '../../../domain/time';
import { dayRangeProblem, daysOf, PERIOD_LABELS, PERIODS, type DashboardFilter, type PeriodKey } from './dashboardFilter';

export const Departments = graphql(`
  query DashboardDepartments($brandId: Int) {
    tree: Statistic_GetAccesibleDepartmentsTree(brandId: $brandId) { id name brands { id name branches { id name } } }
  }
`);

export type Place = { id: number; name: string; brandId: number; brandName: string };

/** The brands and branches the user may filter by (the server's tree of their scope; one brand for a brand manager). */
export function usePlaces(fixedBrandId: number | null, allowed: boolean) {
  // Only a role that may read statistics asks for the tree (statistics.brand); a branch user never asks what it is refused.
  const answer = useQuery(Departments, { variables: { brandId: fixedBrandId ?? undefined }, skip: !allowed, fetchPolicy: 'cache-and-network', context: { silent: true } });
  const tree = answer.data?.tree ?? [];
  const brands = tree.flatMap((c) => (c?.brands ?? []).flatMap((b) => (b ? [b] : [])));
  const branches: Place[] = brands.flatMap((b) => (b.branches ?? []).flatMap((r) => (r ? [{ id: r.id, name: r.name, brandId: b.id, brandName: b.name }] : [])));
  return { brands: brands.map((b) => ({ id: b.id, name: b.name })), branches, loaded: !!answer.data };
}

/**
 * The dashboard's period, brand and branch: each change is a new address (Back returns to the
 * previous figures). A brand manager's brand is the one chosen in the top bar, so only the
 * branch is offered to them; the others choose any brand of their scope, then its branches.
 */
export function DashboardFilterBar({ filter, onChange, chooseBrand, places }: {
  filter: DashboardFilter; onChange: (f: DashboardFilter) => void; chooseBrand: boolean; places: ReturnType<typeof usePlaces>;
}) {
  const today = dayKey(new Date());
  const shown = daysOf(filter);
  const [draft, setDraft] = useState({ from: filter.from ?? shown?.first ?? today, to: filter.to ?? shown?.last ?? today });
  const [problem, setProblem] = useState<string | null>(null);
  const [custom, setCustom] = useState(filter.period === 'custom');
  useEffect(() => { setCustom(filter.period === 'custom'); }, [filter.period]);
  const branches = places.branches.filter((b) => !filter.brandId || b.brandId === filter.brandId);

  const choosePeriod = (period: PeriodKey) => {
    if (period === 'custom') { setCustom(true); return; }
    setCustom(false);
    onChange({ ...filter, period, from: undefined, to: undefined });
  };
  const applyDays = (e: FormEvent) => {
    e.preventDefault();
    const wrong = dayRangeProblem(draft.from, draft.to);
    setProblem(wrong);
    if (!wrong) onChange({ ...filter, period: 'custom', from: draft.from, to: draft.to });
  };

  return (
    <Card className="console-card dashboard-filter" role="search" aria-label="Dashboard filter">
      <form className="dashboard-filter__row" onSubmit={applyDays}>
        <FormGroup label="Period" labelFor="dashboard-period" inline>
          <HTMLSelect id="dashboard-period" value={custom ? 'custom' : filter.period} onChange={(e) => choosePeriod(e.target.value as PeriodKey)}
            options={PERIODS.map((p) => ({ value: p, label: PERIOD_LABELS[p] }))} />
        </FormGroup>
        {custom && <DayRangeFields idPrefix="dashboard" value={draft} max={today} onChange={setDraft} />}
        {chooseBrand && (
          <FormGroup label="Brand" labelFor="dashboard-brand" inline>
            <HTMLSelect id="dashboard-brand" value={filter.brandId ?? ''}
              onChange={(e) => onChange({ ...filter, brandId: Number(e.target.value) || undefined, branchId: undefined })}
              options={[{ value: '', label: 'Every brand' }, ...places.brands.map((b) => ({ value: b.id, label: b.name }))]} />
          </FormGroup>
        )}
        <FormGroup label="Branch" labelFor="dashboard-branch" inline>
          <HTMLSelect id="dashboard-branch" value={filter.branchId ?? ''}
            onChange={(e) => onChange({ ...filter, branchId: Number(e.target.value) || undefined })}
            options={[{ value: '', label: 'Every branch' }, ...branches.map((b) => ({ value: b.id, label: filter.brandId || !chooseBrand ? b.name : `${b.name} (${b.brandName})` }))]} />
        </FormGroup>
      </form>
      {problem && <p className="dashboard-filter__problem" role="alert">{problem}</p>}
    </Card>
  );
}
