import './pickers.css';
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Button, InputGroup, Menu, MenuItem, Spinner } from '@blueprintjs/core';
import { CrossIcon, SearchIcon } from '@blueprintjs/icons';

/** One thing a picker offers: its id (what the form keeps), its name, and a line that tells it apart. */
export interface PickOption { id: number; label: string; detail?: string }

/** What a kind's hook answers for the text typed so far (already debounced). */
export interface PickSearch { options: PickOption[]; loading: boolean; error?: string }

/** How long typing must pause before a picker searches (ms). */
export const PICKER_DEBOUNCE_MS = 250;

/** `value`, once it has stood still for `ms`. */
export function useDebounced<T>(value: T, ms = PICKER_DEBOUNCE_MS): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return settled;
}

export interface SearchPickerProps {
  id: string;
  /** The chosen id (null or undefined: none). */
  value: unknown;
  disabled: boolean;
  invalid: boolean;
  onChange: (value: number | null) => void;
  onBlur: () => void;
  placeholder: string;
  /** What the list is called for screen readers ("Customers"). */
  listLabel: string;
  /** The options for the (debounced) text; `open` is false while the list is closed, so nothing is read. */
  useSearch: (text: string, open: boolean) => PickSearch;
  /** The chosen id's option when the picker did not pick it itself (an edited row, a default). */
  useChosen: (id: number | null) => PickOption | undefined;
  /** What an empty result says. */
  nothing: string;
}

const asId = (value: unknown): number | null => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() ? Number(value) : NaN;
  return Number.isInteger(n) && n > 0 ? n : null;
};
export const optionText = (o: PickOption) => (o.detail ? `${o.label} · ${o.detail}` : o.label);

/**
 * A text box that finds one thing by name as the user types (debounced) and keeps its id: the
 * one shape of every picker kind (./CustomerPicker, ./BrandPicker, ./GroupPicker). Shows the chosen
 * thing's name, never its id. Keyboard: ↓/↑ move through the list, Enter picks, Escape closes the
 * list and puts the chosen name back; Tab leaves. (A Blueprint InputGroup + Menu: @blueprintjs/select
 * is not installed.)
 */
export function SearchPicker(p: SearchPickerProps) {
  const chosenId = asId(p.value);
  const [picked, setPicked] = useState<PickOption | null>(null);
  const known = useChosen(p.useChosen, picked, chosenId);
  const chosenText = chosenId == null ? '' : known ? optionText(known) : `#${chosenId}`;
  const [text, setText] = useState<string | null>(null); // null: not typing, the box shows the chosen name
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const query = useDebounced(text ?? '');
  const found = p.useSearch(query.trim(), open);
  const listId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const settling = (text ?? '') !== query;
  const options = found.options;
  useEffect(() => { setActive(0); }, [query]);

  const pick = (o: PickOption) => {
    setPicked(o);
    setText(null);
    setOpen(false);
    p.onChange(o.id);
  };
  const close = () => { setText(null); setOpen(false); };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!open) { setOpen(true); return; }
      const step = e.key === 'ArrowDown' ? 1 : -1;
      if (options.length) setActive((a) => (a + step + options.length) % options.length);
    } else if (e.key === 'Enter') {
      // Enter picks; it never submits the form half chosen.
      if (open) {
        e.preventDefault();
        if (!settling && options[active]) pick(options[active]);
      }
    } else if (e.key === 'Escape' && open) {
      e.preventDefault();
      e.stopPropagation(); // closes the list, not the drawer around it
      close();
    }
  };
  const activeId = open && options[active] ? `${listId}-${options[active].id}` : undefined;
  let list: ReactNode = null;
  if (open) {
    list = (
      <Menu className="search-picker-list" id={listId} role="listbox" aria-label={p.listLabel}>
        {found.loading || settling ? <li className="search-picker-note"><Spinner size={16} aria-label="Searching" /></li>
          : found.error ? <li className="search-picker-note" role="alert">{found.error}</li>
            : !options.length ? <li className="search-picker-note">{p.nothing}</li>
              : options.map((o, i) => (
                <MenuItem
                  // The option (the <li>) carries the id the box's aria-activedescendant names; focus never leaves the box.
                  key={o.id} ref={(li) => { if (li) li.id = `${listId}-${o.id}`; }} tabIndex={-1}
                  roleStructure="listoption" active={i === active} selected={o.id === chosenId} text={o.label} label={o.detail}
                  // The box keeps the focus: a press on an option must not blur it first.
                  onMouseDown={(e) => e.preventDefault()} onMouseEnter={() => setActive(i)} onClick={() => pick(o)}
                />
              ))}
      </Menu>
    );
  }
  return (
    <div className="search-picker">
      <InputGroup
        inputRef={inputRef} id={p.id} disabled={p.disabled} intent={p.invalid ? 'danger' : 'none'} leftIcon={<SearchIcon />}
        role="combobox" aria-expanded={open} aria-controls={open ? listId : undefined} aria-autocomplete="list" aria-activedescendant={activeId}
        aria-invalid={p.invalid} aria-describedby={`${p.id}-message`} autoComplete="off"
        placeholder={p.placeholder} value={text ?? chosenText}
        onFocus={(e) => e.currentTarget.select()}
        onClick={() => setOpen(true)}
        onChange={(e) => { setText(e.target.value); setOpen(true); }}
        onKeyDown={onKeyDown}
        onBlur={() => { close(); p.onBlur(); }}
        rightElement={chosenId != null && !p.disabled ? (
          <Button variant="minimal" icon={<CrossIcon />} aria-label={`Clear ${chosenText}`}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => { setPicked(null); setText(''); p.onChange(null); inputRef.current?.focus(); setOpen(true); }} />
        ) : undefined}
      />
      {list}
    </div>
  );
}

/** The chosen option: the one picked here, else the kind's look-up of the id. */
function useChosen(lookUp: SearchPickerProps['useChosen'], picked: PickOption | null, id: number | null) {
  const fromPick = picked && picked.id === id ? picked : undefined;
  const looked = lookUp(fromPick ? null : id);
  return fromPick ?? looked;
}
