import { describe, expect, it } from 'vitest';
import { daysOf, filterFromSearch, periodOf, searchFromFilter } from '../../src/console/dashboard/dashboardFilter';

/** The dashboard's filter in the address (issue 23): read back as written, unknown values ignored, days in Kuwait time. */
describe('dashboard filter', () => {
  it('round-trips through the address and ignores what it does not know', () => {
    for (const search of ['', '?period=lastWeek', '?period=today&brand=7&branch=1', '?period=custom&from=2026-11-01&to=2026-11-07&brand=8']) {
      expect(searchFromFilter(filterFromSearch(search))).toBe(search);
    }
    expect(filterFromSearch('?period=someday&brand=x&branch=-1')).toEqual({ period: 'all' });
    expect(filterFromSearch('?period=custom&from=2026-11-07&to=2026-11-01')).toEqual({ period: 'all' });
  });

  it('periods are whole Kuwait days, whatever the moment of the day (UTC+3)', () => {
    // Friday 27 November 2026, 22:30 UTC = Saturday 28 November 01:30 in Kuwait
    const now = new Date('2026-11-27T22:30:00Z');
    expect(daysOf({ period: 'today' }, now)).toEqual({ first: '2026-11-28', last: '2026-11-28' });
    expect(daysOf({ period: 'lastWeek' }, now)).toEqual({ first: '2026-11-15', last: '2026-11-21' });
    expect(daysOf({ period: 'last7' }, now)).toEqual({ first: '2026-11-22', last: '2026-11-28' });
    expect(daysOf({ period: 'thisMonth' }, now)).toEqual({ first: '2026-11-01', last: '2026-11-28' });
    expect(periodOf({ period: 'yesterday' }, now)).toEqual({ fromDate: '2026-11-26T21:00:00.000Z', toDate: '2026-11-27T21:00:00.000Z' });
    expect(periodOf({ period: 'all' }, now)).toEqual({});
  });
});
