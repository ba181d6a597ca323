import './table.css';
import { ColumnHeaderCell } from '@blueprintjs/table';
import { ChevronDownIcon, ChevronUpIcon, DoubleCaretVerticalIcon } from '@blueprintjs/icons';

export type SortDirection = 'asc' | 'desc';

export interface SortHeaderProps {
  name: string;
  /** This column's current direction, or null when the list is not sorted by it. */
  direction: SortDirection | null;
  /** The direction a first click asks for (dates and ids read best newest first). */
  first?: SortDirection;
  /** The next direction, or null for the screen's default order. */
  onSort: (direction: SortDirection | null) => void;
}

/**
 * A sortable Table2 column header, for every server-sorted console table. The whole name is the
 * sort control. Blueprint gives the column name text `pointer-events: none`, which swallowed mouse
 * clicks (only the keyboard sorted, issue 11); the control takes the pointer back (table.css).
 * A click cycles first → the other direction → the default order.
 * A function, not a component: Table2 clones the header cell it is given and passes it its size
 * and position, which a wrapping component would drop (the header then misses its body's widths).
 */
export function sortHeader({ name, direction, first = 'asc', onSort }: SortHeaderProps) {
  const current = direction ?? 'none';
  const second: SortDirection = first === 'asc' ? 'desc' : 'asc';
  const next = current === 'none' ? first : current === first ? second : null;
  const Icon = current === 'asc' ? ChevronUpIcon : current === 'desc' ? ChevronDownIcon : DoubleCaretVerticalIcon;
  return (
    <ColumnHeaderCell
      name={name}
      nameRenderer={(text) => (
        <button
          type="button"
          className="table-sort"
          aria-label={`Sort by ${text}`}
          aria-sort={current === 'none' ? 'none' : current === 'asc' ? 'ascending' : 'descending'}
          onClick={() => onSort(next)}
        >
          <span>{text}</span><Icon />
        </button>
      )}
    />
  );
}
