import { StrictMode } from 'react';
import { navigate } from 'wouter/use-browser-location';
import { Gateway, GatewayProvider } from './lib/gateway';
import { SessionProvider } from './lib/session';
import { notify } from './lib/notify';
import { GraphqlEndpoint } from './lib/endpoint';
import { TEXT } from '../domain/constants';
import { App } from './App';

/**
 * The whole app with its gateway and session; `uri` lets tests point it at a test server. Apollo
 * Client is loaded by the gateway after the shop's first screen (src/lib/gateway.tsx).
 */
export function createRoot({ uri }: { uri?: string } = {}) {
  const gateway = new Gateway(uri);
  const onExpired = () => {
    notify('danger', TEXT.errorTitle, TEXT.authFailed);
    navigate('/login', { replace: true });
  };
  const element = (
    <StrictMode>
      <GatewayProvider value={gateway}>
        {/* Any 401 ends the session; the gateway reaches the session machine through this. */}
        <SessionProvider gateway={gateway} onExpired={onExpired} bindUnauthorized={(fn) => gateway.onUnauthorized(fn)}>
          <GraphqlEndpoint.Provider value={uri ?? '/graphql'}>
            <App />
          </GraphqlEndpoint.Provider>
        </SessionProvider>
      </GatewayProvider>
    </StrictMode>
  );
  return { gateway, element };
}
