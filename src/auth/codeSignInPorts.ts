import type { ApolloClient } from '@apollo/client';
import { graphql } from '../gql';
import { port } from './actorPort';
import { codeSignInMachine, type CodeSignInSession } from '../../machines/codeSignIn';

const SendSignInCode = graphql(`
  mutation SendSignInCode($input: SendSignInCodeBySmsInput_Input) {
    TokenAuth_SendSignInCodeBySms(input: $input)
  }
`);

const AuthenticateBySmsCode = graphql(`
  mutation AuthenticateBySmsCode($input: AuthenticateBySmsCodeInput_Input) {
    TokenAuth_AuthenticateBySmsCode(input: $input) { accessToken userId }
  }
`);

/** Binds the code sign-in machine's ports to the gateway; `signIn` hands the session to the auth session. */
export function provideCodeSignIn(client: ApolloClient, signIn: (session: CodeSignInSession) => void) {
  return codeSignInMachine.provide({
    actors: {
      sendCode: port(async ({ phoneNumber }: { phoneNumber: string }) => {
        await client.mutate({ mutation: SendSignInCode, variables: { input: { phoneNumber } }, context: { silent: true } });
        return true;
      }),
      verifyCode: port(async ({ phoneNumber, code }: { phoneNumber: string; code: string }) => {
        const res = await client.mutate({ mutation: AuthenticateBySmsCode, variables: { input: { phoneNumber, code } }, context: { silent: true } });
        const out = res.data?.TokenAuth_AuthenticateBySmsCode;
        if (!out) throw new Error();
        return { accessToken: out.accessToken, userId: out.userId };
      }),
    },
    actions: {
      signIn: (_, session) => signIn(session),
    },
  });
}
