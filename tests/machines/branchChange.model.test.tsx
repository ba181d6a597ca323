import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assign, createActor, fromPromise, waitFor as waitForActor } from 'xstate';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { startServerProcess, type ServerProcess } from '../support/serverProcess';
import { navigateTo, renderApp, resetBrowser } from '../support/renderApp';
import { addToCart, path, serverProduct, storedCart, type ServerProduct } from '../support/shopUi';
import { branchChangeMachine, selectSelection, type BranchChangeContext, type BrandSummary } from '../../machines/branchChange';
import { describeModel, type ModelPath } from '../support/describeModel';
import { TEXT, TIMINGS } from '../../domain/constants';

/**
 * Changing the branch as the customer lives it, generated from the real branch change machine
 * (machines/branchChange.ts), in the real picker and menu against a real server. Each path starts
 * with one Cappuccino in the cart at Salmiya; the machine's events are real clicks, the brands
 * are the server's, and its wait before /products is the real one. The cart is the machine's port
 * (`cartHoldsItems`, `clearCart`); the model keeps it as a flag, so a cleared cart stays cleared.
 * States check what the customer sees (the dialog, the menu of the chosen branch, the cart),
 * where the browser is, and what is stored. Brand 7 has one branch (Salmiya, 1); brand 8 has
 * Kuwait City (2) and Jabriya (3).
 */
const SALMIYA = { type: 'branch.pick', brandId: 7, branchId: 1, currency: 'KD' };
const JABRIYA = { type: 'branch.pick', brandId: 8, branchId: 3, currency: 'KD' };
const BRANDS: BrandSummary[] = [
  { id: 7, name: 'Mango Coffee', currency: 'KD', branches: [{ id: 1, name: 'Salmiya' }] },
  { id: 8, name: 'Dune Bakery', currency: 'KD', branches: [{ id: 2, name: 'Kuwait City' }, { id: 3, name: 'Jabriya' }] },
];
type ModelContext = BranchChangeContext & { cartCleared?: boolean };
/** The real machine, its cart port kept in the model: the cart holds the Cappuccino until a branch change clears it. */
const withCartPort = (machine: typeof branchChangeMachine) => machine.provide({
  guards: { cartHoldsItems: ({ context }) => !(context as ModelContext).cartCleared },
  actions: { clearCart: assign({ cartCleared: true } as never) },
});

let server: ServerProcess;
let cappuccino: ServerProduct;
beforeAll(async () => {
  server = await startServerProcess();
  cappuccino = await serverProduct(server, 'Cappuccino');
});
afterAll(async () => { cleanup(); await server?.close(); });

/** When the last pick was made: /products must follow after TIMINGS.branchPickNavigateMs, not before. */
let pickedAt = 0;

async function pick(brand: RegExp, branch: RegExp) {
  if (path() !== '/') navigateTo('/');
  const head = await screen.findByRole('button', { name: brand });
  if (head.getAttribute('aria-expanded') !== 'true') fireEvent.click(head);
  pickedAt = Date.now();
  fireEvent.click(await screen.findByRole('button', { name: branch }));
  expect(path()).toBe('/');
}

async function expectMenuOf(branch: 'Salmiya' | 'Jabriya') {
  const list = await screen.findByTestId('product-list');
  const [shown, hidden] = branch === 'Salmiya' ? ['Cappuccino', 'Karak Tea'] : ['Karak Tea', 'Cappuccino'];
  await within(list).findByText(shown);
  expect(within(screen.getByTestId('product-list')).queryByText(hidden)).toBeNull();
  // The heading follows the selection, which the list query may beat by a render.
  await screen.findByRole('heading', { name: branch === 'Salmiya' ? 'Mango Coffee · Salmiya' : 'Dune Bakery · Jabriya' });
}

function expectStored(brandId: number, branchId: number) {
  expect([localStorage.getItem('brandId'), localStorage.getItem('branchId'), localStorage.getItem('currency')]).toEqual([String(brandId), String(branchId), 'KD']);
}

async function expectOnProductsAfterTheDelay() {
  await waitFor(() => expect(path()).toBe('/products'), { timeout: TIMINGS.branchPickNavigateMs + 3000 });
  expect(Date.now() - pickedAt).toBeGreaterThanOrEqual(TIMINGS.branchPickNavigateMs - 50);
}

const dialog = () => screen.queryByRole('dialog', { name: TEXT.changeBranchTitle });
const expectCartOfOneCappuccino = () => expect(storedCart().map((i) => [i.product.id, i.product.Quantity])).toEqual([[cappuccino.id, 2]]);

type Snap = { context: ModelContext };
const branchName = (s: Snap) => (s.context.selection.branchId === 1 ? 'Salmiya' : 'Jabriya');

