import { useState } from 'react';
import { graphql } from '../gql';
import { useGateway } from './gateway';
import { useSession } from './session';

const SignOutEverywhere = graphql(`
  mutation SignOutEverywhere {
    TokenAuth_SignOutEverywhere
  }
`);

/**
 * "Sign out everywhere" (the console's user menu, the shop's profile): the server ends every session
 * of the user, this one included (POST /api/TokenAuth/SignOutEverywhere), then this session signs out
 * as Logout does, back to sign-in. A failed call is announced by the gateway and nothing changes here.
 */
export function useSignOutEverywhere() {
  const gateway = useGateway();
  const { send } = useSession();
  const [pending, setPending] = useState(false);
  const signOutEverywhere = async () => {
    setPending(true);
    try {
      await gateway.mutate(SignOutEverywhere, {});
      send({ type: 'auth.logout' });
    } catch {
      setPending(false); // announced by the gateway (a 401 has already ended the session)
    }
  };
  return { signOutEverywhere, pending };
}
