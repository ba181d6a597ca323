import { queryString, restHelpers, type Call, type Envelope } from './restHelpers';

/** The REST helpers of tests/support/server.ts, over real HTTP to a server process. */
export function createFetchApi(baseUrl: string) {
  const call: Call = async (method, url, opts = {}) => {
    const res = await fetch(`${baseUrl}${url}${queryString(opts.query)}`, {
      method,
      headers: {
        ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
        ...opts.headers,
      },
      body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as Envelope };
  };
  return {
    ...restHelpers(call),
    /** A GraphQL operation through the gateway. */
    async graphql<T = any>(query: string, variables?: Record<string, unknown>, token?: string) {
      const res = await fetch(`${baseUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ query, variables }),
      });
      return (await res.json()) as { data?: T; errors?: { message: string; extensions?: Record<string, any> }[] };
    },
  };
}
