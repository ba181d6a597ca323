import { expect } from 'vitest';
import { createMachine } from 'xstate';
import { fireEvent, screen, waitFor, cleanup } from '@testing-library/react';
import { useServerProcess } from '../support/harness';
import { navigateTo, renderApp, resetBrowser } from '../support/renderApp';
import { authSessionMachine, type AuthContext } from '../../machines/authSession';
import { describeModel, type ModelPath } from '../support/describeModel';
import { menuFor } from '../../src/console/pages';
import { DEFAULT_BRANCH_ID, TEXT } from '../../domain/constants';

/**
 * The auth session as the user lives it, generated from the real auth session machine
 * (machines/authSession.ts), in the real app against a real server. Two walks of the same machine:
 * - signing in at /login: each user event is a real action in the real login view; the machine's
 *   actors (authenticate, loadProfile) answer as the server does for the account the step signs in
 *   with (the staff admin, the customer, or a wrong password);
 * - a session restored from storage (the machine's `restoring`): the session is made through the
 *   API, stored as the app stores it, and the app is opened on the account's home; a stored token
 *   the server no longer honours is the profile's refusal.
 * Each state checks what the user sees, and what is stored.
 */
const ADMIN = 1, CUSTOMER = 5;
const ACCOUNTS = {
  [ADMIN]: { login: 'admin', fullName: 'Amal Admin', role: 'ADMIN', home: '/dashboard' },
  [CUSTOMER]: { login: '+96550000001', fullName: 'Sara Customer', role: 'CUSTOMER', home: '/profile' },
} as const;
const profile = (id: typeof ADMIN | typeof CUSTOMER) => ({
  id, fullName: ACCOUNTS[id].fullName, emailAddress: null, phoneNumber: null, roleNames: [ACCOUNTS[id].role], companyId: null, brandId: null, branchId: null,
});
type Snap = { value: unknown; context: AuthContext; matches(v: unknown): boolean };
type Step = { event: Record<string, unknown>; next?: { key: string; event: Record<string, unknown> } };

const server = useServerProcess();

const path = () => window.location.pathname;
const stored = (k: string) => localStorage.getItem(k);
const loginForm = () => document.querySelector('form.auth-form');

