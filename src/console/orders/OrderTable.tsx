import '@blueprintjs/table/lib/css/table.css';
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Classes, Tag } from '@blueprintjs/core';
import { Cell, Column, ColumnHeaderCell, Table2, TableLoadingOption, type CellRenderer, type ColumnHeaderRenderer } from '@blueprintjs/table';
import { sortHeader } from '../table/SortHeader';
import { orderTimer, type BoardSorting, type OrderActionDetails, type OrderActorRef, type SortColumn } from '../../../machines/orderBoard';
import type { OrderEventType, OrderLifecycleEvent } from '../../../machines/orderLifecycle';
import type { StaffOrderRow } from './provideBoard';
import type { OrderColumnKey } from './screens';
import { ARRIVAL_LABEL, MODE_LABEL, REFUND_LABEL, STATUS_INTENT, STATUS_LABEL, paymentLabel, placedAt, scheduledText, waited } from './format';
import { formatMoney } from '../../../domain/money';
import { OrderActions } from './OrderActions';

export interface OrderTableProps {
  columns: OrderColumnKey[];
  /** The page in the server's order: the index map from table row to order. */
  rowIds: number[];
  rows: Record<number, StaffOrderRow>;
  orders: Record<number, OrderActorRef>;
  acting: Record<number, OrderEventType>;
  role: string | null;
  sorting: BoardSorting | null;
  loading: boolean;
  /** The clock the row timers read (the screen ticks it). */
  now: number;
  /** The row the keyboard acts on. */
  selectedId: number | null;
  onSort: (sorting: BoardSorting | null) => void;
  onOpen: (orderId: number) => void;
  onAct: (orderId: number, event: OrderLifecycleEvent, details?: OrderActionDetails) => void;
}

/** Two lines of text, or a tag over a small button. */
const ROW_HEIGHT = 48;
/** The Items column's least width; a line of it is 17 px high (orders.css .order-items-text), the cell's padding 10 px a side. */
const ITEMS_MIN_WIDTH = 150;
const ITEM_LINE_PX = 17;
const CELL_PADDING_PX = 20;

/** An order's items, one per line with its options ('2× Latte (Large, Oat milk)'). */
const itemLines = (r: StaffOrderRow) => (r.itemsText ? r.itemsText.split(' · ') : [`${r.itemsCount} items`]);

let measureContext: CanvasRenderingContext2D | null = null;
/** How many lines the items take at `width` px, words wrapped as the browser does, measured in the table's small font. */
function itemsLineCount(r: StaffOrderRow, width: number): number {
  measureContext ??= document.createElement('canvas').getContext('2d');
  const ctx = measureContext;
  if (!ctx) return itemLines(r).length;
  ctx.font = `12px ${getComputedStyle(document.body).fontFamily}`;
  const room = width - CELL_PADDING_PX;
  let lines = 0;
  for (const item of itemLines(r)) {
    let line = '';
    lines += 1;
    for (const word of item.split(' ')) {
      const next = line ? `${line} ${word}` : word;
      if (line && ctx.measureText(next).width > room) { lines += 1; line = word; } else line = next;
    }
  }
  return lines;
}

/**
 * Issue 23: the Items column cut option text off. It takes the width the other columns leave in
 * the table (at least ITEMS_MIN_WIDTH), and each row is as high as its items need (two lines at least).
 */
function useItemsLayout(columns: OrderColumnKey[], widths: Record<string, number>, rowIds: number[], rows: Record<number, StaffOrderRow>) {
  const box = useRef<HTMLDivElement>(null);
  const [tableWidth, setTableWidth] = useState(0);
  useEffect(() => {
    const el = box.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setTableWidth(el.clientWidth));
    observer.observe(el);
    setTableWidth(el.clientWidth);
    return () => observer.disconnect();
  }, []);
  const others = columns.reduce((sum, c) => (c === 'items' ? sum : sum + (widths[c] ?? COLUMN_DEFS[c].width)), 0);
  const itemsWidth = widths.items ?? Math.max(ITEMS_MIN_WIDTH, Math.floor(tableWidth - others - 2));
  const rowHeights = useMemo(() => (columns.includes('items')
    ? rowIds.map((id) => (rows[id] ? Math.max(ROW_HEIGHT, itemsLineCount(rows[id], itemsWidth) * ITEM_LINE_PX + 12) : ROW_HEIGHT))
    : undefined), [columns, rowIds, rows, itemsWidth]);
  return { box, itemsWidth, rowHeights };
}

interface ColumnDef {
  name: string;
  width: number;
  sort?: SortColumn;
  render: (row: StaffOrderRow, ctx: CellContext) => ReactNode;
}
interface CellContext {
  now: number;
  selectedId: number | null;
  orders: Record<number, OrderActorRef>;
  acting: Record<number, OrderEventType>;
  role: string | null;
  onAct: OrderTableProps['onAct'];
}

