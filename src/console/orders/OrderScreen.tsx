import './orders.css';
import { useCallback, useEffect, useMemo, useState, type ComponentType } from 'react';
import { useApolloClient, useQuery } from '@apollo/client/react';
import { useActorRef, useSelector } from '@xstate/react';
import { useManagerBrand } from '../shell/managerBrand';
import { Callout, H2, HotkeysProvider, NonIdealState, Spinner, useHotkeys, type HotkeyConfig } from '@blueprintjs/core';
import { InboxIcon } from '@blueprintjs/icons';
import {
  selectActing, selectCounts, selectError, selectFilter, selectIsLoading, selectIsRefreshing, selectOpenOrder, selectOrders,
  selectPaging, selectRowIds, selectRows, selectSelectedId, selectSorting, type BoardFilter, type BoardSorting, type OrderActionDetails,
} from '../../../machines/orderBoard';
import type { OrderLifecycleEvent, OrderStatus } from '../../../machines/orderLifecycle';
import { can } from '../../../domain/permissions';
import { useCurrentRoute } from '../shell/currentRoute';
import { useSession } from '../../lib/session';
import { provideOrderBoard, type StaffOrderRow } from './provideBoard';
import { MULTI_BRANCH_COLUMNS, ORDER_SCREENS, type OrderScreenConfig } from './screens';
import { BoardBranches } from './operations';
import { OrderTable } from './OrderTable';
import { OrderCounts, OrderFilters, OrderPager, type BranchOption } from './OrderToolbar';
import { OrderDrawer } from './OrderDrawer';
import { useLiveOrderFeedRef } from './feed/LiveOrderFeed';
import { PrinterStatus } from '../printers/PrinterStatus';
import { SlotLoads } from '../slots/SlotLoads';
import { searchFromView, viewFromSearch } from './boardUrl';
import { BusyControl } from './BusyControl';

/** How often the row timers move: their text is in whole minutes, so a few seconds late is fine. */
const TIMER_TICK_MS = 10_000;

/** The time now, renewed every `everyMs`. */
function useClock(everyMs: number) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return now;
}

const samePaging = (a: { skip: number; take: number; totalCount: number }, b: typeof a) => a.skip === b.skip && a.take === b.take && a.totalCount === b.totalCount;

/**
 * The one order screen (/order, /Currentorder, /unpaidorders, /pickup, /CurrentDriveThruOrderPage):
 * an order board machine for the page, the counts, filters, table, pager and the order drawer.
 * The screens differ only by their OrderScreenConfig.
 */
export function OrderScreen({ screen }: { screen: OrderScreenConfig }) {
  const client = useApolloClient();
  const { role, profile } = useSession();
  const machine = useMemo(() => provideOrderBoard(client), [client]);
  // The view starts from the address and is written back to it (replaceState: no history entry per click).
  const [initialView] = useState(() => viewFromSearch(window.location.search));
  // The board watches the live feed (machines/orderBoard.ts); a root actor, so it stops with the page.
  const feed = useLiveOrderFeedRef();
  const board = useActorRef(machine, { input: { list: screen.list, ...initialView, feed } });

  const rowIds = useSelector(board, selectRowIds);
  const rows = useSelector(board, selectRows) as Record<number, StaffOrderRow>;
  const orders = useSelector(board, selectOrders);
  const acting = useSelector(board, selectActing);
  const counts = useSelector(board, selectCounts);
  const paging = useSelector(board, selectPaging, samePaging);
  const sorting = useSelector(board, selectSorting);
  const filter = useSelector(board, selectFilter);
  const loading = useSelector(board, selectIsLoading);
  const refreshing = useSelector(board, selectIsRefreshing);
  const error = useSelector(board, selectError);
  const openRow = useSelector(board, selectOpenOrder) as StaffOrderRow | null;
  const selectedId = useSelector(board, selectSelectedId);

  const now = useClock(TIMER_TICK_MS);

  useEffect(() => {
    const search = searchFromView({ filter, sorting, skip: paging.skip, take: paging.take });
    if (search !== window.location.search) window.history.replaceState(window.history.state, '', `${window.location.pathname}${search}`);
  }, [filter, sorting, paging.skip, paging.take]);

  const onAct = useCallback((orderId: number, event: OrderLifecycleEvent, details?: OrderActionDetails) =>
    board.send({ type: 'order.act', orderId, event, details }), [board]);
  const onOpen = useCallback((orderId: number) => board.send({ type: 'order.open', orderId }), [board]);
  const onSort = useCallback((s: BoardSorting | null) => board.send({ type: 'board.sort', sorting: s }), [board]);
  const onFilter = useCallback((f: BoardFilter) => board.send({ type: 'board.filter', filter: f }), [board]);
  const onPickStatus = useCallback((status: OrderStatus | undefined) => board.send({ type: 'board.filter', filter: { ...filter, status } }), [board, filter]);
  const onPage = useCallback((skip: number) => board.send({ type: 'board.page', skip }), [board]);
  const onPageSize = useCallback((take: number) => board.send({ type: 'board.pageSize', take }), [board]);
  const title = useCurrentRoute()?.title ?? 'Orders';
  const branches = useBoardBranches(role);
  // The slots' load of the branch the board shows: the one filtered on, else the caller's own (a branch user).
  const slotBranch = filter.branchId ?? profile?.branchId ?? null;
  const columns = useMemo(() => (branches ? [...screen.columns, ...MULTI_BRANCH_COLUMNS] : screen.columns), [branches, screen.columns]);

  return (
    <HotkeysProvider>
      <BoardKeys board={board} role={role} />
      <div className="console-page order-screen" data-screen={screen.list}>
        {can(role, 'branch.busy') && <BusyControl />}
        <PrinterStatus />
        {slotBranch && <SlotLoads branchId={slotBranch} canClose={can(role, 'orders.operate')} />}
        <div className="order-screen-head">
          <H2>{title}</H2>
          {(loading || refreshing) && <Spinner size={16} aria-label="Loading orders" />}
          <OrderCounts keys={screen.counts} counts={counts} statuses={screen.statuses} active={filter.status} onPick={onPickStatus} />
        </div>
        <div className="order-toolbar">
          <OrderFilters filter={filter} statuses={screen.statuses} payment={screen.filters.payment} deliverySystem={screen.filters.deliverySystem} branches={branches} onChange={onFilter} />
          <OrderPager {...paging} onPage={onPage} onPageSize={onPageSize} />
        </div>
        {error && <Callout intent="danger" title="The orders did not load.">{error}</Callout>}
        {!loading && !error && rowIds.length === 0
          ? <NonIdealState className="order-empty" icon={<InboxIcon size={40} />} title={screen.empty} />
          : (
            <OrderTable
              columns={columns}
              rowIds={rowIds}
              rows={rows}
              orders={orders}
              acting={acting}
              role={role}
              sorting={sorting}
              loading={loading}
              now={now}
              selectedId={selectedId}
              onSort={onSort}
              onOpen={onOpen}
              onAct={onAct}
            />
          )}
        <OrderDrawer
          row={openRow}
          order={openRow ? orders[openRow.id] : undefined}
          role={role}
          acting={openRow ? acting[openRow.id] : undefined}
          onClose={() => board.send({ type: 'order.closeDetails' })}
          onAct={onAct}
        />
      </div>
    </HotkeysProvider>
  );
}

