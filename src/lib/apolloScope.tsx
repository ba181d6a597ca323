import { use, type ReactNode } from 'react';
import { ApolloProvider } from '@apollo/client/react';
import { useGateway } from './gateway';

/** Apollo's provider for the screens that use its hooks, once the gateway has loaded the client (src/lib/gateway.tsx). */
export default function ApolloScope({ children }: { children: ReactNode }) {
  const client = use(useGateway().load());
  return <ApolloProvider client={client}>{children}</ApolloProvider>;
}
