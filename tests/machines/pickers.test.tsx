import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fireEvent, waitFor, within } from '@testing-library/react';
import { startServerProcess, type ServerProcess } from '../support/serverProcess';
import { renderApp, resetBrowser, screen } from '../support/renderApp';

/**
 * Issue 23's pickers in the real console (jsdom) against a real server process: the brand
 * manager's "New request" on /CustomerRequest finds a customer by phone or name among the
 * customers the server lets them see, picks with the keyboard, shows name and phone, and Escape
 * puts the chosen name back without closing the form. (The Chromium story at 1440 and 1024 px is
 * tests/e2e/loyalty-pickers.test.ts.)
 */
let server: ServerProcess;
beforeAll(async () => {
  server = await startServerProcess();
  const admin = (await server.api.post('/api/TokenAuth/Authenticate', { body: { userNameOrEmailAddress: 'admin', password: '123qwe' } })).body.result.accessToken;
  // A customer of another company's brand: not the brand manager's to see.
  const res = await server.api.post('/api/services/app/Customer/Registrate', { token: admin, body: { brandId: 8, phoneNumber: '+96550000077', fullName: 'Dune Only' } });
  expect(res.status).toBe(200);
}, 180_000);
afterAll(async () => { await server?.close(); });

async function signedIn(login: string, path: string) {
  resetBrowser();
  const res = await server.api.post('/api/TokenAuth/Authenticate', { body: { userNameOrEmailAddress: login, password: '123qwe' } });
  localStorage.setItem('token', res.body.result.accessToken);
  localStorage.setItem('userId', String(res.body.result.userId));
  renderApp(server, path);
}

describe('the customer picker', () => {
  it('finds by phone or name in the caller scope, picks with the keyboard, shows name and phone', async () => {
    await signedIn('brandmanager', '/CustomerRequest');
    fireEvent.click(await screen.findByRole('button', { name: 'New request' }, { timeout: 90_000 }));
    const form = await screen.findByRole('form', { name: 'New request' });
    const customer = within(form).getByRole('combobox', { name: /Customer/ }) as HTMLInputElement;
    const brand = within(form).getByRole('combobox', { name: /Brand/ }) as HTMLInputElement;
    await waitFor(() => expect(brand.value).toBe('Mango Coffee'), { timeout: 20_000 });

    fireEvent.change(customer, { target: { value: 'Dune' } });
    await screen.findByText('No customer of yours matches.', undefined, { timeout: 20_000 });

    fireEvent.change(customer, { target: { value: '50000001' } });
    const option = await screen.findByRole('option', { name: /Sara Customer/ }, { timeout: 20_000 });
    expect(option.textContent).toContain('+96550000001');
    expect(customer.getAttribute('aria-activedescendant')).toBe(option.id);
    fireEvent.keyDown(customer, { key: 'Enter' });
    await waitFor(() => expect(customer.value).toBe('Sara Customer · +96550000001'));
    expect(screen.queryByRole('listbox')).toBeNull();

    // Typing again and Escape: the list closes, the chosen name is back, the form stays open.
    fireEvent.change(customer, { target: { value: 'zzz' } });
    await screen.findByRole('listbox');
    fireEvent.keyDown(customer, { key: 'Escape' });
    expect(customer.value).toBe('Sara Customer · +96550000001');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(screen.getByRole('form', { name: 'New request' })).toBeTruthy();
  }, 180_000);
});
