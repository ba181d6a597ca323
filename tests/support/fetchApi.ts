import type { Envelope } from './server';

type Opts = { token?: string; body?: unknown; query?: Record<string, unknown>; headers?: Record<string, string> };

/** The REST helpers of tests/support/server.ts, over real HTTP to a server process. */
export function createFetchApi(baseUrl: string) {
  async function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, opts: Opts = {}) {
    const qs = opts.query ? `?${new URLSearchParams(Object.entries(opts.query).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)]))}` : '';
    const res = await fetch(`${baseUrl}${url}${qs}`, {
      method,
      headers: {
        ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
        ...opts.headers,
      },
      body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as Envelope };
  }
  return {
    call,
    get: (url: string, opts?: Opts) => call('GET', url, opts),
    post: (url: string, opts?: Opts) => call('POST', url, opts),
    put: (url: string, opts?: Opts) => call('PUT', url, opts),
    delete: (url: string, opts?: Opts) => call('DELETE', url, opts),
    async login(userNameOrEmailAddress: string, password = '123qwe') {
      const res = await call('POST', '/api/TokenAuth/Authenticate', { body: { userNameOrEmailAddress, password } });
      if (res.status !== 200) throw new Error(`login ${userNameOrEmailAddress} failed: ${JSON.stringify(res.body)}`);
      return (res.body.result as { accessToken: string }).accessToken;
    },
    async guestToken() {
      const res = await call('POST', '/api/TokenAuth/Authenticate', { body: { asGuest: true } });
      return (res.body.result as { accessToken: string }).accessToken;
    },
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
