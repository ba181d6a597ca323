import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, clockText, dateTimeText, dayKey, dayStart, fromZoneInput, toZoneInput } from '../../domain/time';
import { dayOf, momentOf } from '../../src/console/resources/resourceUrl';

/**
 * domain/time.ts: moments are shown and typed on the brand's clock (Kuwait, UTC+3), whatever the
 * zone of the process; here New York's, so a reading in the process's zone would be 8 hours off.
 */
const zone = process.env.TZ;
beforeAll(() => { process.env.TZ = 'America/New_York'; });
afterAll(() => { if (zone === undefined) delete process.env.TZ; else process.env.TZ = zone; });

describe('brand time', () => {
  it('the process really is in New York for these tests', () => {
    expect(new Date('2026-11-27T05:00:00Z').getHours()).toBe(0);
  });

  it('a datetime-local value is read on Kuwait\'s clock and written back the same', () => {
    expect(fromZoneInput('2026-11-27T08:00')).toBe('2026-11-27T05:00:00.000Z');
    expect(toZoneInput('2026-11-27T05:00:00.000Z')).toBe('2026-11-27T08:00');
    // What the input holds already (typed) is kept as typed.
    expect(toZoneInput('2026-11-27T08:00')).toBe('2026-11-27T08:00');
    expect(toZoneInput(null)).toBe('');
    expect(fromZoneInput('2026-11-27T05:00:00.000Z')).toBe('2026-11-27T05:00:00.000Z');
  });

  it('times and days are Kuwait\'s', () => {
    expect(clockText('2026-11-27T05:00:00Z')).toBe('08:00');
    expect(dateTimeText('2026-11-27T05:00:00Z')).toBe('27 Nov 2026, 08:00');
    // 22:30 UTC is already the next day in Kuwait (01:30).
    expect(dayKey('2026-11-27T22:30:00Z')).toBe('2026-11-28');
    expect(dateTimeText(undefined)).toBe('');
  });

  it("a resource screen's day filter (Payment History's From and To) means Kuwait's days, not the browser's", () => {
    // From 27 Nov: Kuwait's midnight (21:00 UTC the day before); To 27 Nov: up to the next Kuwait midnight.
    expect(momentOf('2026-11-27', 'start')).toBe('2026-11-26T21:00:00.000Z');
    expect(momentOf('2026-11-27', 'end')).toBe('2026-11-27T21:00:00.000Z');
    // And back into the date inputs as the same days.
    expect(dayOf('2026-11-26T21:00:00.000Z', 'start')).toBe('2026-11-27');
    expect(dayOf('2026-11-27T21:00:00.000Z', 'end')).toBe('2026-11-27');
    expect(dayOf(undefined, 'start')).toBe('');
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01');
    expect(dayStart('2026-03-01')).toBe('2026-02-28T21:00:00.000Z');
  });
});
