import { useEffect, useRef } from 'react';
import { onOrderSignal } from './feed/orderSignals';

/** Calls `refresh` when the live feed says the order lists are stale; changes made elsewhere are batched for 400 ms. */
export function useOrderSignals(refresh: () => void) {
  const latest = useRef(refresh);
  latest.current = refresh;
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = onOrderSignal((signal) => {
      if (signal.type === 'refresh') {
        clearTimeout(timer);
        timer = undefined;
        latest.current();
      } else if (!timer) {
        timer = setTimeout(() => { timer = undefined; latest.current(); }, 400);
      }
    });
    return () => { clearTimeout(timer); stop(); };
  }, []);
}
