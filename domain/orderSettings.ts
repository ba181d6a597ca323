/**
 * A branch's order settings (issue 25), read by the server's acceptance deadline and auto-accept
 * and by the console's form. The deadline was one 10-minute constant for every branch; it is now
 * each branch's, within a range: under 3 minutes a busy counter cannot reach the screen in time,
 * over 30 a customer waits half an hour to learn nobody is making the order (aggregators in
 * Kuwait reject after 7). The database holds the same range (migration 0051's CHECK).
 */
export const ACCEPTANCE_DEADLINE = {
  min: 3, max: 30,
  /** Ten: long enough for a rush at the counter, short enough that a customer is not left waiting for a drink nobody is making. */
  default: 10,
} as const;

/** A printer that has not polled for this long shows as offline on the order screens. */
export const PRINTER_OFFLINE_AFTER_MS = 2 * 60_000;
