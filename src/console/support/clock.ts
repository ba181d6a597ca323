/** How far this device's clock may be from the server's before timers mislead. */
export const CLOCK_TOLERANCE_SECONDS = 30;

export interface ClockCheck { ok: boolean; offsetSeconds: number; roundTripMs: number; toleranceSeconds: number; message: string }

/**
 * The device's clock against the server's, read in one request: the server's time is taken to be
 * the middle of the round trip. Positive offset: the device is ahead.
 */
export function clockCheck(sentAt: number, receivedAt: number, serverTime: number): ClockCheck {
  const roundTripMs = Math.max(0, receivedAt - sentAt);
  const offsetSeconds = Math.round((sentAt + roundTripMs / 2 - serverTime) / 1000);
  const off = Math.abs(offsetSeconds);
  const amount = off >= 120 ? `${Math.round(off / 60)} min` : `${off} s`;
  return {
    ok: off <= CLOCK_TOLERANCE_SECONDS,
    offsetSeconds,
    roundTripMs,
    toleranceSeconds: CLOCK_TOLERANCE_SECONDS,
    message: `This device's clock is ${amount} ${offsetSeconds > 0 ? 'ahead of' : 'behind'} the server: set it right, or order timers will be wrong.`,
  };
}
