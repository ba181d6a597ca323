import { afterAll, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, cleanup } from '@testing-library/react';
import { renderApp, resetBrowser } from '../support/renderApp';
import { useServerProcess } from '../support/harness';

/**
 * "Sign out everywhere" in the console's user menu and on the shop's profile (issue 20): the server
 * ends every session of the user (a token taken before, as another device holds it, is refused),
 * and this one signs out, back to sign-in. Real app, real server.
 */
const server = useServerProcess();
afterAll(async () => { cleanup(); });

const path = () => window.location.pathname;
async function login(user: string) {
  const form = await screen.findByRole('button', { name: 'Sign in' });
  fireEvent.change(screen.getByLabelText(/User name, e-mail or phone/), { target: { value: user } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: '123qwe' } });
  fireEvent.click(form);
}
const profileStatus = async (token: string, id: number) =>
  (await server.api.get('/api/services/app/User/Get', { token, query: { Id: id } })).status;

describe('sign out everywhere', () => {
  it('from the console user menu: the other device is refused and this one is back at sign-in', async () => {
    const otherDevice = await server.api.login('brandmanager');
    resetBrowser();
    renderApp(server, '/login');
    await login('brandmanager');
    await waitFor(() => expect(path()).toBe('/dashboard'));
    const own = localStorage.getItem('token')!;
    fireEvent.click(await screen.findByRole('button', { name: 'User menu' }));
    fireEvent.click(await screen.findByText('Sign out everywhere'));
    await waitFor(() => expect(path()).toBe('/login'));
    await screen.findByRole('button', { name: 'Sign in' });
    expect(localStorage.getItem('token')).toBeNull();
    expect(await profileStatus(otherDevice, 3)).toBe(401);
    expect(await profileStatus(own, 3)).toBe(401);
  });

  it('from the shop profile: the other device is refused and this one is back at sign-in', async () => {
    const otherDevice = await server.api.login('customer');
    resetBrowser();
    renderApp(server, '/login');
    await login('+96550000001');
    await waitFor(() => expect(path()).toBe('/profile'));
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out everywhere' }));
    await waitFor(() => expect(localStorage.getItem('token')).toBeNull());
    await waitFor(() => expect(path()).toBe('/login'));
    expect(await profileStatus(otherDevice, 5)).toBe(401);
  });
});
