import { createContext, useContext } from 'react';

/** The gateway's GraphQL endpoint, for the few requests that do not go through Apollo (the live order feed's stream). */
export const GraphqlEndpoint = createContext('/graphql');
export const useGraphqlEndpoint = () => useContext(GraphqlEndpoint);