/** Two lines in one cell: what matters on top, its detail below (muted). */
const twoLines = (top: ReactNode, bottom?: ReactNode) => (
  <><span className="order-line">{top}</span>{bottom != null && bottom !== false && <span className="order-line order-muted">{bottom}</span>}</>
);

/**
 * The columns. Rows are two lines high, as on a kitchen display, so each column is as narrow as
 * its longest line: at 1440 px every column of a branch user's screen fits without scrolling, and
 * at 1024 px the order, its status, the actions, payment, total and items do (issue 11).
 */
const COLUMN_DEFS: Record<OrderColumnKey, ColumnDef> = {
  id: {
    name: 'Order', width: 112, sort: 'id',
    render: (r) => twoLines(<>{!r.isViewed && <span className="order-new-dot" aria-label="Unread" />}<strong className="order-number">{r.orderNumber}</strong></>, `#${r.id}`),
  },
  placed: {
    // Wide enough for the longest timer, late and bold: 'making 1 h 05 min' (issue 11: 'waiting 4 …').
    name: 'Placed', width: 144, sort: 'createdAt',
    render: (r, c) => {
      const timer = orderTimer(r, c.now);
      // An order for later shows the time it is for, not when it was placed (the drawer has both).
      const top = r.scheduledFor ? <strong data-testid="order-scheduled-for">{scheduledText(String(r.scheduledFor))}</strong> : placedAt(r.createdAt);
      return twoLines(top, timer && (
        <span className={`order-timer order-timer-${timer.lateness}`} data-testid="order-timer" data-lateness={timer.lateness}>
          {timer.phase === 'accept' ? 'waiting' : 'making'} {waited(timer.elapsedMs)}
        </span>
      ));
    },
  },
  customer: { name: 'Customer', width: 128, render: (r) => twoLines(r.customerName || '—', r.customerPhone) },
  mode: { name: 'Mode', width: 88, render: (r) => twoLines(MODE_LABEL[r.deliverySystem] ?? r.deliverySystem, ARRIVAL_LABEL[r.arrival]) },
  car: { name: 'Car', width: 156, render: (r) => twoLines(<span title={r.carDetails ?? undefined}>{r.carDetails ?? '—'}</span>, ARRIVAL_LABEL[r.arrival]) },
  items: {
    // The minimum: the column takes the table's spare width, and the row grows to show every item and option (itemsLayout).
    name: 'Items', width: ITEMS_MIN_WIDTH,
    render: (r) => <span className="order-items-text" title={r.itemsText}>{itemLines(r).map((l, i) => <span key={i} className="order-item-line">{l}</span>)}</span>,
  },
  total: { name: 'Total', width: 88, sort: 'total', render: (r) => <span className="order-money">{formatMoney(r.total)}</span> },
  payment: {
    name: 'Payment', width: 140,
    render: (r, c) => twoLines(
      <Tag minimal intent={r.payment === 'paid' ? 'success' : 'none'} data-testid="order-payment">{paymentLabel(r)}</Tag>,
      REFUND_LABEL[r.refund]
        ? <Tag minimal intent="warning" data-testid="order-refund">{REFUND_LABEL[r.refund]}</Tag>
        : c.orders[r.id] && <OrderActions orderId={r.id} order={c.orders[r.id]} role={c.role} acting={c.acting[r.id]} onAct={c.onAct} place="payment" isCash={r.isCash} />,
    ),
  },
  status: {
    name: 'Status', width: 96, sort: 'status',
    render: (r) => <Tag intent={STATUS_INTENT[r.status]} data-testid="order-status">{STATUS_LABEL[r.status] ?? r.status}</Tag>,
  },
  actions: {
    // Three buttons side by side; four stand two by two (OrderActions).
    name: 'Actions', width: 224,
    render: (r, c) => c.orders[r.id]
      ? <OrderActions orderId={r.id} order={c.orders[r.id]} role={c.role} acting={c.acting[r.id]} onAct={c.onAct} place="steps" isCash={r.isCash} />
      : null,
  },
  branch: { name: 'Branch', width: 140, render: (r) => r.branchName },
  brand: { name: 'Brand', width: 120, render: (r) => r.brandName },
};

/** Unread orders are bold; a late or nearly late order's whole row is tinted (its timer says how late). */
function rowClass(row: StaffOrderRow, now: number, selectedId: number | null) {
  const lateness = orderTimer(row, now)?.lateness;
  return [
    row.isViewed ? '' : 'order-unread',
    lateness && lateness !== 'onTime' ? `order-row-${lateness}` : '',
    row.id === selectedId ? 'order-row-selected' : '',
  ].filter(Boolean).join(' ') || undefined;
}

