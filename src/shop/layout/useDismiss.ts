import { useEffect, type RefObject } from 'react';

/**
 * Closes a header panel (the account menu, the bell) as people expect: Escape, or a press outside
 * `root`. Listens only while the panel is open.
 */
export function useDismiss(open: boolean, root: RefObject<HTMLElement | null>, close: () => void) {
  useEffect(() => {
    if (!open) return;
    const onEvent = (e: MouseEvent | KeyboardEvent) => {
      if (e instanceof KeyboardEvent ? e.key === 'Escape' : !root.current?.contains(e.target as Node)) close();
    };
    document.addEventListener('mousedown', onEvent);
    document.addEventListener('keydown', onEvent);
    return () => { document.removeEventListener('mousedown', onEvent); document.removeEventListener('keydown', onEvent); };
  }, [open, root, close]);
}
