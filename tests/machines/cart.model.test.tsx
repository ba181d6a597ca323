import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMachine } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { startServerProcess, type ServerProcess } from '../support/serverProcess';
import { navigateTo, renderApp, resetBrowser } from '../support/renderApp';
import { addToCart, cartLines, kd, lineTotal, path, serverProduct, storedCart, type ServerProduct } from '../support/shopUi';
import { cartMachine } from '../../machines/cart';
import { QUANTITY } from '../../domain/constants';

/**
 * Model of the cart as the customer lives it. Each event is a real action in the real views (the
 * product page and the cart page) against a real server; each state checks what the customer
 * sees on /cart, the badge in the header, the prices against the server's, and the cart as
 * stored in the browser (SPEC.md 3's shape).
 */
const model = createTestModel(createMachine({
  id: 'cartModel',
  initial: 'empty',
  states: {
    empty: { on: { ADD_LARGE: 'large' } },
    large: { on: { ADD_LARGE: 'largeMerged', ADD_SMALL: 'largeAndSmall', DECREMENT: 'largeAtMin', REMOVE_LARGE: 'empty', RELOAD: 'largeRestored' } },
    largeAtMin: { on: { INCREMENT: 'large' } },
    largeMerged: { on: { ADD_LARGE_69: 'largeAtMax' } },
    largeAtMax: {},
    largeAndSmall: { on: { REMOVE_LARGE: 'small' } },
    small: {},
    largeRestored: {},
  },
}));

let server: ServerProcess;
let cappuccino: ServerProduct;
beforeAll(async () => {
  server = await startServerProcess();
  cappuccino = await serverProduct(server, 'Cappuccino');
});
afterAll(async () => { cleanup(); await server?.close(); });

type Line = { size: 'Large' | 'Small'; quantity: number };

/** What /cart, the header and storage must show for these lines, priced by the server. */
async function expectCart(expected: Line[]) {
  const lines = await cartLines();
  expect(lines).toEqual(expected.map((l) => ({
    name: 'Cappuccino',
    options: l.size,
    quantity: l.quantity,
    total: kd(lineTotal(cappuccino, [cappuccino.option('Size', l.size)], l.quantity)),
  })));
  const total = expected.reduce((s, l) => s + lineTotal(cappuccino, [cappuccino.option('Size', l.size)], l.quantity), 0);
  expect(screen.getByTestId('cart-total').textContent).toBe(kd(total));
  const count = expected.reduce((n, l) => n + l.quantity, 0);
  expect(screen.getByRole('link', { name: `Cart ${count} ${count === 1 ? 'item' : 'items'}` })).toBeTruthy();

  const stored = storedCart();
  expect(stored.map((i) => ({ id: i.product.id, quantity: i.product.Quantity, options: i.selected_options }))).toEqual(expected.map((l) => ({
    id: cappuccino.id, quantity: l.quantity, options: [cappuccino.option('Size', l.size)],
  })));
  for (const item of stored) {
    expect(item.key).toMatch(/^[0-9a-f]{24}$/);
    expect(item.product).toEqual({
      id: cappuccino.id, name: 'Cappuccino', price: cappuccino.price, Quantity: item.product.Quantity,
      productImage: cappuccino.productImage, productDeliveryText: cappuccino.productDeliveryText,
    });
  }
  expect(new Set(stored.map((i) => i.key)).size).toBe(stored.length);
}

const lineOf = (size: string) => screen.getAllByTestId('cart-line').find((l) => l.querySelector('.cart-line__options')?.textContent === size)!;
const stepperButton = (size: string, name: 'Increase quantity' | 'Decrease quantity') =>
  within(lineOf(size)).getByRole('button', { name }) as HTMLButtonElement;

describe('cart (model-based, real product and cart views, real server)', () => {
  const paths = model.getShortestPaths();
  it('covers every state of the model, and the real machine has its states', () => {
    const reached = new Set(paths.flatMap((p) => [p.state.value, ...p.steps.map((s) => s.state.value)] as string[]));
    expect([...reached].sort()).toEqual(['empty', 'large', 'largeAndSmall', 'largeAtMax', 'largeAtMin', 'largeMerged', 'largeRestored', 'small']);
    expect(Object.keys(cartMachine.config.states!)).toEqual(['checking', 'empty', 'filled']);
  });

  for (const p of paths) {
    it(p.description, async () => {
      resetBrowser();
      renderApp(server, '/cart');
      await p.test({
        states: {
          empty: async () => {
            if (path() !== '/cart') navigateTo('/cart');
            await screen.findByText('Your cart is empty.');
            expect(screen.queryByTestId('cart-count')).toBeNull();
            expect(storedCart()).toEqual([]);
          },
          large: () => expectCart([{ size: 'Large', quantity: 2 }]),
          largeRestored: () => expectCart([{ size: 'Large', quantity: 2 }]),
          largeAtMin: async () => {
            await expectCart([{ size: 'Large', quantity: QUANTITY.cart.min }]);
            expect(stepperButton('Large', 'Decrease quantity').disabled).toBe(true);
          },
          // The same product with the same options is one line: the quantities add up.
          largeMerged: () => expectCart([{ size: 'Large', quantity: 4 }]),
          // ... up to the cart's maximum.
          largeAtMax: async () => {
            await expectCart([{ size: 'Large', quantity: QUANTITY.cart.max }]);
            expect(stepperButton('Large', 'Increase quantity').disabled).toBe(true);
          },
          largeAndSmall: () => expectCart([{ size: 'Large', quantity: 2 }, { size: 'Small', quantity: 2 }]),
          small: () => expectCart([{ size: 'Small', quantity: 2 }]),
        },
        events: {
          ADD_LARGE: () => addToCart(cappuccino, ['Large']),
          ADD_SMALL: () => addToCart(cappuccino, ['Small']),
          ADD_LARGE_69: () => addToCart(cappuccino, ['Large'], QUANTITY.productPage.max),
          INCREMENT: async () => {
            await cartLines();
            fireEvent.click(stepperButton('Large', 'Increase quantity'));
          },
          DECREMENT: async () => {
            await cartLines();
            fireEvent.click(stepperButton('Large', 'Decrease quantity'));
          },
          REMOVE_LARGE: async () => {
            await cartLines();
            fireEvent.click(within(lineOf('Large')).getByRole('button', { name: 'Remove Cappuccino' }));
            await waitFor(() => expect(storedCart().some((i) => i.selected_options[0]?.name === 'Large')).toBe(false));
          },
          RELOAD: () => { cleanup(); renderApp(server, '/cart'); },
        },
      });
    });
  }
});
