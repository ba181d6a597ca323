import { assign, fromPromise, setup } from 'xstate';
import { GUEST_USER_ID, TEXT } from '../domain/constants';

/**
 * The auth session (SPEC.md section 4 "Auth" and section 8 "401").
 *
 *   restoring ──(stored token)──▶ loadingProfile ──▶ signedIn
 *       └────(none)──▶ signedOut ──auth.login──▶ authenticating ──▶ loadingProfile
 *                         ▲   └──auth.guest──▶ authenticating (as the guest, user 18)
 *                         └── auth.logout / auth.unauthorized (any 401) from anywhere signed in
 *
 * Ports, bound by whoever runs the machine: actors `authenticate` and `loadProfile`;
 * actions `persistSession` (token, user id and branch id 1), `persistRole`, `clearSession`
 * (token, id, role and brand) and `sessionExpired` (go to /login with 'Authorization is failed').
 */

export interface Credentials { userNameOrEmailAddress: string; password: string }
export interface Authenticated { accessToken: string; userId: number }
export interface Profile {
  id: number;
  fullName: string;
  emailAddress: string | null;
  phoneNumber: string | null;
  roleNames: string[];
  companyId: number | null;
  brandId: number | null;
  branchId: number | null;
}

export interface AuthContext {
  token: string | null;
  userId: number | null;
  profile: Profile | null;
  error: string | null;
}

export type AuthEvent =
  | { type: 'auth.login'; credentials: Credentials }
  | { type: 'auth.guest' }
  | { type: 'auth.logout' }
  | { type: 'auth.unauthorized' }
  /** A session obtained elsewhere (registration returns a token). */
  | { type: 'auth.tokenReceived'; session: Authenticated };

export interface AuthInput { token: string | null; userId: number | null }

export const authSessionMachine = setup({
  types: {
    context: {} as AuthContext,
    events: {} as AuthEvent,
    input: {} as AuthInput,
    tags: {} as 'pending',
  },
  actors: {
    authenticate: fromPromise<Authenticated, { credentials: Credentials | null }>(async () => {
      throw new Error('authenticate is not bound');
    }),
    loadProfile: fromPromise<Profile, { userId: number; token: string }>(async () => {
      throw new Error('loadProfile is not bound');
    }),
  },
  actions: {
    persistSession: (_, _params: Authenticated) => {},
    persistRole: (_, _params: { role: string | null; brandId: number | null }) => {},
    clearSession: () => {},
    sessionExpired: () => {},
    receiveToken: assign(({ event }) => (event.type === 'auth.tokenReceived' ? { token: event.session.accessToken, userId: event.session.userId } : {})),
  },
  guards: {
    hasStoredToken: ({ context }) => !!context.token && !!context.userId,
  },
}).createMachine({
  id: 'authSession',
  context: ({ input }) => ({ token: input.token, userId: input.userId, profile: null, error: null }),
  initial: 'restoring',
  states: {
    restoring: {
      always: [{ guard: 'hasStoredToken', target: 'loadingProfile' }, { target: 'signedOut' }],
    },
    signedOut: {
      on: {
        'auth.login': { target: 'authenticating', actions: assign({ error: null }) },
        'auth.guest': { target: 'authenticating', actions: assign({ error: null }) },
        'auth.tokenReceived': { target: 'loadingProfile', actions: ['receiveToken', { type: 'persistSession', params: ({ event }) => event.session }] },
      },
    },
    authenticating: {
      tags: ['pending'],
      invoke: {
        src: 'authenticate',
        input: ({ event }) => ({ credentials: event.type === 'auth.login' ? event.credentials : null }),
        onDone: {
          target: 'loadingProfile',
          actions: [
            assign({ token: ({ event }) => event.output.accessToken, userId: ({ event }) => event.output.userId }),
            { type: 'persistSession', params: ({ event }) => event.output },
          ],
        },
        onError: { target: 'signedOut', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
      },
    },
    loadingProfile: {
      tags: ['pending'],
      invoke: {
        src: 'loadProfile',
        input: ({ context }) => ({ userId: context.userId!, token: context.token! }),
        onDone: {
          target: 'signedIn',
          actions: [
            assign({ profile: ({ event }) => event.output }),
            { type: 'persistRole', params: ({ event }) => ({ role: event.output.roleNames[0] ?? null, brandId: event.output.brandId }) },
          ],
        },
        onError: { target: 'signedOut', actions: ['clearSession', assign(signedOutContext(null))] },
      },
    },
    signedIn: {
      on: {
        'auth.logout': { target: 'signedOut', actions: ['clearSession', assign(signedOutContext(null))] },
        'auth.unauthorized': { target: 'signedOut', actions: ['clearSession', 'sessionExpired', assign(signedOutContext(TEXT.authFailed))] },
        // Switching from the guest to a real account, or a token from registration.
        'auth.login': { target: 'authenticating', actions: ['clearSession', assign(signedOutContext(null))] },
        'auth.tokenReceived': { target: 'loadingProfile', actions: ['receiveToken', { type: 'persistSession', params: ({ event }) => event.session }] },
      },
    },
  },
});

function messageOf(error: unknown) {
  return (error as { message?: string })?.message ?? TEXT.genericError;
}

function signedOutContext(error: string | null) {
  return () => ({ token: null, userId: null, profile: null, error });
}

/** Selectors: views read these, never state paths. */
export const selectRole = (s: { context: AuthContext }) => s.context.profile?.roleNames[0] ?? null;
export const selectIsPending = (s: { hasTag(t: 'pending'): boolean }) => s.hasTag('pending');
export const selectIsAuthenticated = (s: { matches(v: 'signedIn'): boolean }) => s.matches('signedIn');
export const selectIsGuest = (s: { context: AuthContext }) => s.context.userId === GUEST_USER_ID;
export const selectProfile = (s: { context: AuthContext }) => s.context.profile;
export const selectError = (s: { context: AuthContext }) => s.context.error;
