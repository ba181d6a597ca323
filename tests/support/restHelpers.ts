/** What a test's REST client offers, over app.inject (tests/support/server.ts) or real HTTP (fetchApi.ts). */
export interface Envelope {
  result: any;
  success: boolean;
  error: { code: number; message: string; details: string | null; validationErrors: { message: string; members: string[] }[] | null } | null;
  unAuthorizedRequest: boolean;
  targetUrl: string | null;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type CallOptions = { token?: string; body?: unknown; query?: Record<string, unknown>; headers?: Record<string, string> };
export type Call = (method: Method, url: string, opts?: CallOptions) => Promise<{ status: number; body: Envelope }>;

export const queryString = (query?: Record<string, unknown>) =>
  query ? `?${new URLSearchParams(Object.entries(query).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)]))}` : '';

/** The verbs and the demo logins, built once over any transport. */
export function restHelpers(call: Call) {
  return {
    call,
    get: (url: string, opts?: CallOptions) => call('GET', url, opts),
    post: (url: string, opts?: CallOptions) => call('POST', url, opts),
    put: (url: string, opts?: CallOptions) => call('PUT', url, opts),
    delete: (url: string, opts?: CallOptions) => call('DELETE', url, opts),
    /** Logs a demo account in and returns its token. */
    async login(userNameOrEmailAddress: string, password = '123qwe') {
      const res = await call('POST', '/api/TokenAuth/Authenticate', { body: { userNameOrEmailAddress, password } });
      if (res.status !== 200) throw new Error(`login ${userNameOrEmailAddress} failed: ${JSON.stringify(res.body)}`);
      return (res.body.result as { accessToken: string }).accessToken;
    },
    async guestToken() {
      const res = await call('POST', '/api/TokenAuth/Authenticate', { body: { asGuest: true } });
      return (res.body.result as { accessToken: string }).accessToken;
    },
  };
}
