import { beforeAll, describe, expect, it } from 'vitest';
import { callerTokens } from '../support/adminMatrix';
import { useServer } from '../support/harness';
import { insertOrder } from '../support/orders';

/**
 * Issue 25: the quality report's time to accept of an order for later counts from its fire time
 * (fired_at, when it reached the kitchen), not from its placement hours before
 * (server/services/statistic/rollup.ts ACCEPT_SECONDS), in the rollup's days and in the pieces
 * of a day computed on the fly.
 */
const QUALITY = '/api/services/app/QualityReport/GetBranchQualityReport';
const server = useServer();
let token: Awaited<ReturnType<typeof callerTokens>>;
beforeAll(async () => { token = await callerTokens(server); });

const report = async (fromDate: string, toDate: string) => {
  const res = await server.api.get(QUALITY, { token: token.admin, query: { brandId: 7, fromDate, toDate } });
  expect(res.status, JSON.stringify(res.body.error)).toBe(200);
  return res.body.result.overall as { orders: number; accepted: number; medianAcceptSeconds: number | null };
};

describe('time to accept of an order for later', () => {
  it('counts from its fire time: fired at 13:00, accepted a minute later, placed at 10:00 → one minute', async () => {
    // The rollup is built before the order exists, so the order reaches it through the refresh of a new order.
    expect((await report('2024-02-10T00:00:00+03:00', '2024-02-11T00:00:00+03:00')).orders).toBe(0);
    await insertOrder(server, {
      status: 'accepted', createdAt: new Date('2024-02-10T07:00:00Z'), scheduledFor: new Date('2024-02-10T10:15:00Z'),
      orderTime: new Date('2024-02-10T10:15:00Z'), firedAt: new Date('2024-02-10T10:00:00Z'), acceptedAt: new Date('2024-02-10T10:01:00Z'),
    });
    // An order for as soon as possible beside it, accepted 30 s after its placement.
    await insertOrder(server, { status: 'accepted', createdAt: new Date('2024-02-10T08:00:00Z'), acceptedAt: new Date('2024-02-10T08:00:30Z') });
    // The whole day (the rollup's row) and a piece of it (computed from the orders).
    for (const [from, to] of [['2024-02-10T00:00:00+03:00', '2024-02-11T00:00:00+03:00'], ['2024-02-10T09:30:00+03:00', '2024-02-10T10:30:00+03:00']]) {
      const q = await report(from, to);
      expect(q.accepted, from).toBe(1 + Number(from.endsWith('T00:00:00+03:00')));
      expect(q.medianAcceptSeconds, from).toBe(from.endsWith('T00:00:00+03:00') ? 45 : 60);
    }
  });
});
