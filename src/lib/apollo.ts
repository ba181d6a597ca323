import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client';
import { SetContextLink } from '@apollo/client/link/context';
import { ErrorLink } from '@apollo/client/link/error';
import { errorMessage, statusOf } from './errors';
import { notifyError } from './notify';
import { storage, KEYS } from './storage';
import { shopTypePolicies } from '../shop/typePolicies';

/**
 * The app's only way to the server: GraphQL at /graphql through the Mesh gateway.
 * - the bearer token from storage is attached to every operation;
 * - a 401 anywhere ends the session (`onUnauthorized`: logout, /login, 'Authorization is failed');
 * - other failures show the Error notification (SPEC.md 8), unless the operation's context says
 *   `{ silent: true }` because its view handles the failure itself.
 */
export function createApolloClient(opts: { uri?: string; onUnauthorized: () => void; fetch?: typeof fetch }) {
  const auth = new SetContextLink((prev) => {
    const token = (prev.token as string | undefined) ?? storage.get(KEYS.token);
    // The shop puts its language on the document (src/i18n); the server answers names and messages in it.
    const headers = { ...prev.headers, 'accept-language': (typeof document === 'undefined' ? '' : document.documentElement.lang) || 'en' };
    return { headers: token ? { ...headers, authorization: `Bearer ${token}` } : headers };
  });
  const errors = new ErrorLink(({ error, operation }) => {
    if (statusOf(error) === 401) {
      opts.onUnauthorized();
      return;
    }
    if (!operation.getContext().silent) notifyError(errorMessage(error));
  });
  const http = new HttpLink({ uri: opts.uri ?? '/graphql', fetch: opts.fetch });
  return new ApolloClient({
    link: ApolloLink.from([errors, auth, http]),
    cache: new InMemoryCache({ typePolicies: { ...shopTypePolicies } }),
    defaultOptions: { watchQuery: { fetchPolicy: 'cache-and-network' } },
  });
}
