import type { ApolloClient } from '@apollo/client';
import { graphql } from '../../gql';
import { port } from '../../auth/actorPort';
import { registrationMachine, type RegistrationSession } from '../../../machines/registration';

const SendRegistrationCode = graphql(`
  mutation SendRegistrationCode($input: RegistrateNewUnregisteredUserInput_Input) {
    Customer_RegistrateNewUnregisteredUser(input: $input)
  }
`);

const ValidateRegistrationCode = graphql(`
  mutation ValidateRegistrationCode($input: ValidateNewUnregisteredUserInput_Input) {
    Customer_ValidateNewUnregisteredUser(input: $input)
  }
`);

const CompleteRegistration = graphql(`
  mutation CompleteRegistration($input: RegistrateUserFromMobileAppByPhoneInput_Input) {
    Customer_RegistrateUserFromMobileAppByPhone(input: $input) { accessToken userId }
  }
`);

/** Binds the registration machine's ports to the gateway; `signIn` hands the new session on. */
export function provideRegistration(client: ApolloClient, signIn: (session: RegistrationSession) => void) {
  return registrationMachine.provide({
    actors: {
      sendCode: port(async ({ phoneNumber }: { phoneNumber: string }) => {
        await client.mutate({ mutation: SendRegistrationCode, variables: { input: { phoneNumber } }, context: { silent: true } });
        return true;
      }),
      validateCode: port(async ({ phoneNumber, validationCode }: { phoneNumber: string; validationCode: number }) => {
        await client.mutate({ mutation: ValidateRegistrationCode, variables: { input: { phoneNumber, validationCode } }, context: { silent: true } });
        return true;
      }),
      completeRegistration: port(async (input: { phoneNumber: string; fullName: string; email: string; password: string }) => {
        const res = await client.mutate({
          mutation: CompleteRegistration,
          variables: { input: { phoneNumber: input.phoneNumber, fullName: input.fullName.trim(), email: input.email.trim() || null, password: input.password } },
          context: { silent: true },
        });
        const out = res.data?.Customer_RegistrateUserFromMobileAppByPhone;
        if (!out) throw new Error();
        return { accessToken: out.accessToken, userId: out.userId };
      }),
    },
    actions: {
      signIn: (_, session) => signIn(session),
    },
  });
}
