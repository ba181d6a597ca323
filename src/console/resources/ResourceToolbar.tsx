import { Button, ButtonGroup, HTMLSelect, InputGroup } from '@blueprintjs/core';
import { ChevronLeftIcon, ChevronRightIcon, RefreshIcon, SearchIcon } from '@blueprintjs/icons';
import type { Values } from '../../../machines/resourceMachine';
import type { ResourceConfig } from './types';

const PAGE_SIZES = [10, 25, 50, 100];

export interface ResourceToolbarProps {
  config: ResourceConfig;
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
        {config.filters?.map((f) => {
          const index = f.options.findIndex((o) => o.value === filter[f.field]);
          return (
            <HTMLSelect key={f.field} aria-label={f.label} value={index < 0 ? '' : String(index)}
              onChange={(e) => onFilter({ ...filter, [f.field]: e.target.value === '' ? undefined : f.options[Number(e.target.value)].value })}>
              <option value="">{`${f.label}: all`}</option>
              {f.options.map((o, i) => <option key={String(o.value)} value={String(i)}>{o.label}</option>)}
            </HTMLSelect>
          );
        })}
        <Button icon={<RefreshIcon />} aria-label="Refresh" onClick={onRefresh} />
      </div>
      <div className="resource-pager">
        <span aria-live="polite">{totalCount ? `${skip + 1}–${Math.min(skip + take, totalCount)} of ${totalCount}` : 'None'}</span>
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
