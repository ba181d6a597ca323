import { describe, expect, it } from 'vitest';
import { dailyWindows, isOpenAt, localDayAndMinutes } from '../../domain/schedule';
import { deliveryFeeFor, orderTotals } from '../../domain/orderTotals';

// 2024-01-06 is a Saturday; Kuwait is UTC+3 all year.
const utc = (iso: string) => new Date(iso);

describe('branch online-ordering schedule (Asia/Kuwait)', () => {
  it('reads the weekday and time in Kuwait', () => {
    expect(localDayAndMinutes(utc('2024-01-06T21:30:00Z'))).toEqual({ dayOfWeek: 0, minutes: 30 });
    expect(localDayAndMinutes(utc('2024-01-06T05:00:00Z'))).toEqual({ dayOfWeek: 6, minutes: 8 * 60 });
  });

  it('is open inside a window of the day, closed outside it and on other days', () => {
    const saturday = [{ dayOfWeek: 6, openTime: '08:00', closeTime: '22:00' }];
    expect(isOpenAt(saturday, utc('2024-01-06T05:00:00Z'))).toBe(true); // 08:00
    expect(isOpenAt(saturday, utc('2024-01-06T04:59:00Z'))).toBe(false); // 07:59
    expect(isOpenAt(saturday, utc('2024-01-06T19:00:00Z'))).toBe(false); // 22:00
    expect(isOpenAt(saturday, utc('2024-01-07T05:00:00Z'))).toBe(false); // Sunday
  });

  it('treats 23:59 as midnight and a close before the open as past midnight', () => {
    expect(isOpenAt([{ dayOfWeek: 6, openTime: '00:00', closeTime: '23:59' }], utc('2024-01-06T20:59:30Z'))).toBe(true); // 23:59
    const late = [{ dayOfWeek: 6, openTime: '18:00', closeTime: '02:00' }];
    expect(isOpenAt(late, utc('2024-01-06T22:30:00Z'))).toBe(true); // Sunday 01:30
    expect(isOpenAt(late, utc('2024-01-06T23:30:00Z'))).toBe(false); // Sunday 02:30
    expect(isOpenAt(late, utc('2024-01-06T14:00:00Z'))).toBe(false); // Saturday 17:00
  });

  it("falls back to the branch's daily hours", () => {
    expect(isOpenAt(dailyWindows('07:00', '22:00'), utc('2024-01-03T10:00:00Z'))).toBe(true);
    expect(isOpenAt(dailyWindows('07:00', '22:00'), utc('2024-01-03T20:00:00Z'))).toBe(false);
  });
});

describe('order totals in fils', () => {
  it('discounts the subtotal, taxes what is left, adds the delivery fee', () => {
    expect(orderTotals({ lineTotals: [4600, 650], discountPercent: 10, taxPercents: [5], deliveryFee: 500 }))
      .toEqual({ subtotal: 5250, discount: 525, tax: 236, deliveryFee: 500, total: 5250 - 525 + 236 + 500 });
  });

  it('delivers free at or above the free amount', () => {
    expect(deliveryFeeFor(14_999, 1000, 15_000)).toBe(1000);
    expect(deliveryFeeFor(15_000, 1000, 15_000)).toBe(0);
    expect(deliveryFeeFor(99_000, 1000, null)).toBe(1000);
  });
});
