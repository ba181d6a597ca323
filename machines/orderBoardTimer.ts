// ── an order's timer on the board (issue 11) ──
/**
 * When an order counts as late, until branches set their own: waiting to be accepted longer than
 * `acceptMs`, or being made (accepted, not ready) longer than `makeMs`. 'soon' from 60 % of it, so
 * the row warns before it is late. Ready, closed and rejected orders have no timer.
 */
export const LATE_AFTER = { acceptMs: 5 * 60_000, makeMs: 15 * 60_000 } as const;
const SOON_SHARE = 0.6;
export type Lateness = 'onTime' | 'soon' | 'late';
export interface OrderTimer {
  /** What the order is waiting for: acceptance (pending) or to be made (accepted). */
  phase: 'accept' | 'make';
  /** Since it was placed or fired (accept) or accepted (make). */
  elapsedMs: number;
  lateness: Lateness;
}
export function orderTimer(row: { status: string; createdAt: string; acceptedAt?: string | null; firedAt?: string | null }, now: number, limits: { acceptMs: number; makeMs: number } = LATE_AFTER): OrderTimer | null {
  // An order for later waits from when it reached the kitchen (its fire time), not from its placement (issue 25).
  const since = row.status === 'pending' ? row.firedAt ?? row.createdAt : row.status === 'accepted' ? row.acceptedAt : null;
  if (!since) return null;
  const phase = row.status === 'pending' ? 'accept' : 'make';
  const limit = phase === 'accept' ? limits.acceptMs : limits.makeMs;
  const elapsedMs = Math.max(0, now - Date.parse(since));
  return { phase, elapsedMs, lateness: elapsedMs >= limit ? 'late' : elapsedMs >= limit * SOON_SHARE ? 'soon' : 'onTime' };
}
