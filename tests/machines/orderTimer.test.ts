import { describe, expect, it } from 'vitest';
import { LATE_AFTER, orderTimer } from '../../machines/orderBoard';

/** The row timers of the order boards (issue 11): since placed while pending, since accepted while being made. */
describe('orderTimer', () => {
  const placed = '2026-11-23T10:00:00.000Z';
  const at = (minutes: number) => Date.parse(placed) + minutes * 60_000;

  it('a pending order waits since it was placed: on time, then soon (60 %), then late', () => {
    const row = { status: 'pending', createdAt: placed, acceptedAt: null };
    expect(orderTimer(row, at(1))).toEqual({ phase: 'accept', elapsedMs: 60_000, lateness: 'onTime' });
    expect(orderTimer(row, at(LATE_AFTER.acceptMs / 60_000 * 0.6))?.lateness).toBe('soon');
    expect(orderTimer(row, at(LATE_AFTER.acceptMs / 60_000))?.lateness).toBe('late');
  });

  it('an order for later waits since it reached the kitchen (fired), not since it was placed days before (issue 25)', () => {
    const row = { status: 'pending', createdAt: '2026-11-21T10:00:00.000Z', acceptedAt: null, firedAt: placed };
    expect(orderTimer(row, at(1))).toEqual({ phase: 'accept', elapsedMs: 60_000, lateness: 'onTime' });
  });

  it('an accepted order is timed from its acceptance, against the making limit', () => {
    const row = { status: 'accepted', createdAt: placed, acceptedAt: '2026-11-23T10:04:00.000Z' };
    expect(orderTimer(row, at(10))).toEqual({ phase: 'make', elapsedMs: 6 * 60_000, lateness: 'onTime' });
    expect(orderTimer(row, at(4 + LATE_AFTER.makeMs / 60_000))?.lateness).toBe('late');
  });

  it('ready, closed and rejected orders have no timer; nor an accepted one with no acceptance time', () => {
    for (const status of ['ready', 'closed', 'rejected']) expect(orderTimer({ status, createdAt: placed, acceptedAt: placed }, at(90))).toBeNull();
    expect(orderTimer({ status: 'accepted', createdAt: placed, acceptedAt: null }, at(90))).toBeNull();
  });

  it('takes other limits (a branch of its own)', () => {
    expect(orderTimer({ status: 'pending', createdAt: placed }, at(2), { acceptMs: 2 * 60_000, makeMs: 60_000 })?.lateness).toBe('late');
  });
});
