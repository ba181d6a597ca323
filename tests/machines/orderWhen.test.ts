// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { checkoutMachine, orderRequestOf, selectCanSubmit, type CheckoutOptions, type PlacedOrder } from '../../machines/checkout';
import { ASAP, freeSlots, laterAt, laterOn, orderDays } from '../../machines/orderWhen';

/**
 * Issue 25, order for later: the checkout's "When" (machines/orderWhen.ts) and what the checkout
 * machine does with it. The machine runs with stub ports; the server's slots and its 409 are walked
 * for real in tests/e2e/shop-order-later.test.ts and tests/server/order-slots.test.ts.
 */
describe('the days and times offered', () => {
  it('today and the next 7 days on Kuwait\'s calendar, even when UTC is still on the day before', () => {
    // 21:30 UTC on the 27th is 00:30 on the 28th in Kuwait.
    expect(orderDays(new Date('2026-11-27T21:30:00Z'))).toEqual(
      ['2026-11-28', '2026-11-29', '2026-11-30', '2026-12-01', '2026-12-02', '2026-12-03', '2026-12-04', '2026-12-05']);
  });

  it('a chosen time is kept as ISO with its Kuwait day; only free slots are offered', () => {
    expect(laterAt('2026-11-28T22:15:00+03:00')).toEqual({ later: true, day: '2026-11-28', scheduledFor: '2026-11-28T19:15:00.000Z' });
    expect(laterAt('not a time')).toEqual(ASAP);
    const slot = (start: string, state: string) => ({ start, end: start, state, taken: 0, left: null });
    expect(freeSlots([slot('a', 'free'), slot('b', 'full'), null, slot('c', 'closed'), slot('d', 'free')]).map((s) => s.start)).toEqual(['a', 'd']);
  });
});

const lines = [{ productId: 1, quantity: 1, optionIds: [] }];
const options: CheckoutOptions = { paymentMethods: [{ paymentSystemId: 2, name: 'Cash at branch', isCard: false }], addresses: [] };
const NEXT = '2026-11-28T07:15:00.000Z';

async function editing(answers: PlacedOrder[], sent: { scheduledFor?: string; key: string }[]) {
  const actor = createActor(checkoutMachine.provide({
    actors: {
      loadOptions: fromPromise(async () => options),
      placeOrder: fromPromise(async ({ input }) => {
        sent.push({ scheduledFor: (input.order as { scheduledFor?: string }).scheduledFor, key: input.idempotencyKey });
        return answers.shift()!;
      }),
    },
  }), { input: { isAuthenticated: true, isGuest: false, brandId: 7, branchId: 1, lines } }).start();
  await waitFor(actor, (s) => s.matches('editing'));
  return actor;
}

describe('the checkout with a time', () => {
  it('"Later" holds Place order until a time is chosen; the time goes out as scheduledFor, as soon as possible sends none', async () => {
    const actor = await editing([], []);
    expect('scheduledFor' in orderRequestOf(actor.getSnapshot().context)).toBe(false);
    actor.send({ type: 'checkout.when', when: laterOn('2026-11-28') });
    expect(selectCanSubmit(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'checkout.when', when: laterAt(NEXT) });
    expect(selectCanSubmit(actor.getSnapshot())).toBe(true);
    expect(orderRequestOf(actor.getSnapshot().context).scheduledFor).toBe(NEXT);
    actor.send({ type: 'checkout.when', when: ASAP });
    expect('scheduledFor' in orderRequestOf(actor.getSnapshot().context)).toBe(false);
  });

  it('a full time keeps the next free one offered; taking it is a new request with a new key, and it is placed', async () => {
    const sent: { scheduledFor?: string; key: string }[] = [];
    const refusal: PlacedOrder = { isSuccessed: false, isPaid: false, message: 'This time is full. The next free time is 10:15.', paymentUrl: null, orderId: null, ohash: null, soldOut: [], nextTime: NEXT };
    const placed: PlacedOrder = { isSuccessed: true, isPaid: false, message: '', paymentUrl: null, orderId: 5, ohash: 'h' };
    const actor = await editing([refusal, placed], sent);
    actor.send({ type: 'checkout.when', when: laterAt('2026-11-28T07:00:00Z') });
    actor.send({ type: 'checkout.submit' });
    await waitFor(actor, (s) => s.matches('editing') && s.context.nextTime !== null);
    expect(actor.getSnapshot().context).toMatchObject({ nextTime: NEXT, error: refusal.message });
    actor.send({ type: 'checkout.when', when: laterAt(actor.getSnapshot().context.nextTime!) });
    expect(actor.getSnapshot().context.nextTime).toBeNull();
    actor.send({ type: 'checkout.submit' });
    await waitFor(actor, (s) => s.matches('placed'));
    expect(sent.map((s) => s.scheduledFor)).toEqual(['2026-11-28T07:00:00.000Z', NEXT]);
    expect(sent[1]!.key).not.toBe(sent[0]!.key);
  });
});
