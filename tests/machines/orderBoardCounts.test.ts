import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { orderBoardMachine, selectCounts, selectPaging, type BoardOrder, type PageRequest, type PageResult } from '../../machines/orderBoard';

/**
 * The status counts are read again when orders may have changed (the first load, a refresh from
 * the live feed or after an action, a filter other than status), never on a page jump, a page size
 * or a sort, which move through the same orders (issue 14: every jump re-counted 300,000 orders).
 */
const row = (id: number): BoardOrder => ({ id, version: 0, status: 'pending', arrival: 'none', payment: 'unpaid', refund: 'none', isViewed: false, deliverySystem: 'pickup' } as BoardOrder);

function boardWithServer() {
  const requests: PageRequest[] = [];
  let pending = 7;
  const loadPage = fromPromise<PageResult, PageRequest>(async ({ input }) => {
    requests.push(input);
    const rows = [row(input.skip + 2), row(input.skip + 1)];
    return { rows, totalCount: 500, ...(input.withCounts && { counts: { pending, accepted: 1, ready: 0, rejected: 0, closed: 2 } }) };
  });
  const board = createActor(orderBoardMachine.provide({ actors: { loadPage } }), { input: { list: 'all', take: 50 } });
  const settled = () => waitFor(board, (s) => s.matches({ list: 'success' }));
  return { board, requests, settled, setPending: (n: number) => { pending = n; } };
}

describe('the board asks for the status counts only when they may have changed', () => {
  it('first load, then page jumps, page size and sorts keep the counts without asking', async () => {
    const { board, requests, settled } = boardWithServer();
    board.start();
    await settled();
    expect(requests.map((r) => r.withCounts)).toEqual([true]);
    expect(selectCounts(board.getSnapshot())).toMatchObject({ pending: 7 });

    board.send({ type: 'board.page', skip: 450 });
    await settled();
    board.send({ type: 'board.page', skip: 0 });
    await settled();
    board.send({ type: 'board.pageSize', take: 100 });
    await settled();
    board.send({ type: 'board.sort', sorting: { column: 'total', direction: 'desc' } });
    await settled();
    board.send({ type: 'board.filter', filter: { status: 'pending' } });
    await settled();
    expect(requests.slice(1).map((r) => r.withCounts)).toEqual([false, false, false, false, false]);
    // The counts stay on screen, the paging follows the answers.
    expect(selectCounts(board.getSnapshot())).toMatchObject({ pending: 7 });
    expect(selectPaging(board.getSnapshot())).toMatchObject({ totalCount: 500, take: 100, skip: 0 });
    board.stop();
  });

  it('a refresh (an order event) and a filter other than status read them again', async () => {
    const { board, requests, settled, setPending } = boardWithServer();
    board.start();
    await settled();
    setPending(8);
    board.send({ type: 'board.refresh' });
    await waitFor(board, (s) => s.matches({ list: 'success' }) && requests.length === 2);
    expect(requests[1].withCounts).toBe(true);
    expect(selectCounts(board.getSnapshot())).toMatchObject({ pending: 8 });

    board.send({ type: 'board.filter', filter: { search: '9988' } });
    await settled();
    expect(requests[2].withCounts).toBe(true);
    board.send({ type: 'board.page', skip: 50 });
    await settled();
    expect(requests[3].withCounts).toBe(false);
    board.stop();
  });

  it('a refresh interrupted by a page jump still brings the counts with that page', async () => {
    const { board, requests, settled } = boardWithServer();
    board.start();
    await settled();
    board.send({ type: 'board.refresh' });
    board.send({ type: 'board.page', skip: 100 });
    await waitFor(board, (s) => s.matches({ list: 'success' }) && s.context.skip === 100);
    expect(requests.at(-1)).toMatchObject({ skip: 100, withCounts: true });
    board.send({ type: 'board.page', skip: 150 });
    await settled();
    expect(requests.at(-1)).toMatchObject({ skip: 150, withCounts: false });
    board.stop();
  });
});