/**
 * The staff order table (Blueprint Table2): one page from the server, so it stays the same size
 * at 100,000 orders. Rows are looked up through `rowIds` (the server's order); cell renderers are
 * memoised and re-run only when their data changes (`cellRendererDependencies`). Unread orders are
 * bold with a dot. Keyboard: arrows move the focused cell, Enter opens the order.
 */
export function OrderTable(props: OrderTableProps) {
  const { columns, rowIds, rows, orders, acting, role, sorting, loading, now, selectedId, onSort, onOpen, onAct } = props;
  const focusedRow = useRef<number | null>(null);
  const cellContext = useMemo<CellContext>(() => ({ now, selectedId, orders, acting, role, onAct }), [now, selectedId, orders, acting, role, onAct]);

  const cellRenderers = useMemo(() => Object.fromEntries(columns.map((key) => [key, (rowIndex: number) => {
    const row = rows[rowIds[rowIndex]];
    if (!row) return <Cell />;
    return (
      <Cell className={rowClass(row, cellContext.now, cellContext.selectedId)} interactive={key === 'actions' || key === 'payment'}>
        <span className="order-cell" data-order-id={row.id} data-column={key}>{COLUMN_DEFS[key].render(row, cellContext)}</span>
      </Cell>
    );
  }])) as unknown as Record<OrderColumnKey, CellRenderer>, [columns, rows, rowIds, cellContext]);

  const headerRenderers = useMemo(() => Object.fromEntries(columns.map((key) => [key, () => {
    const def = COLUMN_DEFS[key];
    if (!def.sort) return <ColumnHeaderCell name={def.name} />;
    return sortHeader({
      name: def.name,
      first: 'desc',
      direction: sorting?.column === def.sort ? sorting.direction : null,
      onSort: (direction) => onSort(direction ? { column: def.sort!, direction } : null),
    });
  }])) as unknown as Record<OrderColumnKey, ColumnHeaderRenderer>, [columns, sorting, onSort]);

  const [widths, setWidths] = useState<Record<string, number>>({});
  const { box, itemsWidth, rowHeights } = useItemsLayout(columns, widths, rowIds, rows);
  const columnWidths = useMemo(() => columns.map((c) => (c === 'items' ? itemsWidth : widths[c] ?? COLUMN_DEFS[c].width)), [columns, widths, itemsWidth]);
  const onColumnWidthChanged = useCallback((index: number, size: number) => {
    setWidths((w) => ({ ...w, [columns[index]]: size }));
  }, [columns]);

  const onFocusedRegion = useCallback((region: { row: number }) => { focusedRow.current = region.row; }, []);
  const onKeyDown = useCallback((e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'Enter' || focusedRow.current == null) return;
    if ((e.target as HTMLElement).closest('button, input, textarea, select')) return;
    const id = rowIds[focusedRow.current];
    if (id != null) onOpen(id);
  }, [rowIds, onOpen]);

  // A click anywhere on a row but its buttons opens the order.
  const onClick = useCallback((e: React.MouseEvent<HTMLDivElement>) => {
    const target = e.target as HTMLElement;
    if (target.closest('button, a, input')) return;
    // Blueprint's cells carry their row index in a class name ("…-cell-row-3").
    const cell = target.closest<HTMLElement>(`.${Classes.getClassNamespace()}-table-cell`);
    const rowIndex = cell && /-table-cell-row-(\d+)/.exec(cell.className)?.[1];
    const id = rowIndex != null ? rowIds[Number(rowIndex)] : undefined;
    if (id != null) onOpen(id);
  }, [rowIds, onOpen]);

  return (
    <div className="order-table" ref={box} onKeyDown={onKeyDown} onClick={onClick} role="region" aria-label="Orders" aria-busy={loading}>
      <Table2
        numRows={rowIds.length}
        defaultRowHeight={ROW_HEIGHT}
        rowHeights={rowHeights}
        enableRowHeader={false}
        enableFocusedCell
        enableMultipleSelection={false}
        enableColumnResizing
        enableRowResizing={false}
        selectionModes={[]}
        onFocusedRegion={onFocusedRegion}
        columnWidths={columnWidths}
        onColumnWidthChanged={onColumnWidthChanged}
        cellRendererDependencies={[rows, rowIds, cellContext]}
        loadingOptions={loading && rowIds.length === 0 ? [TableLoadingOption.CELLS] : []}
        className={Classes.TEXT_SMALL}
      >
        {columns.map((key) => (
          <Column key={key} id={key} name={COLUMN_DEFS[key].name} cellRenderer={cellRenderers[key]} columnHeaderCellRenderer={headerRenderers[key]} />
        ))}
      </Table2>
    </div>
  );
}
