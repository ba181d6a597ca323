import '@blueprintjs/table/lib/css/table.css';
import { Fragment, useMemo, useState, type ReactNode } from 'react';
import { Button, Classes, NonIdealState } from '@blueprintjs/core';
import { Cell, Column, ColumnHeaderCell, Table2, TableLoadingOption } from '@blueprintjs/table';
import { EditIcon, InboxIcon, TrashIcon } from '@blueprintjs/icons';
import { sortHeader } from '../table/SortHeader';
import type { Row, Sorting } from '../../../machines/resourceMachine';
import type { AnyResourceConfig, ColumnConfig, ListHandle } from './types';
import { pluralOf } from './plural';

export interface ResourceListProps {
  config: AnyResourceConfig;
  rows: Row[];
  sorting: Sorting | null;
  loading: boolean;
  onSort: (sorting: Sorting | null) => void;
  onEdit?: (id: number) => void;
  onDelete?: (id: number) => void;
  /** Reads the page again (a cell's own call changed its row). */
  onRefresh?: () => void;
}

const show = (value: unknown): ReactNode => (value === null || value === undefined || value === '' ? '—' : typeof value === 'boolean' ? (value ? 'Yes' : 'No') : String(value));

/**
 * A resource's page of rows on Blueprint's Table2, in the server's order (paging and sorting are
 * the server's). A sortable column's whole header name is its sort control: Blueprint makes the
 * name text ignore the pointer, so the shared control takes it back (console/table/SortHeader),
 * and a click cycles ascending → descending → the screen's default.
 */
export function ResourceList({ config, rows, sorting, loading, onSort, onEdit, onDelete, onRefresh }: ResourceListProps) {
  // A cell's dialog lives here, beside the table, so a redrawn cell cannot close it (ListHandle.open).
  const [dialog, setDialog] = useState<{ key: number; node: ReactNode } | null>(null);
  const list = useMemo<ListHandle>(() => ({
    refresh: () => onRefresh?.(),
    open: (make) => setDialog((d) => {
      const key = (d?.key ?? 0) + 1;
      return { key, node: make(() => setDialog((now) => (now?.key === key ? null : now))) };
    }),
  }), [onRefresh]);
  const dialogs = dialog && <Fragment key={dialog.key}>{dialog.node}</Fragment>;
  const columns = useMemo<ColumnConfig[]>(() => [
    ...config.columns,
    ...(onEdit || onDelete ? [{
      key: '__actions', name: 'Actions', width: 150,
      render: (r: Row) => (
        <span className="resource-actions">
          {onEdit && <Button size="small" variant="minimal" icon={<EditIcon />} text="Edit" aria-label={`Edit ${config.noun} ${r.id}`} onClick={() => onEdit(r.id)} />}
          {onDelete && <Button size="small" variant="minimal" intent="danger" icon={<TrashIcon />} aria-label={`Delete ${config.noun} ${r.id}`} onClick={() => onDelete(r.id)} />}
        </span>
      ),
    }] : []),
  ], [config, onEdit, onDelete]);

  const cellRenderers = useMemo(() => columns.map((col) => (rowIndex: number) => {
    const row = rows[rowIndex];
    if (!row) return <Cell />;
    return (
      <Cell className={config.rowClassName?.(row)} interactive={col.key === '__actions'}>
        <span data-row-id={row.id} data-column={col.field ?? col.key}>{col.render ? col.render(row, list) : show(col.field && row[col.field])}</span>
      </Cell>
    );
  }), [columns, rows, config, list]);

  const headerRenderers = useMemo(() => columns.map((col) => () => {
    const field = col.field;
    if (!col.sortable || !field) return <ColumnHeaderCell name={col.name} />;
    return sortHeader({
      name: col.name,
      direction: sorting?.field === field ? sorting.direction : null,
      onSort: (direction) => onSort(direction ? { field, direction } : null),
    });
  }), [columns, sorting, onSort]);

  if (!loading && rows.length === 0) {
    return <><NonIdealState className="resource-empty" icon={<InboxIcon size={40} />} title={`No ${config.plural ?? pluralOf(config.noun)}`} />{dialogs}</>;
  }
  return (<>
    <div className="resource-table" role="region" aria-label={config.title} aria-busy={loading}
      onDoubleClick={(e) => {
        // A double click on a row opens it, like its Edit button.
        const id = (e.target as HTMLElement).closest('[data-row-id]')?.getAttribute('data-row-id');
        if (id && onEdit) onEdit(Number(id));
      }}>
      <Table2
        numRows={rows.length}
        defaultRowHeight={34}
        enableRowHeader={false}
        enableColumnResizing
        enableRowResizing={false}
        selectionModes={[]}
        columnWidths={columns.map((c) => c.width ?? 150)}
        cellRendererDependencies={[rows, columns, config, list]}
        loadingOptions={loading && rows.length === 0 ? [TableLoadingOption.CELLS] : []}
        className={Classes.TEXT_SMALL}
      >
        {columns.map((col, i) => (
          <Column key={col.field ?? col.key} id={col.field ?? col.key} name={col.name} cellRenderer={cellRenderers[i]} columnHeaderCellRenderer={headerRenderers[i]} />
        ))}
      </Table2>
    </div>
    {dialogs}
  </>);
}
