import { describe, expect, it } from 'vitest';
import { availableAt, menuWindowsError, productAvailableAt, type MenuWindow } from '../../domain/menuWindows';

// 2024-01-06 is a Saturday (weekday 6); Kuwait is UTC+3 all year, so 07:00 there is 04:00Z.
const at = (iso: string) => new Date(iso);
const breakfast = (weekday: number): MenuWindow => ({ weekday, fromMinute: 6 * 60, toMinute: 11 * 60 });

describe('availableAt (menus by time of day, Asia/Kuwait)', () => {
  it('is always available with no windows', () => {
    expect(availableAt([], at('2024-01-06T12:00:00Z'))).toBe(true);
    expect(availableAt(null, at('2024-01-06T12:00:00Z'))).toBe(true);
  });

  it("reads the window on Kuwait's clock, not UTC's: [from, to)", () => {
    const saturday = [breakfast(6)];
    expect(availableAt(saturday, at('2024-01-06T03:00:00Z'))).toBe(true); // 06:00 Kuwait
    expect(availableAt(saturday, at('2024-01-06T02:59:00Z'))).toBe(false); // 05:59
    expect(availableAt(saturday, at('2024-01-06T07:59:00Z'))).toBe(true); // 10:59
    expect(availableAt(saturday, at('2024-01-06T08:00:00Z'))).toBe(false); // 11:00
    // 07:00 UTC is 10:00 in Kuwait (inside); 10:00 UTC is 13:00 there (outside), though 10:00 in UTC is inside.
    expect(availableAt(saturday, at('2024-01-06T07:00:00Z'))).toBe(true);
    expect(availableAt(saturday, at('2024-01-06T10:00:00Z'))).toBe(false);
  });

  it("takes the weekday in Kuwait: 22:30Z Saturday is Sunday 01:30 there", () => {
    const sundayNight = [{ weekday: 0, fromMinute: 0, toMinute: 2 * 60 }];
    expect(availableAt(sundayNight, at('2024-01-06T22:30:00Z'))).toBe(true);
    expect(availableAt([{ weekday: 6, fromMinute: 0, toMinute: 2 * 60 }], at('2024-01-06T22:30:00Z'))).toBe(false);
    // Only on its weekday: Sunday's breakfast is not Saturday's.
    expect(availableAt([breakfast(0)], at('2024-01-06T04:00:00Z'))).toBe(false);
    expect(availableAt([breakfast(0)], at('2024-01-07T04:00:00Z'))).toBe(true);
  });

  it('runs a window past midnight into the next day, belonging to the day it starts', () => {
    const late = [{ weekday: 6, fromMinute: 22 * 60, toMinute: 2 * 60 }]; // Saturday 22:00 – Sunday 02:00
    expect(availableAt(late, at('2024-01-06T19:00:00Z'))).toBe(true); // Saturday 22:00
    expect(availableAt(late, at('2024-01-06T22:59:00Z'))).toBe(true); // Sunday 01:59
    expect(availableAt(late, at('2024-01-06T23:00:00Z'))).toBe(false); // Sunday 02:00
    expect(availableAt(late, at('2024-01-05T22:00:00Z'))).toBe(false); // Saturday 01:00: Friday has no late window
    expect(availableAt(late, at('2024-01-06T18:59:00Z'))).toBe(false); // Saturday 21:59
  });

  it('covers a whole day with 00:00–24:00, up to the last minute', () => {
    const day = [{ weekday: 6, fromMinute: 0, toMinute: 1440 }];
    expect(availableAt(day, at('2024-01-05T21:00:00Z'))).toBe(true); // Saturday 00:00
    expect(availableAt(day, at('2024-01-06T20:59:59Z'))).toBe(true); // Saturday 23:59:59
    expect(availableAt(day, at('2024-01-06T21:00:00Z'))).toBe(false); // Sunday 00:00
  });

  it('makes a product available only when its type, its sub-type and itself all are', () => {
    const saturday9 = at('2024-01-06T06:00:00Z'); // 09:00
    const weekend = [5, 6].map((weekday) => ({ weekday, fromMinute: 0, toMinute: 1440 }));
    expect(productAvailableAt({ type: [breakfast(6)], subtype: weekend, product: [] }, saturday9)).toBe(true);
    expect(productAvailableAt({ type: [breakfast(6)], subtype: weekend, product: [{ weekday: 6, fromMinute: 10 * 60, toMinute: 11 * 60 }] }, saturday9)).toBe(false);
    expect(productAvailableAt({ type: [breakfast(0)] }, saturday9)).toBe(false);
    expect(productAvailableAt({}, saturday9)).toBe(true);
  });
});

describe('menuWindowsError', () => {
  it('accepts good windows, midnight-crossing ones included', () => {
    expect(menuWindowsError([breakfast(0), { weekday: 6, fromMinute: 1320, toMinute: 120 }, { weekday: 3, fromMinute: 0, toMinute: 1440 }])).toBeNull();
  });

  it('names the window and what is wrong', () => {
    expect(menuWindowsError([breakfast(1), { weekday: 7, fromMinute: 0, toMinute: 60 }])).toMatch(/^Availability window 2: the weekday must be 0/);
    expect(menuWindowsError([{ weekday: 1, fromMinute: -1, toMinute: 60 }])).toMatch(/the start must be a time of day/);
    expect(menuWindowsError([{ weekday: 1, fromMinute: 0, toMinute: 1441 }])).toMatch(/the end must be a time of day/);
    expect(menuWindowsError([{ weekday: 1, fromMinute: 60, toMinute: 60 }])).toMatch(/the same time/);
    expect(menuWindowsError([{ weekday: 1, fromMinute: 1440, toMinute: 60 }])).toMatch(/before 24:00/);
    expect(menuWindowsError(Array.from({ length: 29 }, () => breakfast(1)))).toMatch(/At most 28/);
  });
});
