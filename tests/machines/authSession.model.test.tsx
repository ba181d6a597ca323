import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMachine } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { fireEvent, screen, waitFor, cleanup } from '@testing-library/react';
import { startServerProcess, type ServerProcess } from '../support/serverProcess';
import { navigateTo, renderApp, resetBrowser } from '../support/renderApp';
import { authSessionMachine } from '../../machines/authSession';
import { menuFor } from '../../src/console/pages';
import { TEXT } from '../../domain/constants';

/**
 * Model of the auth session as the user lives it. Each event is a real action in the real
 * login view against a real server; each state checks what the user sees (and what is stored).
 * The model's events stand for the outcomes of the machine's actors (authenticate, loadProfile).
 */
const model = createTestModel(createMachine({
  id: 'authSessionModel',
  initial: 'signedOut',
  states: {
    signedOut: { on: { LOGIN_STAFF: 'staffHome', LOGIN_CUSTOMER: 'customerHome', LOGIN_WRONG: 'loginRefused' } },
    loginRefused: { on: { LOGIN_STAFF: 'staffHome' } },
    staffHome: { on: { LOGOUT: 'signedOut', TOKEN_REJECTED: 'expired', RELOAD: 'staffRestored' } },
    staffRestored: { on: { LOGOUT: 'signedOut' } },
    customerHome: { on: { LOGOUT: 'signedOut', RELOAD: 'customerRestored' } },
    customerRestored: {},
    expired: { on: { LOGIN_CUSTOMER: 'customerHome' } },
  },
}));

let server: ServerProcess;
beforeAll(async () => { server = await startServerProcess(); });
afterAll(async () => { cleanup(); await server?.close(); });

const path = () => window.location.pathname;
const stored = (k: string) => localStorage.getItem(k);

async function login(user: string, password = '123qwe') {
  const form = await screen.findByRole('button', { name: 'Sign in' });
  fireEvent.change(screen.getByLabelText(/User name, e-mail or phone/), { target: { value: user } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
  fireEvent.click(form);
}

async function expectSignedOut() {
  await waitFor(() => expect(path()).toBe('/login'));
  await screen.findByRole('button', { name: 'Sign in' });
  expect(stored('token')).toBeNull();
  expect(stored('userId')).toBeNull();
  expect(stored('role')).toBeNull();
}

async function expectStaffHome() {
  await waitFor(() => expect(path()).toBe('/dashboard'));
  await screen.findByText('Welcome, Amal Admin');
  // the side menu follows the permission table for ADMIN
  for (const r of menuFor('ADMIN')) expect(screen.getAllByText(r.menu!.label).length).toBeGreaterThan(0);
  expect(stored('token')).toMatch(/^ey/);
  expect(stored('userId')).toBe('1');
  expect(stored('branchId')).toBe('1');
  expect(stored('role')).toBe('ADMIN');
}

async function expectCustomerHome() {
  await waitFor(() => expect(path()).toBe('/profile'));
  expect((await screen.findByTestId('profile-name')).textContent).toBe('Sara Customer');
  expect(stored('userId')).toBe('5');
  expect(stored('role')).toBe('CUSTOMER');
}

const reload = () => { cleanup(); renderApp(server, path()); };

describe('auth session (model-based, real login view, real server)', () => {
  const paths = model.getShortestPaths();
  it('covers every state of the model', () => {
    const reached = new Set(paths.flatMap((p) => [p.state.value, ...p.steps.map((s) => s.state.value)] as string[]));
    expect([...reached].sort()).toEqual(['customerHome', 'customerRestored', 'expired', 'loginRefused', 'signedOut', 'staffHome', 'staffRestored']);
    // The real machine has the states the model stands for.
    expect(Object.keys(authSessionMachine.config.states!)).toEqual(['restoring', 'signedOut', 'authenticating', 'loadingProfile', 'signedIn']);
  });

  for (const p of paths) {
    it(p.description, async () => {
      resetBrowser();
      renderApp(server, '/login');
      await p.test({
        states: {
          signedOut: expectSignedOut,
          loginRefused: async () => {
            expect((await screen.findByRole('alert')).textContent).toBe('Invalid user name or password');
            expect(path()).toBe('/login');
            expect(stored('token')).toBeNull();
          },
          staffHome: expectStaffHome,
          staffRestored: expectStaffHome,
          customerHome: expectCustomerHome,
          customerRestored: expectCustomerHome,
          expired: async () => {
            await waitFor(() => expect(path()).toBe('/login'));
            expect((await screen.findAllByText(TEXT.authFailed)).length).toBeGreaterThan(0);
            expect(stored('token')).toBeNull();
            expect(stored('role')).toBeNull();
          },
        },
        events: {
          LOGIN_STAFF: () => login('admin'),
          LOGIN_CUSTOMER: () => login('+96550000001'),
          LOGIN_WRONG: () => login('admin', 'wrong-password'),
          LOGOUT: async () => {
            if (path() === '/profile') fireEvent.click(await screen.findByRole('button', { name: 'Logout' }));
            else {
              fireEvent.click(await screen.findByRole('button', { name: 'User menu' }));
              fireEvent.click(await screen.findByText('Logout'));
            }
            navigateTo('/login');
          },
          RELOAD: reload,
          // The server stops honouring the token; the next call answers 401.
          TOKEN_REJECTED: () => {
            localStorage.setItem('token', 'revoked.token.value');
            navigateTo('/');
          },
        },
      });
    });
  }
});
