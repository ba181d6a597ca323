import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { fromPromise } from 'xstate';
import { DEFAULT_BRANCH_ID } from '../../domain/constants';
import { authSessionMachine, selectRole, selectIsAuthenticated, selectIsGuest, selectIsPending, selectProfile, selectError } from '../../machines/authSession';
import { graphql } from '../gql';
import { storage, KEYS } from './storage';
import { errorMessage } from './errors';
import type { Gateway } from './gateway';

const Authenticate = graphql(`
  mutation Authenticate($input: AuthenticateInput_Input) {
    TokenAuth_Authenticate(input: $input) { accessToken userId expireInSeconds }
  }
`);

const CurrentUser = graphql(`
  query CurrentUser($id: Int!) {
    User_Get(Id: $id) { id fullName emailAddress phoneNumber roleNames companyId brandId branchId }
  }
`);

/** Binds the auth session machine's ports to the gateway and the browser's storage. */
export function provideSession(gateway: Gateway, onExpired: () => void) {
  return authSessionMachine.provide({
    actors: {
      authenticate: fromPromiseSafe(async ({ input }) => {
        const data = await gateway.mutate(Authenticate,
          { input: input.credentials ? { ...input.credentials, rememberClient: true } : { asGuest: true } },
          { silent: true });
        const out = data?.TokenAuth_Authenticate;
        if (!out) throw new Error('Sorry!! Something went wrong(');
        return { accessToken: out.accessToken, userId: out.userId };
      }),
      loadProfile: fromPromiseSafe(async ({ input }) => {
        // A returning customer's profile is read by the plain POST too when Apollo is not loaded yet.
        const data = await gateway.query(CurrentUser, { id: input.userId }, { token: input.token, silent: true }, 'network-only');
        const u = data?.User_Get;
        if (!u) throw new Error('No profile');
        return {
          id: u.id, fullName: u.fullName, emailAddress: u.emailAddress ?? null, phoneNumber: u.phoneNumber ?? null,
          roleNames: u.roleNames.filter((r): r is string => !!r), companyId: u.companyId ?? null, brandId: u.brandId ?? null, branchId: u.branchId ?? null,
        };
      }),
    },
    actions: {
      persistSession: (_, s) => {
        storage.set(KEYS.token, s.accessToken);
        storage.set(KEYS.userId, s.userId);
        storage.set(KEYS.branchId, DEFAULT_BRANCH_ID);
      },
      persistRole: (_, p) => {
        storage.set(KEYS.role, p.role);
        if (p.role === 'BRAND_MANAGER' && p.brandId && !storage.get(KEYS.managerBrandId)) storage.set(KEYS.managerBrandId, p.brandId);
      },
      clearSession: () => {
        storage.remove(KEYS.token, KEYS.userId, KEYS.role, KEYS.managerBrandId);
        gateway.clear();
      },
      sessionExpired: onExpired,
    },
  });
}

/** fromPromise whose rejection carries the message the user should read (SPEC.md 8 order). */
function fromPromiseSafe<O, I>(fn: (args: { input: I }) => Promise<O>) {
  return fromPromise<O, I>(async (args) => {
    try {
      return await fn(args);
    } catch (e) {
      throw new Error(errorMessage(e));
    }
  });
}

type SessionRef = ReturnType<typeof useActorRef<ReturnType<typeof provideSession>>>;
const SessionContext = createContext<SessionRef | null>(null);

export function SessionProvider({ gateway, onExpired, bindUnauthorized, children }: {
  gateway: Gateway;
  onExpired: () => void;
  /** Receives the function the Apollo error link calls on a 401. */
  bindUnauthorized?: (fn: () => void) => void;
  children: ReactNode;
}) {
  const machine = useMemo(() => provideSession(gateway, onExpired), [gateway, onExpired]);
  const ref = useActorRef(machine, {
    input: { token: storage.get(KEYS.token), userId: Number(storage.get(KEYS.userId)) || null },
  });
  bindUnauthorized?.(() => ref.send({ type: 'auth.unauthorized' }));
  return <SessionContext.Provider value={ref}>{children}</SessionContext.Provider>;
}

export function useSessionRef(): SessionRef {
  const ref = useContext(SessionContext);
  if (!ref) throw new Error('useSession outside SessionProvider');
  return ref;
}

/** The narrow view of the session every screen uses. */
export function useSession() {
  const ref = useSessionRef();
  return {
    send: ref.send,
    role: useSelector(ref, selectRole),
    profile: useSelector(ref, selectProfile),
    isAuthenticated: useSelector(ref, selectIsAuthenticated),
    isGuest: useSelector(ref, selectIsGuest),
    isPending: useSelector(ref, selectIsPending),
    isRestoring: useSelector(ref, (s) => s.matches('restoring') || (s.matches('loadingProfile') && !s.context.profile && !!s.context.token)),
    error: useSelector(ref, selectError),
  };
}
