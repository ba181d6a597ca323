import { Button, ButtonGroup, Classes, HTMLSelect, InputGroup } from '@blueprintjs/core';
import { ChevronLeftIcon, ChevronRightIcon, RefreshIcon, SearchIcon } from '@blueprintjs/icons';
import type { Values } from '../../../machines/resourceMachine';
import type { AnyResourceConfig, FilterConfig, FilterOption } from './types';
import { pluralOf } from './plural';
import { dayOf, momentOf, PAGE_SIZES } from './resourceUrl';

export interface ResourceToolbarProps {
  config: AnyResourceConfig;
  search: string;
  filter: Values;
  paging: { skip: number; take: number; totalCount: number };
  onSearch: (text: string) => void;
  onFilter: (filter: Values) => void;
  onPage: (skip: number) => void;
  onPageSize: (take: number) => void;
  onRefresh: () => void;
}

/** Search, select filters, page size and pager of a resource list. Plain props, no machine. */
export function ResourceToolbar({ config, search, filter, paging, onSearch, onFilter, onPage, onPageSize, onRefresh }: ResourceToolbarProps) {
  const { skip, take, totalCount } = paging;
  return (
    <div className="resource-toolbar">
      <div className="resource-filters">
        {config.searchPlaceholder && (
          <InputGroup className="resource-search" type="search" leftIcon={<SearchIcon />} placeholder={config.searchPlaceholder}
            aria-label={config.searchPlaceholder} value={search} onChange={(e) => onSearch(e.target.value)} />
        )}
        {config.filters?.map((f) => (
          <ListFilter key={f.field} config={f} value={filter[f.field]} onChange={(v) => onFilter({ ...filter, [f.field]: v })} />
        ))}
        <Button icon={<RefreshIcon />} aria-label="Refresh" onClick={onRefresh} />
      </div>
      <div className="resource-pager">
        <span aria-live="polite">{totalCount ? `${skip + 1}–${Math.min(skip + take, totalCount)} of ${totalCount}` : `0 ${config.plural ?? pluralOf(config.noun)}`}</span>
        <HTMLSelect aria-label="Rows per page" value={take} onChange={(e) => onPageSize(Number(e.target.value))}>
          {PAGE_SIZES.map((n) => <option key={n} value={n}>{n} / page</option>)}
        </HTMLSelect>
        <ButtonGroup>
          <Button icon={<ChevronLeftIcon />} aria-label="Previous page" disabled={skip === 0} onClick={() => onPage(Math.max(0, skip - take))} />
          <Button icon={<ChevronRightIcon />} aria-label="Next page" disabled={skip + take >= totalCount} onClick={() => onPage(skip + take)} />
        </ButtonGroup>
      </div>
    </div>
  );
}

type FilterProps<F extends FilterConfig = FilterConfig> = { config: F; value: unknown; onChange: (value: unknown) => void };

/** One filter of the list: a select (fixed or server options) or a day. */
function ListFilter({ config, value, onChange }: FilterProps) {
  if (config.kind === 'date') return <DayFilter config={config} value={value} onChange={onChange} />;
  return config.useOptions
    ? <ServerOptionsFilter config={config} useOptions={config.useOptions} value={value} onChange={onChange} />
    : <SelectFilter label={config.label} options={config.options ?? []} value={value} onChange={onChange} />;
}

function ServerOptionsFilter({ config, useOptions, value, onChange }: FilterProps & { useOptions: () => FilterOption[] }) {
  return <SelectFilter label={config.label} options={useOptions()} value={value} onChange={onChange} />;
}

function SelectFilter({ label, options, value, onChange }: { label: string; options: FilterOption[]; value: unknown; onChange: (v: unknown) => void }) {
  const index = options.findIndex((o) => o.value === value);
  return (
    <HTMLSelect aria-label={label} value={index < 0 ? '' : String(index)}
      onChange={(e) => onChange(e.target.value === '' ? undefined : options[Number(e.target.value)].value)}>
      <option value="">{`${label}: all`}</option>
      {options.map((o, i) => <option key={String(o.value)} value={String(i)}>{o.label}</option>)}
    </HTMLSelect>
  );
}

function DayFilter({ config, value, onChange }: FilterProps<Extract<FilterConfig, { kind: 'date' }>>) {
  return (
    <label className="resource-day-filter">
      <span>{config.label}</span>
      <input type="date" className={Classes.INPUT} value={dayOf(value, config.edge)}
        onChange={(e) => onChange(e.target.value ? momentOf(e.target.value, config.edge) : undefined)} />
    </label>
  );
}