/**
 * The branches of the user's scope (a brand manager's chosen brand's) when it holds several, or
 * undefined for a branch user. The roles that list branches (`branches.manage`: admin, company
 * admin, brand manager) are the ones that see several; they get the Branch and Brand columns and a branch filter.
 */
function useBoardBranches(role: string | null): BranchOption[] | undefined {
  const brand = useManagerBrand();
  const multi = can(role, 'branches.manage');
  const { data } = useQuery(BoardBranches, { variables: { brandId: brand ?? undefined }, skip: !multi, fetchPolicy: 'cache-first', context: { silent: true } });
  return useMemo(() => {
    if (!multi) return undefined;
    return (data?.list?.data ?? []).filter((b): b is NonNullable<typeof b> => !!b).map((b) => ({ id: b.id, name: b.name }));
  }, [multi, data]);
}

type BoardRef = ReturnType<typeof useActorRef<ReturnType<typeof provideOrderBoard>>>;

/**
 * The board's keys (issue 11), global while the screen is open and never while a text field has
 * focus (Blueprint's hotkeys skip inputs): J/K move between orders, A accepts, R readies, C closes,
 * Enter opens, ? lists them (Blueprint's hotkeys dialog). A, R and C go through the same
 * `order.act` as the buttons, so the order's machine and the role decide as they do for a click;
 * C on an unpaid cash order opens it instead, so its Close asks whether the cash was collected.
 */
function BoardKeys({ board, role }: { board: BoardRef; role: string | null }) {
  const hotkeys = useMemo<HotkeyConfig[]>(() => {
    const selected = () => selectSelectedId(board.getSnapshot());
    const act = (type: 'order.accept' | 'order.ready' | 'order.close') => () => {
      const orderId = selected();
      if (orderId == null || !can(role, 'orders.operate')) return;
      const row = board.getSnapshot().context.rows[orderId];
      // An unpaid cash order is not closed by a key: its drawer opens, where Close asks "Cash collected?".
      if (type === 'order.close' && row?.isCash && row.payment === 'unpaid') board.send({ type: 'order.open', orderId });
      else board.send({ type: 'order.act', orderId, event: { type } });
    };
    return [
      { combo: 'j', global: true, group: 'Orders', label: 'Next order', onKeyDown: () => board.send({ type: 'board.move', by: 1 }) },
      { combo: 'k', global: true, group: 'Orders', label: 'Previous order', onKeyDown: () => board.send({ type: 'board.move', by: -1 }) },
      { combo: 'a', global: true, group: 'Orders', label: 'Accept the order', onKeyDown: act('order.accept') },
      { combo: 'r', global: true, group: 'Orders', label: 'Mark the order ready', onKeyDown: act('order.ready') },
      { combo: 'c', global: true, group: 'Orders', label: 'Close the order', onKeyDown: act('order.close') },
      {
        combo: 'enter', global: true, group: 'Orders', label: 'Open the order',
        onKeyDown: (e) => {
          // Inside the table, its own Enter opens the focused row.
          if ((e.target as HTMLElement | null)?.closest?.('.order-table, button, a')) return;
          const orderId = selected();
          if (orderId != null) board.send({ type: 'order.open', orderId });
        },
      },
    ];
  }, [board, role]);
  const { handleKeyDown, handleKeyUp } = useHotkeys(hotkeys);
  // Global hotkeys bind to the document themselves; the handlers are for local ones (none here).
  void handleKeyDown; void handleKeyUp;
  return null;
}

/** A page component per order route, for the console's page registry. */
export const ORDER_SCREEN_PAGES: Record<string, ComponentType> = Object.fromEntries(
  Object.values(ORDER_SCREENS).map((screen) => [screen.path, () => <OrderScreenPage screen={screen} />]),
);

/** A brand manager's brand switch starts the board afresh on the new brand's orders. */
function OrderScreenPage({ screen }: { screen: OrderScreenConfig }) {
  const brand = useManagerBrand();
  return <OrderScreen key={`${screen.path}:${brand ?? ''}`} screen={screen} />;
}
