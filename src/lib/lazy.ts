import { lazy, type ComponentType } from 'react';
import { TIMINGS } from '../../domain/constants';

/** React.lazy whose chunk load fails after SPEC.md's 120 s time-out instead of hanging. */
export function lazyChunk<T extends ComponentType<any>>(load: () => Promise<{ default: T }>) {
  return lazy(() =>
    Promise.race([
      load(),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('Loading chunk timed out')), TIMINGS.chunkTimeoutMs)),
    ]),
  );
}
