import { describe, expect, it } from 'vitest';
import { startTestServer } from '../support/server';

/**
 * The gateway answers plain queries and mutations without Yoga's HTTP adapter (mesh/direct.ts,
 * issue 14). The same requests against a server whose gateway sends everything through Yoga must
 * get the same status, content type and body: data, errors with their ABP code, 401 and 403.
 */
const APOLLO_ACCEPT = 'application/graphql-response+json,application/json;q=0.9';

interface Probe { name: string; body: unknown; token?: 'admin' | 'branchuser'; accept?: string }
const PROBES: Probe[] = [
  { name: 'a public read', body: { query: '{ Brand_GetBrandsForMangoCustomer { id name currency branches { id name } } }' } },
  { name: 'the same read as Apollo asks for it', accept: APOLLO_ACCEPT, body: { query: 'query Brands { Brand_GetBrandsForMangoCustomer { id name } }', operationName: 'Brands' } },
  { name: 'a read with variables', token: 'admin', body: { query: 'query U($id: Int!) { User_Get(Id: $id) { id userName } }', variables: { id: 1 } } },
  { name: '401: no token', body: { query: '{ User_Get(Id: 1) { id } }' } },
  { name: '401 as Apollo asks', accept: APOLLO_ACCEPT, body: { query: '{ User_Get(Id: 1) { id } }' } },
  { name: '403: a branch user reads another user', token: 'branchuser', body: { query: '{ User_Get(Id: 1) { id } }' } },
  { name: 'a mutation refused by REST (wrong password)', body: { query: 'mutation { TokenAuth_Authenticate(input: { userNameOrEmailAddress: "nobody-here", password: "x" }) { userId } }' } },
  { name: 'a mutation with bad input (400 with validation errors)', body: { query: 'mutation { TokenAuth_Authenticate(input: { userNameOrEmailAddress: "", password: "" }) { userId } }' } },
  { name: 'an unknown field (validation, left to Yoga)', body: { query: '{ nope }' } },
  { name: 'a document that does not parse', body: { query: '{' } },
  { name: 'two operations and no operationName', body: { query: 'query A { Brand_GetBrandsForMangoCustomer { id } } query B { Brand_GetBrandsForMangoCustomer { name } }' } },
];

async function answers(direct: boolean) {
  const server = await startTestServer({ gateway: true, gatewayDirect: direct });
  try {
    const tokens = { admin: await server.api.login('admin'), branchuser: await server.api.login('branchuser') };
    const out: Record<string, { status: number; type: string | null; body: unknown }> = {};
    for (const probe of PROBES) {
      const t0 = performance.now();
      const res = await fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(probe.accept && { accept: probe.accept }),
          ...(probe.token && { authorization: `Bearer ${tokens[probe.token]}` }),
        },
        body: JSON.stringify(probe.body),
      });
      out[probe.name] = { status: res.status, type: res.headers.get('content-type'), body: await res.json() };
      console.log(`${direct ? 'direct' : 'yoga  '} ${probe.name}: ${res.status} in ${(performance.now() - t0).toFixed(1)} ms`);
    }
    return out;
  } finally {
    await server.close();
  }
}

describe('gateway: the direct path answers as Yoga does', () => {
  it('same status, content type and body for reads, mutations, 401, 403 and refused documents', async () => {
    const viaYoga = await answers(false);
    const direct = await answers(true);
    for (const probe of PROBES) expect(direct[probe.name], probe.name).toEqual(viaYoga[probe.name]);
    // The probes mean what they say: data where data is due, and the ABP codes on the refusals.
    const code = (name: string) => (viaYoga[name].body as { errors?: { extensions?: { code?: string } }[] }).errors?.[0]?.extensions?.code;
    expect((viaYoga['a public read'].body as { data: { Brand_GetBrandsForMangoCustomer: unknown[] } }).data.Brand_GetBrandsForMangoCustomer.length).toBeGreaterThan(0);
    expect((viaYoga['a read with variables'].body as { data: { User_Get: { userName: string } } }).data.User_Get.userName).toBe('admin');
    expect(code('401: no token')).toBe('UNAUTHENTICATED');
    expect(code('403: a branch user reads another user')).toBe('FORBIDDEN');
    expect(code('a mutation with bad input (400 with validation errors)')).toBe('BAD_REQUEST');
  }, 240_000);
});
