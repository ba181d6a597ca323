import { afterEach, describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import { resourceMachine, type PageRequest, type PageResult, type ResourceEvent, type ResourceView } from '../../machines/resourceMachine';
import { provideAddress, searchWithView, useUrlTab, viewFromSearch, viewShapeOf } from '../../src/console/resources/resourceUrl';
import { taxScreen } from '../../src/console/resources/configs/tax';
import { paymentHistoryScreen } from '../../src/console/resources/configs/paymentHistory';
import { act, renderHook } from '@testing-library/react';

/**
 * Issue 23: a resource screen's search, filters, sorting and page live in the address. The machine's
 * address port (machines/resourceMachine.ts): the view is its input, each change is written (a
 * deliberate step pushes a history entry, typing replaces it after the first keystroke), and Back
 * gives the address's view back (`resource.restore`) without writing it again. The address's text
 * (src/console/resources/resourceUrl.ts): what it does not say, or says wrong, is the default.
 */

const fields = taxScreen.fields ?? [];
const TAX = viewShapeOf(taxScreen, '');
const PAYMENTS = viewShapeOf(paymentHistoryScreen, '');
const page = (totalCount: number, rows = 10): PageResult => ({ rows: Array.from({ length: rows }, (_, i) => ({ id: i + 1 })), totalCount });

/** The machine with its server and address ports in the test's hands. */
function start(view?: Partial<ResourceView>, answer: (r: PageRequest) => PageResult = () => page(100)) {
  const requests: PageRequest[] = [];
  const writes: { view: ResourceView; history: string }[] = [];
  let address: ((e: ResourceEvent) => void) | null = null;
  const machine = resourceMachine.provide({
    actors: {
      loadPage: fromPromise(async ({ input }) => { requests.push(input); return answer(input); }),
      watchView: fromCallback<ResourceEvent>(({ sendBack }) => { address = sendBack; }),
    },
    actions: { writeView: (_, params) => { writes.push(params); } },
  });
  const actor = createActor(machine, { input: { fields, sorting: taxScreen.defaultSorting, view } }).start();
  const settled = () => waitFor(actor, (s) => s.matches({ list: 'ready' }));
  return { actor, requests, writes, back: (v: ResourceView) => address!({ type: 'resource.restore', view: v }), settled };
}

describe("the resource machine's address port", () => {
  it("starts from the address's view: the first page asked is the one the address names", async () => {
    const { requests, settled } = start({ search: 'vat', filter: { isActive: false }, sorting: { field: 'percent', direction: 'desc' }, skip: 20, take: 10 });
    await settled();
    expect(requests).toEqual([{ skip: 20, take: 10, sorting: 'percent desc', search: 'vat', filter: { isActive: false } }]);
  });

  it('writes each change: a page, a filter, a sort or a page size pushes; typing pushes once, then replaces', async () => {
    const { actor, writes, settled } = start();
    await settled();
    actor.send({ type: 'resource.page', skip: 25 });
    actor.send({ type: 'resource.filter', filter: { isActive: true } });
    for (const search of ['v', 'va', 'vat']) actor.send({ type: 'resource.search', search });
    actor.send({ type: 'resource.page', skip: 25 });
    actor.send({ type: 'resource.search', search: 'vat 5' });
    actor.send({ type: 'resource.sort', sorting: { field: 'name', direction: 'desc' } });
    actor.send({ type: 'resource.pageSize', take: 50 });
    await settled();
    expect(writes.map((w) => [w.history, w.view.search, w.view.skip, w.view.take])).toEqual([
      ['push', '', 25, 25],
      ['push', '', 0, 25],
      ['push', 'v', 0, 25],
      ['replace', 'va', 0, 25],
      ['replace', 'vat', 0, 25],
      ['push', 'vat', 25, 25],
      // typing again after a step is a new entry
      ['push', 'vat 5', 0, 25],
      ['push', 'vat 5', 0, 25],
      ['push', 'vat 5', 0, 50],
    ]);
    expect(writes.at(-1)!.view).toEqual({ search: 'vat 5', filter: { isActive: true }, sorting: { field: 'name', direction: 'desc' }, skip: 0, take: 50 });
  });

  it("Back gives the address's view back: the list is read again for it and nothing is written; the same view reads nothing", async () => {
    const { actor, requests, writes, back, settled } = start();
    await settled();
    actor.send({ type: 'resource.page', skip: 25 });
    await settled();
    const before = { requests: requests.length, writes: writes.length };
    back({ search: '', filter: {}, sorting: { field: 'name', direction: 'asc' }, skip: 0, take: 25 });
    await settled();
    expect(actor.getSnapshot().context.skip).toBe(0);
    expect(requests.slice(before.requests)).toEqual([{ skip: 0, take: 25, sorting: 'name asc', search: undefined, filter: {} }]);
    expect(writes.length).toBe(before.writes);
    back({ search: '', filter: {}, sorting: { field: 'name', direction: 'asc' }, skip: 0, take: 25 });
    expect(actor.getSnapshot().matches({ list: 'ready' })).toBe(true);
    expect(requests.length).toBe(before.requests + 1);
  });

  it('a page past the end (an old link, a shortened list) shows the last page, and the address says so', async () => {
    const { actor, requests, writes, settled } = start({ skip: 990, take: 10 }, (r) => (r.skip >= 23 ? page(23, 0) : page(23, 3)));
    await settled();
    expect(requests.map((r) => r.skip)).toEqual([990, 20]);
    expect(actor.getSnapshot().context.rows.length).toBe(3);
    expect(writes).toEqual([{ history: 'replace', view: expect.objectContaining({ skip: 20, take: 10 }) }]);
  });
});

describe("the address's text of a list's view", () => {
  it('reads and writes search, filters, sorting, page and page size', () => {
    const view: ResourceView = { search: 'Mango', filter: { isActive: false }, sorting: { field: 'percent', direction: 'desc' }, skip: 20, take: 10 };
    const search = searchWithView('', view, TAX);
    expect(search).toBe('?q=Mango&isActive=false&sort=percent.desc&page=3&size=10');
    expect(viewFromSearch(search, TAX)).toEqual(view);
    // the default is left out
    expect(searchWithView('', { search: '', filter: {}, sorting: { field: 'name', direction: 'asc' }, skip: 0, take: 25 }, TAX)).toBe('');
  });

  it('keeps a day filter as the brand\'s day, a server option as its id', () => {
    const view = viewFromSearch('?fromDate=2026-11-01&toDate=2026-11-07&brandId=7&refund=requested', PAYMENTS);
    // Kuwait's days (UTC+3): From is the day's start, To the next day's start
    expect(view.filter).toEqual({ fromDate: '2026-10-31T21:00:00.000Z', toDate: '2026-11-07T21:00:00.000Z', brandId: 7, refund: 'requested' });
    expect(searchWithView('', view, PAYMENTS)).toBe('?fromDate=2026-11-01&toDate=2026-11-07&brandId=7&refund=requested');
  });

  it('ignores what it does not know or cannot read: the default stands, nothing throws', () => {
    const bad = '?q=%20%20&isActive=maybe&sort=secret.desc&page=-3&size=7&fromDate=2026-02-31&toDate=yesterday&brandId=7x&refund=lost&junk=1';
    expect(viewFromSearch(bad, TAX)).toEqual({ search: '', filter: {}, sorting: { field: 'name', direction: 'asc' }, skip: 0, take: 25 });
    expect(viewFromSearch(bad, PAYMENTS).filter).toEqual({});
    for (const page of ['abc', '1.5', '0', '1e9', '']) expect(viewFromSearch(`?page=${page}`, TAX).skip).toBe(0);
    expect(viewFromSearch('?sort=name.sideways', TAX).sorting).toEqual({ field: 'name', direction: 'asc' });
    expect(viewFromSearch('%%%', TAX).skip).toBe(0);
  });

  it('lists sharing a page keep their keys apart by a prefix; the others\' keys are kept', () => {
    const brands = { ...TAX, prefix: 'brand' };
    const search = searchWithView('?q=own&tab=reset', { search: 'x', filter: {}, sorting: null, skip: 25, take: 25 }, brands);
    expect(search).toBe('?q=own&tab=reset&brand.q=x&brand.page=2');
    expect(viewFromSearch(search, brands).search).toBe('x');
    expect(viewFromSearch(search, TAX).search).toBe('own');
  });
});

describe('the address port bound to the browser (jsdom)', () => {
  afterEach(() => window.history.replaceState(null, '', '/'));

  it('writes the view into the address, one history entry per step, and follows Back', async () => {
    window.history.replaceState(null, '', '/brands/taxes/7?q=v');
    const requests: PageRequest[] = [];
    const machine = provideAddress(resourceMachine.provide({
      actors: { loadPage: fromPromise(async ({ input }) => { requests.push(input); return page(100); }) },
    }), TAX);
    const actor = createActor(machine, { input: { fields, sorting: taxScreen.defaultSorting, view: viewFromSearch(window.location.search, TAX) } }).start();
    await waitFor(actor, (s) => s.matches({ list: 'ready' }));
    const entries = window.history.length;
    actor.send({ type: 'resource.filter', filter: { isActive: true } });
    actor.send({ type: 'resource.page', skip: 25 });
    expect(window.location.search).toBe('?q=v&isActive=true&page=2');
    expect(window.history.length).toBe(entries + 2);
    actor.send({ type: 'resource.search', search: 'va' });
    actor.send({ type: 'resource.search', search: 'vat' });
    expect(window.location.search).toBe('?q=vat&isActive=true');
    expect(window.history.length).toBe(entries + 3);

    // Back: the browser has put the earlier address back and says so
    window.history.replaceState(null, '', '/brands/taxes/7?q=v&isActive=true&page=2');
    window.dispatchEvent(new PopStateEvent('popstate'));
    await waitFor(actor, (s) => s.matches({ list: 'ready' }) && s.context.skip === 25);
    expect(requests.at(-1)).toEqual({ skip: 25, take: 25, sorting: 'name asc', search: 'v', filter: { isActive: true } });
    expect(window.location.search).toBe('?q=v&isActive=true&page=2');
    actor.stop();
  });

  it("a page's tab: the first is the default, a choice is a history entry, Back comes back to it", () => {
    window.history.replaceState(null, '', '/ValidationCode?tab=nonsense&code.q=1');
    const kinds = ['register', 'reset'] as const;
    const { result } = renderHook(() => useUrlTab(kinds));
    expect(result.current[0]).toBe('register');
    act(() => result.current[1]('reset'));
    expect(result.current[0]).toBe('reset');
    // the other tab's list starts afresh
    expect(window.location.search).toBe('?tab=reset');
    act(() => {
      window.history.replaceState(null, '', '/ValidationCode?code.q=1');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    expect(result.current[0]).toBe('register');
  });
});
