/**
 * When an order should be ready (docs/decisions.md "Ready-time estimate"): the branch's usual
 * preparation time plus the extra wait it announces while busy (Branch/UpdateBusyMode's
 * delayMinutes). One rule for the checkout (Store/QuoteOrder's `readyMinutes`) and the tracker
 * (the order's `readyEstimateAt`, fixed when it was placed).
 */
export const PREPARATION_MINUTES = { default: 15, min: 1, max: 240 } as const;

export interface ReadyEstimate {
  /** Minutes from `from` until the order should be ready. */
  minutes: number;
  readyAt: Date;
}

export function readyEstimate(branch: { preparationMinutes: number; delayMinutes: number }, from: Date): ReadyEstimate {
  const minutes = Math.max(0, branch.preparationMinutes) + Math.max(0, branch.delayMinutes);
  return { minutes, readyAt: new Date(from.getTime() + minutes * 60_000) };
}
