import { fromPromise } from 'xstate';
import { errorMessage } from '../lib/errors';

/** A machine's port over the gateway whose rejection carries the message the user should read (SPEC.md 8 order). */
export function port<O, I>(fn: (input: I) => Promise<O>) {
  return fromPromise<O, I>(async ({ input }) => {
    try {
      return await fn(input);
    } catch (e) {
      throw new Error(errorMessage(e));
    }
  });
}
