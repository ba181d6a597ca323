import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@testing-library/react';
import { startServerProcess, type ServerProcess } from '../support/serverProcess';
import { renderApp, resetBrowser, screen } from '../support/renderApp';
import { pluralOf } from '../../src/console/resources/plural';

/**
 * Issue 23's copy of the generic resource screen (issue 22 moved it onto the server's declarations):
 * an empty list says "No taxes" (not "No taxs"), its pager "0 taxes" (not "None"), and a sub-page
 * names the brand or branch it edits. Real app in jsdom, real server process, fresh database.
 */
let server: ServerProcess;
let admin: { token: string; userId: number };
beforeAll(async () => {
  server = await startServerProcess();
  const res = await server.api.post('/api/TokenAuth/Authenticate', { body: { userNameOrEmailAddress: 'admin', password: '123qwe' } });
  admin = { token: res.body.result.accessToken, userId: res.body.result.userId };
});
afterAll(async () => { await server?.close(); });

async function open(path: string, heading: string) {
  resetBrowser();
  localStorage.setItem('token', admin.token);
  localStorage.setItem('userId', String(admin.userId));
  renderApp(server, path);
  await screen.findAllByRole('heading', { name: heading }, { timeout: 90_000 });
}
/** The place line of each screen on the page, once every one has its name. */
const parents = () => [...document.querySelectorAll('[data-testid="resource-parent"]')].map((e) => e.textContent);
const emptyTitles = () => [...document.querySelectorAll('.resource-empty .bp6-heading')].map((e) => e.textContent);
const pagers = () => [...document.querySelectorAll('.resource-pager [aria-live]')].map((e) => e.textContent);

describe('the generic resource screen names things in plain English', () => {
  it('makes plurals by the English rule', () => {
    expect(['tax', 'company', 'branch', 'day', 'delivery fee', 'address field', 'payment method', 'constant discount', 'purchases collection'].map(pluralOf))
      .toEqual(['taxes', 'companies', 'branches', 'days', 'delivery fees', 'address fields', 'payment methods', 'constant discounts', 'purchases collections']);
  });

  it('a brand without taxes: "No taxes", a pager of "0 taxes", and the brand named', async () => {
    // Dune Bakery (brand 8) has no tax in the seed.
    await open('/brands/taxes/8', 'Brand Taxes');
    await waitFor(() => expect(emptyTitles()).toEqual(['No taxes']), { timeout: 30_000 });
    expect(pagers()).toEqual(['0 taxes']);
    await waitFor(() => expect(parents()).toEqual(['Brand: Dune Bakery']), { timeout: 30_000 });
  });

  it('the delivery fees and payments of a brand, the users and reward programs of a branch name their place', async () => {
    await open('/brands/BrandDeliveryFee/7', 'Brand Delivery Fee');
    await waitFor(() => expect(parents()).toEqual(['Brand: Mango Coffee']), { timeout: 30_000 });
    await open('/brands/payments/8', 'Brand Payments');
    await waitFor(() => expect(parents()).toEqual(['Brand: Dune Bakery']), { timeout: 30_000 });
    await open('/branches/users/3', 'Branch Users');
    await waitFor(() => expect(parents()).toEqual(['Branch: Jabriya']), { timeout: 30_000 });
    await open('/branches/reward-programs/2', 'Points collection');
    await waitFor(() => expect(parents()).toEqual(['Branch: Kuwait City', 'Branch: Kuwait City', 'Branch: Kuwait City']), { timeout: 30_000 });
    await waitFor(() => expect(emptyTitles()).toContain('No constant discounts'), { timeout: 30_000 });
  });
});
