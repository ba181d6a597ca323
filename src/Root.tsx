import { StrictMode } from 'react';
import { ApolloProvider } from '@apollo/client/react';
import { navigate } from 'wouter/use-browser-location';
import { createApolloClient } from './lib/apollo';
import { SessionProvider } from './lib/session';
import { notify } from './lib/notify';
import { GraphqlEndpoint } from './lib/endpoint';
import { TEXT } from '../domain/constants';
import { App } from './App';

/** The whole app with its client and session; `uri` lets tests point it at a test server. */
export function createRoot({ uri }: { uri?: string } = {}) {
  // Any 401 ends the session; the Apollo error link reaches the session machine through this.
  let onUnauthorized = () => {};
  const client = createApolloClient({ uri, onUnauthorized: () => onUnauthorized() });
  const onExpired = () => {
    notify('danger', TEXT.errorTitle, TEXT.authFailed);
    navigate('/login', { replace: true });
  };
  const element = (
    <StrictMode>
      <ApolloProvider client={client}>
        <SessionProvider client={client} onExpired={onExpired} bindUnauthorized={(fn) => { onUnauthorized = fn; }}>
          <GraphqlEndpoint.Provider value={uri ?? '/graphql'}>
            <App />
          </GraphqlEndpoint.Provider>
        </SessionProvider>
      </ApolloProvider>
    </StrictMode>
  );
  return { client, element };
}