describeModel('branch change (model-based on the real machine, real picker and menu, real server)', {
  machine: withCartPort(branchChangeMachine),
  input: { selection: { brandId: 7, branchId: 1, currency: 'KD' } },
  events: [SALMIYA, JABRIYA],
  answers: { loadBrands: { done: [BRANDS] } },
  // Reloading the brands is the picker's retry after an error, which this server does not give;
  // the customer waits for the menu (a second pick within the second before /products is a race, not a journey).
  filterEvents: (s: { matches(v: unknown): boolean }, e: { type: string }) => e.type !== 'brands.reload' && !(e.type === 'branch.pick' && s.matches({ ready: 'navigating' })),
  serialize: (s: { value: unknown } & Snap) => [s.value, s.context.selection.branchId, s.context.pending?.branchId, !!s.context.cartCleared],
  // Every transition, so Cancel (back to a state seen before) is walked too.
  cover: 'transitions',
  start: async () => {
    resetBrowser();
    renderApp(server, '/');
    await addToCart(cappuccino, ['Large']);
    navigateTo('/');
  },
  // Each walk unmounts its view, so nothing it started outlives it (tests/support/leakWatch.ts); a walk
  // that failed half-way first lets the requests it left in flight come back.
  stop: async (_: unknown, walk: { failed: boolean }) => { if (walk.failed) await new Promise((r) => setTimeout(r, 2000)); cleanup(); },
  steps: {
    'loadBrands.done': () => {},
    'branch.pick': (_: void, step: { event: { branchId?: unknown } }) => (step.event.branchId === 1 ? pick(/Mango Coffee/, /Salmiya/) : pick(/Dune Bakery/, /Jabriya/)),
    'branch.cancel': () => { fireEvent.click(within(dialog()!).getByRole('button', { name: 'Cancel' })); },
    'branch.confirm': () => {
      pickedAt = Date.now();
      fireEvent.click(within(dialog()!).getByRole('button', { name: 'Confirm' }));
    },
    // The machine's own wait: /products follows after TIMINGS.branchPickNavigateMs, not before.
    'after.branchPickNavigate': expectOnProductsAfterTheDelay,
  },
  states: {
    'ready.idle': async (_: void, s: Snap) => {
      await expectMenuOf(branchName(s));
      expect(dialog()).toBeNull();
      if (s.context.cartCleared) {
        // The cart is cleared on a branch change.
        expect(storedCart()).toEqual([]);
        expect(screen.queryByRole('link', { name: /View Cart/ })).toBeNull();
      } else {
        expectCartOfOneCappuccino();
        expect(screen.getByRole('link', { name: /View Cart/ })).toBeTruthy();
      }
    },
    'ready.confirming': async () => {
      const d = await screen.findByRole('dialog', { name: TEXT.changeBranchTitle });
      expect(within(d).getByRole('heading').textContent).toBe(TEXT.changeBranchTitle);
      expect(d.textContent).toMatch(/remove items from your cart.*menu may differ/);
      expect(within(d).getAllByRole('button').map((b) => b.textContent)).toEqual(['Cancel', 'Confirm']);
      // Nothing has changed yet, and the browser stays where it is.
      expectCartOfOneCappuccino();
      expect(path()).toBe('/');
      await new Promise((r) => setTimeout(r, TIMINGS.branchPickNavigateMs + 200));
      expect(path()).toBe('/');
    },
    // Picked: the choice is stored at once, the dialog is gone, and the browser has not moved yet.
    'ready.navigating': (_: void, s: Snap) => {
      expect(dialog()).toBeNull();
      expect(path()).toBe('/');
      expectStored(s.context.selection.brandId, s.context.selection.branchId);
      if (s.context.cartCleared) expect(storedCart()).toEqual([]);
      else expectCartOfOneCappuccino();
    },
  },
  mustVisit: ['branchChange.ready.idle', 'branchChange.ready.confirming', 'branchChange.ready.navigating'],
  minPaths: 3,
  broken: [{
    // A machine that never asks before emptying the cart: the model skips the dialog the view shows.
    name: 'a machine that does not ask before clearing the cart',
    spec: { machine: withCartPort(branchChangeMachine).provide({ guards: { cartHoldsItems: () => false } }) },
    pick: (p: ModelPath) => p.steps.some((s) => s.event.type === 'branch.pick' && s.event.branchId === 3),
    failsWith: /expected|Unable to find/,
  }],
} as never);

describe('branch change: the brands as loaded', () => {
  const brand = (id: number, branches: number[]): BrandSummary => ({ id, name: `Brand ${id}`, currency: 'KD', branches: branches.map((b) => ({ id: b, name: `Branch ${b}` })) });
  async function start(brands: BrandSummary[], selection = { brandId: 7, branchId: 1, currency: 'KD' }) {
    const log: string[] = [];
    const actor = createActor(branchChangeMachine.provide({
      actors: { loadBrands: fromPromise(async () => brands) },
      actions: { clearCart: () => { log.push('clearCart'); }, persistSelection: (_, s) => { log.push(`persist ${s.brandId}/${s.branchId}`); } },
    }), { input: { selection } }).start();
    await waitForActor(actor, (s) => s.matches('ready'));
    return { selection: selectSelection(actor.getSnapshot()), log };
  }

  it('selects the only branch of the only brand automatically', async () => {
    expect(await start([brand(9, [42])])).toEqual({ selection: { brandId: 9, branchId: 42, currency: 'KD' }, log: ['clearCart', 'persist 9/42'] });
  });
  it('keeps the stored choice when there is more to choose from', async () => {
    expect(await start([brand(7, [1]), brand(8, [2, 3])], { brandId: 8, branchId: 3, currency: 'KD' })).toEqual({ selection: { brandId: 8, branchId: 3, currency: 'KD' }, log: [] });
  });
  it('replaces a stored branch that is not in the stored brand, with its cart', async () => {
    expect(await start([brand(7, [1]), brand(8, [2, 3])], { brandId: 8, branchId: 1, currency: 'KD' })).toEqual({ selection: { brandId: 8, branchId: 2, currency: 'KD' }, log: ['clearCart', 'persist 8/2'] });
  });
});
