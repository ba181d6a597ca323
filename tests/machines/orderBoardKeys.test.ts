import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { movedSelection, orderBoardMachine, selectSelectedId, type BoardOrder, type PageResult } from '../../machines/orderBoard';

/** The board's keyboard selection (issue 11: J/K move between orders; A, R, C and Enter act on the selected one). */
describe('the board selection', () => {
  it('J starts at the top and K at the bottom, and both stop at the ends', () => {
    const ids = [30, 20, 10];
    expect(movedSelection(ids, null, 1)).toBe(30);
    expect(movedSelection(ids, null, -1)).toBe(10);
    expect(movedSelection(ids, 30, 1)).toBe(20);
    expect(movedSelection(ids, 10, 1)).toBe(10);
    expect(movedSelection(ids, 30, -1)).toBe(30);
    // An order that left the page: start again.
    expect(movedSelection(ids, 99, 1)).toBe(30);
    expect(movedSelection([], null, 1)).toBeNull();
  });

  it('the machine keeps it, and the selector forgets an order that left the page', async () => {
    const row = (id: number): BoardOrder => ({ id, version: 0, status: 'pending', arrival: 'none', payment: 'unpaid', refund: 'none', isViewed: false, deliverySystem: 'pickup' } as BoardOrder);
    let page: PageResult = { rows: [row(3), row(2), row(1)], totalCount: 3, counts: {} };
    const board = createActor(orderBoardMachine.provide({ actors: { loadPage: fromPromise(async () => page) } }), { input: { list: 'current' } });
    board.start();
    await new Promise((r) => setTimeout(r, 0));
    board.send({ type: 'board.move', by: 1 });
    board.send({ type: 'board.move', by: 1 });
    expect(selectSelectedId(board.getSnapshot())).toBe(2);
    page = { rows: [row(3), row(1)], totalCount: 2, counts: {} };
    board.send({ type: 'board.refresh' });
    await new Promise((r) => setTimeout(r, 0));
    expect(selectSelectedId(board.getSnapshot())).toBeNull();
    board.send({ type: 'board.move', by: -1 });
    expect(selectSelectedId(board.getSnapshot())).toBe(1);
    board.stop();
  });
});
