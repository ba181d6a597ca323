import { describe, expect, it } from 'vitest';
import { durationText, periodRange, rateText } from './quality';

describe('quality report figures as text', () => {
  it('durations read as an operator says them', () => {
    expect([null, 30, 60, 95, 3600, 3720].map(durationText)).toEqual(['—', '30 s', '1 min', '1 min 35 s', '1 h', '1 h 2 min']);
  });
  it('rates give the count and its share', () => {
    expect([rateText(0, 0), rateText(0, 5), rateText(2, 6)]).toEqual(['0', '0', '2 (33 %)']);
  });
  it('periods end after now and start the right number of days back', () => {
    const now = new Date('2026-11-23T15:00:00Z');
    const week = periodRange('7d', now);
    expect(new Date(week.fromDate).toISOString()).toBe('2026-11-16T15:00:00.000Z');
    expect(new Date(week.toDate).getTime()).toBeGreaterThan(now.getTime());
    // Today starts at midnight in Kuwait (UTC+3), not at the browser's midnight (issue 23).
    expect(periodRange('today', now).fromDate).toBe('2026-11-22T21:00:00.000Z');
    expect(periodRange('today', new Date('2026-11-23T22:30:00Z')).fromDate).toBe('2026-11-23T21:00:00.000Z');
  });
});
