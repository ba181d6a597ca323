import { describe, expect, it } from 'vitest';
import { clockCheck } from './clock';

describe('the support page clock check', () => {
  it('takes the server time as the middle of the round trip', () => {
    const c = clockCheck(10_000, 10_400, 10_200);
    expect(c).toMatchObject({ ok: true, offsetSeconds: 0, roundTripMs: 400 });
  });
  it('says how far and which way a wrong clock is', () => {
    const ahead = clockCheck(1_000_000, 1_000_100, 1_000_050 - 5 * 60_000);
    expect(ahead).toMatchObject({ ok: false, offsetSeconds: 300 });
    expect(ahead.message).toContain('5 min ahead of the server');
    const behind = clockCheck(1_000_000, 1_000_000, 1_000_000 + 45_000);
    expect(behind.ok).toBe(false);
    expect(behind.message).toContain('45 s behind');
  });
});