async function login(user: string, password = '123qwe') {
  const submit = await screen.findByRole('button', { name: 'Sign in' });
  fireEvent.change(screen.getByLabelText(/User name, e-mail or phone/), { target: { value: user } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
  fireEvent.click(submit);
}
/** The server answered the sign-in: the login form is no longer busy (or is gone). */
const answered = () => waitFor(() => expect(loginForm()?.getAttribute('aria-busy') ?? 'false').toBe('false'));

async function expectSignedOut(s: Snap) {
  await waitFor(() => expect(path()).toBe('/login'));
  await screen.findByRole('button', { name: 'Sign in' });
  expect(stored('token')).toBeNull();
  expect(stored('userId')).toBeNull();
  expect(stored('role')).toBeNull();
  // The machine's error, as the view words it: an expired session's notice, a refusal beside the form, or none.
  if (s.context.error === TEXT.authFailed) expect((await screen.findAllByText(TEXT.authFailed)).length).toBeGreaterThan(0);
  else if (s.context.error) expect((await screen.findByRole('alert')).textContent).toBe(s.context.error);
  else expect(screen.queryByRole('alert')).toBeNull();
}

async function expectHome(s: Snap) {
  const id = s.context.userId as typeof ADMIN | typeof CUSTOMER;
  const account = ACCOUNTS[id];
  await waitFor(() => expect(path()).toBe(account.home));
  if (id === ADMIN) {
    await screen.findByText(`Welcome, ${account.fullName}`);
    // the side menu follows the console's route table for the role
    for (const r of menuFor(account.role)) expect(screen.getAllByText(r.menu!.label).length).toBeGreaterThan(0);
    expect(stored('token')).toMatch(/^ey/);
    expect(stored('branchId')).toBe('1');
  } else {
    expect((await screen.findByTestId('profile-name')).textContent).toBe(account.fullName);
  }
  expect(stored('userId')).toBe(String(id));
  expect(stored('role')).toBe(account.role);
}

// Each walk unmounts its view, so nothing it started outlives it (tests/support/leakWatch.ts); a walk
// that failed half-way first lets the requests it left in flight come back.
const stop = async (_: unknown, walk: { failed: boolean }) => { if (walk.failed) await new Promise((r) => setTimeout(r, 2000)); cleanup(); };
const states = {
  signedOut: (_: void, s: Snap) => expectSignedOut(s),
  // The sign-in is on its way: the form says so (checked at once after the click, before any answer can come).
  authenticating: () => {
    expect(loginForm()?.getAttribute('aria-busy')).toBe('true');
    expect(screen.getByRole('button', { name: 'Signing in…' })).toBeTruthy();
  },
  signedIn: (_: void, s: Snap) => expectHome(s),
};

const signInModel = {
  machine: authSessionMachine,
  input: { token: null, userId: null },
  events: [{ type: 'auth.login', credentials: { userNameOrEmailAddress: 'someone', password: 'secret' } }],
  answers: {
    authenticate: { done: [{ accessToken: 'token', userId: ADMIN }, { accessToken: 'token', userId: CUSTOMER }], error: [new Error('Invalid user name or password')] },
    loadProfile: { done: (s: Snap) => [profile(s.context.userId as typeof ADMIN | typeof CUSTOMER)] },
  },
  // The guest's sign-in and a registration's token are the shop's journeys (checkout, registration);
  // a customer's revoked token is not asked about until an order is placed; switching accounts goes through /login only when signed out.
  filterEvents: (s: Snap, e: { type: string }) => !['auth.guest', 'auth.tokenReceived'].includes(e.type)
    && !(e.type === 'auth.unauthorized' && s.context.userId !== ADMIN)
    && !(e.type === 'auth.login' && s.matches('signedIn')),
  serialize: (s: Snap) => [s.value, s.context.userId, s.context.error],
  // Every transition (signing out returns to a state seen before): 4 paths, 12 steps.
  cover: 'transitions',
  // `restoring` decides at once; with nothing stored it is never a state of this walk (the restored walk below has it).
  mustVisit: ['authSession.signedOut', 'authSession.authenticating', 'authSession.loadingProfile', 'authSession.signedIn'],
  start: () => { resetBrowser(); renderApp(server, '/login'); },
  stop,
  steps: {
    // Signs in as the account whose answer the path asks for.
    'auth.login': (_: void, step: Step) => {
      const next = step.next;
      if (next?.key === 'authenticate.error') return login('admin', 'wrong-password');
      return login(ACCOUNTS[(next?.event.output as { userId: typeof ADMIN } | undefined)?.userId ?? ADMIN].login);
    },
    'authenticate.done': () => {}, 'authenticate.error': answered, 'loadProfile.done': () => {},
    'auth.logout': async () => {
      if (path() === '/profile') fireEvent.click(await screen.findByRole('button', { name: 'Logout' }));
      else {
        fireEvent.click(await screen.findByRole('button', { name: 'User menu' }));
        fireEvent.click(await screen.findByText('Logout'));
      }
      navigateTo('/login');
    },
    // The server stops honouring the token; the next call answers 401.
    'auth.unauthorized': () => {
      localStorage.setItem('token', 'revoked.token.value');
      navigateTo('/');
    },
  },
  states,
};

/**
 * A machine that drops the server's refusal (authenticating's onError keeps no message): the model
 * expects the login form without an alert once the server answered; the view shows 'Invalid user name or password'.
 */
const config = authSessionMachine.config as { states: Record<string, { invoke?: object }> };
const dropsRefusal = createMachine({
  ...authSessionMachine.config,
  states: { ...config.states, authenticating: { ...config.states.authenticating, invoke: { ...config.states.authenticating.invoke, onError: { target: 'signedOut' } } } },
} as never, authSessionMachine.implementations as never);

describeModel('auth session: signing in (model-based on the real machine, real login view, real server)', {
  ...signInModel,
  minPaths: 4,
  broken: [{
    name: 'a machine that drops the server\'s refusal',
    spec: { machine: dropsRefusal },
    pick: (p: ModelPath) => p.steps.some((st) => String(st.event.type).startsWith('xstate.error.actor')),
    failsWith: /authenticate\.error → "signedOut".*expected <p.*to be null/s,
  }],
} as never);

/**
 * A session restored from storage: the app opens with the stored token and user id, the machine
 * restores (`restoring` → `loadingProfile`) and the profile's answer decides. The session is made
 * through the API; a refused profile is a token the server no longer honours.
 */
for (const id of [ADMIN, CUSTOMER] as const) {
  describeModel(`auth session: ${ACCOUNTS[id].role}'s session restored from storage (model-based on the real machine, real app, real server)`, {
    machine: authSessionMachine,
    input: { token: 'stored', userId: id },
    answers: {
      // A customer's stored token going stale is the same refusal as the admin's: walked once.
      loadProfile: { done: [profile(id)], error: id === ADMIN ? [new Error('Authorization is failed')] : [] },
    },
    // Signing in, out and the 401 after it are the walk above's.
    filterEvents: (_: Snap, e: { type: string }) => e.type.startsWith('xstate.'),
    serialize: (s: Snap) => [s.value, s.context.userId, s.context.error],
    mustVisit: ['authSession.loadingProfile', 'authSession.signedIn', ...(id === ADMIN ? ['authSession.signedOut'] : [])],
    start: async (p: ModelPath) => {
      resetBrowser();
      const refused = p.steps[1]?.event.type.startsWith('xstate.error.actor');
      const token = refused ? 'revoked.token.value' : await server.api.login(ACCOUNTS[id].login);
      localStorage.setItem('token', token);
      // as the app stores a session it made (persistSession); the role comes with the profile
      localStorage.setItem('userId', String(id));
      localStorage.setItem('branchId', String(DEFAULT_BRANCH_ID));
      renderApp(server, ACCOUNTS[id].home);
    },
    stop,
    steps: { 'loadProfile.done': () => {}, 'loadProfile.error': () => {} },
    states,
    broken: [],
  } as never);
}
