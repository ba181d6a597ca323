import { memo, useEffect, useState } from 'react';
import { PAGE_SIZES } from './boardUrl';
import { Button, ButtonGroup, HTMLSelect, InputGroup, Tag } from '@blueprintjs/core';
import { ChevronLeftIcon, ChevronRightIcon, DoubleChevronLeftIcon, DoubleChevronRightIcon, SearchIcon } from '@blueprintjs/icons';
import type { BoardCounts, BoardFilter } from '../../../machines/orderBoard';
import type { OrderStatus } from '../../../machines/orderLifecycle';
import type { CountKey } from './screens';
import { COUNT_LABEL, MODE_LABEL, STATUS_INTENT, STATUS_LABEL } from './format';

/** Counts of the screen (SPEC.md 4): a status count narrows the list to that status where it can hold it. */
export const OrderCounts = memo(function OrderCounts({ keys, counts, statuses, active, onPick }: {
  keys: readonly CountKey[];
  counts: BoardCounts;
  statuses: readonly OrderStatus[];
  active?: OrderStatus;
  onPick: (status: OrderStatus | undefined) => void;
}) {
  return (
    <div className="order-counts" aria-label="Order counts">
      {keys.map((key) => {
        const status = statuses.includes(key as OrderStatus) ? (key as OrderStatus) : null;
        const value = counts[key];
        return (
          <Tag
            key={key}
            large
            minimal={active !== key}
            intent={STATUS_INTENT[key] ?? 'none'}
            interactive={!!status}
            onClick={status ? () => onPick(active === status ? undefined : status) : undefined}
            data-testid={`count-${key}`}
            data-count={value ?? ''}
          >
            {COUNT_LABEL[key]} <strong>{value ?? '–'}</strong>
          </Tag>
        );
      })}
    </div>
  );
});

/** A branch the board can be narrowed to. */
export interface BranchOption { id: number; name: string }

/**
 * Status, payment and delivery mode filters, a search (typed search waits 300 ms), and the branch
 * for the roles that see several (`branches` given).
 */
export const OrderFilters = memo(function OrderFilters({ filter, statuses, payment, deliverySystem, branches, onChange }: {
  filter: BoardFilter;
  statuses: readonly OrderStatus[];
  payment: boolean;
  deliverySystem: boolean;
  branches?: BranchOption[];
  onChange: (filter: BoardFilter) => void;
}) {
  const [search, setSearch] = useState(filter.search ?? '');
  useEffect(() => {
    if ((filter.search ?? '') === search.trim()) return;
    const t = setTimeout(() => onChange({ ...filter, search }), 300);
    return () => clearTimeout(t);
  }, [search, filter, onChange]);
  return (
    <div className="order-filters" role="search">
      <InputGroup
        type="search"
        leftIcon={<SearchIcon />}
        placeholder="Order no., #id, customer or phone"
        aria-label="Search orders"
        value={search}
        onValueChange={setSearch}
        className="order-search"
      />
      <HTMLSelect aria-label="Status" value={filter.status ?? ''} onChange={(e) => onChange({ ...filter, status: (e.target.value || undefined) as OrderStatus | undefined })}>
        <option value="">All statuses</option>
        {statuses.map((s) => <option key={s} value={s}>{STATUS_LABEL[s]}</option>)}
      </HTMLSelect>
      {payment && (
        <HTMLSelect aria-label="Payment" value={filter.payment ?? ''} onChange={(e) => onChange({ ...filter, payment: (e.target.value || undefined) as BoardFilter['payment'] })}>
          <option value="">Paid and unpaid</option>
          <option value="paid">Paid</option>
          <option value="unpaid">Unpaid</option>
        </HTMLSelect>
      )}
      {branches && (
        <HTMLSelect aria-label="Branch" value={filter.branchId ?? ''} onChange={(e) => onChange({ ...filter, branchId: Number(e.target.value) || undefined })}>
          <option value="">All branches</option>
          {/* A branch from the address that is not among the first 100 still shows as chosen. */}
          {filter.branchId != null && !branches.some((b) => b.id === filter.branchId) && <option value={filter.branchId}>Branch #{filter.branchId}</option>}
          {branches.map((b) => <option key={b.id} value={b.id}>{b.name}</option>)}
        </HTMLSelect>
      )}
      {deliverySystem && (
        <HTMLSelect aria-label="Delivery mode" value={filter.deliverySystem ?? ''} onChange={(e) => onChange({ ...filter, deliverySystem: (e.target.value || undefined) as BoardFilter['deliverySystem'] })}>
          <option value="">All modes</option>
          {Object.entries(MODE_LABEL).map(([value, label]) => <option key={value} value={value}>{label}</option>)}
        </HTMLSelect>
      )}
    </div>
  );
});

/** "51–100 of 100,000" with first/previous/next/last and the page size. */
export const OrderPager = memo(function OrderPager({ skip, take, totalCount, onPage, onPageSize }: {
  skip: number;
  take: number;
  totalCount: number;
  onPage: (skip: number) => void;
  onPageSize: (take: number) => void;
}) {
  const last = Math.max(0, Math.floor((totalCount - 1) / take) * take);
  const from = totalCount ? skip + 1 : 0;
  const to = Math.min(skip + take, totalCount);
  return (
    <div className="order-pager">
      <span className="order-muted" data-testid="order-range">{from.toLocaleString('en')}–{to.toLocaleString('en')} of {totalCount.toLocaleString('en')}</span>
      <ButtonGroup>
        <Button size="small" icon={<DoubleChevronLeftIcon />} aria-label="First page" disabled={skip === 0} onClick={() => onPage(0)} />
        <Button size="small" icon={<ChevronLeftIcon />} aria-label="Previous page" disabled={skip === 0} onClick={() => onPage(Math.max(0, skip - take))} />
        <Button size="small" icon={<ChevronRightIcon />} aria-label="Next page" disabled={skip >= last} onClick={() => onPage(skip + take)} />
        <Button size="small" icon={<DoubleChevronRightIcon />} aria-label="Last page" disabled={skip >= last} onClick={() => onPage(last)} />
      </ButtonGroup>
      <HTMLSelect aria-label="Rows per page" value={take} onChange={(e) => onPageSize(Number(e.target.value))}>
        {PAGE_SIZES.map((n) => <option key={n} value={n}>{n} rows</option>)}
      </HTMLSelect>
    </div>
  );
});
