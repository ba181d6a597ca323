import { startServer } from '../server/start';

/**
 * The gateway's cost: the same shop call through /graphql (Mesh → REST in-process) against the
 * REST route called directly over HTTP, measured in the same run on the same server.
 */
export async function benchGateway({ rounds = 300 } = {}) {
  const server = await startServer({ dataDir: 'memory://', jwtSecret: 'bench', gateway: true, spaDir: '/nonexistent' });
  try {
    const rest = () => fetch(`${server.url}/api/services/app/Brand/GetBrandsForMangoCustomer`).then((r) => r.json());
    const gql = () => fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ Brand_GetBrandsForMangoCustomer { id name currency branches { id name openTime closeTime branchAddress } } }' }),
    }).then((r) => r.json());
    const products = () => fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ Products_GetProductsGroupedByTypeAndSubtypeAsCustomerForMangoes(brandId: 7, branchId: 1) { id name subtypes { id name products { id name price } } } }' }),
    }).then((r) => r.json());
    for (let i = 0; i < 30; i++) { await rest(); await gql(); await products(); }
    const baseline = await timeEach(rest, rounds);
    const rows = [
      ['REST GetBrandsForMangoCustomer (baseline)', baseline],
      ['GraphQL brands through the gateway', await timeEach(gql, rounds)],
      ['GraphQL branch menu through the gateway', await timeEach(products, rounds)],
    ] as const;
    for (const [name, t] of rows) {
      console.log(`${name.padEnd(44)} median ${t.median.toFixed(2)} ms  p95 ${t.p95.toFixed(2)} ms  ×${(t.median / baseline.median).toFixed(2)}`);
    }
  } finally {
    await server.close();
  }
}

async function timeEach(fn: () => Promise<unknown>, n: number) {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(n / 2)], p95: times[Math.floor(n * 0.95)] };
}
