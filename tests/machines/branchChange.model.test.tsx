import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise, waitFor as waitForActor } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { startServerProcess, type ServerProcess } from '../support/serverProcess';
import { navigateTo, renderApp, resetBrowser } from '../support/renderApp';
import { addToCart, path, serverProduct, storedCart, type ServerProduct } from '../support/shopUi';
import { branchChangeMachine, selectSelection, type BrandSummary } from '../../machines/branchChange';
import { TEXT, TIMINGS } from '../../domain/constants';

/**
 * Model of changing the branch as the customer lives it, in the real picker and menu against a
 * real server. Events are real clicks; states check what the customer sees (the dialog, the
 * menu of the chosen branch, the cart), where the browser is, and what is stored.
 * Brand 7 has one branch (Salmiya, 1); brand 8 has Kuwait City (2) and Jabriya (3).
 */
const model = createTestModel(createMachine({
  id: 'branchChangeModel',
  initial: 'salmiyaMenu',
  states: {
    salmiyaMenu: { on: { PICK_JABRIYA: 'jabriyaProducts', ADD_CAPPUCCINO: 'salmiyaWithCart' } },
    salmiyaWithCart: { on: { PICK_JABRIYA: 'confirming', PICK_SALMIYA: 'salmiyaProductsWithCart' } },
    confirming: { on: { CANCEL: 'salmiyaWithCart', CONFIRM: 'jabriyaProducts' } },
    salmiyaProductsWithCart: {},
    jabriyaProducts: { on: { PICK_SALMIYA: 'salmiyaProducts' } },
    salmiyaProducts: {},
  },
}));

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

describe('branch change (model-based, real picker and menu, real server)', () => {
  const paths = model.getShortestPaths();
  it('covers every state of the model, and the real machine has its states', () => {
    const reached = new Set(paths.flatMap((p) => [p.state.value, ...p.steps.map((s) => s.state.value)] as string[]));
    expect([...reached].sort()).toEqual(['confirming', 'jabriyaProducts', 'salmiyaMenu', 'salmiyaProducts', 'salmiyaProductsWithCart', 'salmiyaWithCart']);
    expect(Object.keys(branchChangeMachine.config.states!)).toEqual(['loadingBrands', 'ready']);
  });

  for (const p of paths) {
    it(p.description, async () => {
      resetBrowser();
      renderApp(server, '/');
      await p.test({
        states: {
          salmiyaMenu: async () => {
            await expectMenuOf('Salmiya');
            expect(screen.queryByRole('link', { name: /View Cart/ })).toBeNull();
          },
          salmiyaWithCart: async () => {
            await expectMenuOf('Salmiya');
            expect(dialog()).toBeNull();
            expectCartOfOneCappuccino();
            expect(screen.getByRole('link', { name: /View Cart/ })).toBeTruthy();
          },
          confirming: async () => {
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
          salmiyaProductsWithCart: async () => {
            await expectOnProductsAfterTheDelay();
            expect(dialog()).toBeNull();
            await expectMenuOf('Salmiya');
            expectCartOfOneCappuccino();
            expectStored(7, 1);
          },
          jabriyaProducts: async () => {
            await expectOnProductsAfterTheDelay();
            await expectMenuOf('Jabriya');
            expect(dialog()).toBeNull();
            // The cart is cleared on a branch change.
            expect(storedCart()).toEqual([]);
            expect(screen.queryByRole('link', { name: /View Cart/ })).toBeNull();
            expectStored(8, 3);
          },
          salmiyaProducts: async () => {
            await expectOnProductsAfterTheDelay();
            await expectMenuOf('Salmiya');
            expect(storedCart()).toEqual([]);
            expectStored(7, 1);
          },
        },
        events: {
          PICK_JABRIYA: () => pick(/Dune Bakery/, /Jabriya/),
          PICK_SALMIYA: () => pick(/Mango Coffee/, /Salmiya/),
          ADD_CAPPUCCINO: async () => {
            await addToCart(cappuccino, ['Large']);
            navigateTo('/');
          },
          CANCEL: () => { fireEvent.click(within(dialog()!).getByRole('button', { name: 'Cancel' })); },
          CONFIRM: () => {
            pickedAt = Date.now();
            fireEvent.click(within(dialog()!).getByRole('button', { name: 'Confirm' }));
          },
        },
      });
    });
  }
});

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
