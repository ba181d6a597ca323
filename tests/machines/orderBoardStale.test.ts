import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { orderBoardMachine, type BoardOrder, type OrderActionRequest, type PageResult } from '../../machines/orderBoard';

/**
 * A page load that was on its way while an action finished must not put back the row as it was
 * before the action (CI, fourth session: the drive-thru story's Served click went out with the
 * version before the read mark, got a 409, and the order stayed Accepted).
 */
describe('the board and a page that answers late', () => {
  it('keeps the newer version of a row when a page read before an action answers after it', async () => {
    const row = (version: number, over: Partial<BoardOrder> = {}): BoardOrder =>
      ({ id: 4, version, status: 'pending', arrival: 'none', payment: 'unpaid', refund: 'none', isViewed: false, deliverySystem: 'carService', ...over } as BoardOrder);
    const tick = () => new Promise((r) => setTimeout(r, 0));
    const pages: Array<(p: PageResult) => void> = [];
    const acts: Array<{ req: OrderActionRequest; answer: (r: BoardOrder) => void }> = [];
    const board = createActor(orderBoardMachine.provide({
      actors: {
        loadPage: fromPromise(() => new Promise<PageResult>((resolve) => { pages.push(resolve); })),
        performOrderEvent: fromPromise<BoardOrder | null, OrderActionRequest>(({ input }) => new Promise((answer) => { acts.push({ req: input, answer }); })),
      },
    }), { input: { list: 'driveThru' as never } });
    board.start();
    pages.shift()!({ rows: [row(0)], totalCount: 1, counts: {} });
    await tick();

    board.send({ type: 'order.act', orderId: 4, event: { type: 'order.accept' } });
    acts.shift()!.answer(row(1, { status: 'accepted' }));
    await tick();
    // The accept raised a refresh (a page load now on its way) and the read mark.
    expect(pages).toHaveLength(1);
    const lateStale = pages.shift()!;
    const readMark = acts.shift()!;
    expect(readMark.req.event.type).toBe('order.markRead');
    readMark.answer(row(2, { status: 'accepted', isViewed: true }));
    await tick();
    // The page read between the accept and the read mark answers last.
    lateStale({ rows: [row(1, { status: 'accepted' })], totalCount: 1, counts: {} });
    await tick();

    expect(board.getSnapshot().context.rows[4].version).toBe(2);
    board.send({ type: 'order.act', orderId: 4, event: { type: 'order.serve' } });
    expect(acts.shift()!.req).toMatchObject({ orderId: 4, version: 2, event: { type: 'order.serve' } });
    board.stop();
  });
});
