import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import { startServer } from '../app/start';

/**
 * The gateway's cost as throughput: the same shop read through /graphql (Mesh → REST in-process)
 * against the REST route called directly over HTTP, with autocannon at 10 and 50 connections,
 * each gateway row beside the REST baseline measured just before it in the same run.
 * Goal (issue 14): the gateway at ≥ 85 % of REST's requests per second.
 */
export async function benchGateway({ seconds = Number(process.env.BENCH_SECONDS ?? 4), rounds = 3, connections = [10, 50] } = {}) {
  const server = await startServer({ dataDir: 'memory://', jwtSecret: 'bench', gateway: true, spaDir: '/nonexistent' });
  try {
    const brandsRest = { method: 'GET' as const, path: '/api/services/app/Brand/GetBrandsForMangoCustomer' };
    const brandsGql = graphql('{ Brand_GetBrandsForMangoCustomer { id name currency branches { id name openTime closeTime branchAddress } } }');
    // Same data both ways: the gateway answers the REST result's fields, so the ratio is only the gateway's cost.
    await checkSameData(server.url, brandsRest.path, brandsGql.body!, 'Brand_GetBrandsForMangoCustomer');
    // Warm both paths (JIT, the built mesh, the database's caches) before measuring.
    await run(server.url, brandsRest, 10, 2);
    await run(server.url, brandsGql, 10, 2);
    console.log(`same query and fields; ${rounds} alternating rounds of ${seconds} s each way; goal: gateway ≥ 85 % of REST`);
    for (const c of connections) {
      // Alternating short rounds, so a neighbour's load on a shared machine falls on both sides alike.
      const rests: Measured[] = [];
      const gqls: Measured[] = [];
      for (let i = 0; i < rounds; i++) {
        rests.push(await run(server.url, brandsRest, c, seconds));
        gqls.push(await run(server.url, brandsGql, c, seconds));
      }
      const rest = total(rests);
      const gql = total(gqls);
      const ratio = gql.rps / rest.rps;
      // On a busy machine throughput follows the neighbours; CPU per request is the steadier reading of the gateway's cost.
      const cpuRatio = rest.cpuMsPerRequest / gql.cpuMsPerRequest;
      console.log(`@${String(c).padStart(2)} connections  REST ${fmt(rest)}  |  GraphQL ${fmt(gql)}`);
      console.log(`    throughput ${(ratio * 100).toFixed(0)} % of REST (goal ≥ 85 %) ${ratio >= 0.85 ? 'met' : 'MISSED'}; by CPU per request ${(cpuRatio * 100).toFixed(0)} %; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    }
  } finally {
    await server.close();
  }
}

interface Row { method: 'GET' | 'POST'; path: string; body?: string; headers?: Record<string, string> }

const graphql = (query: string): Row => ({ method: 'POST', path: '/graphql', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });

interface Measured { rps: number; p50: number; p99: number; cpuMsPerRequest: number }

/** The rounds together: requests per second over all of them; latencies and CPU cost as their medians. */
function total(rows: Measured[]): Measured {
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return {
    rps: rows.reduce((sum, r) => sum + r.rps, 0) / rows.length,
    p50: median(rows.map((r) => r.p50)),
    p99: median(rows.map((r) => r.p99)),
    cpuMsPerRequest: median(rows.map((r) => r.cpuMsPerRequest)),
  };
}

async function run(url: string, row: Row, connections: number, duration: number): Promise<Measured> {
  const cpu = process.cpuUsage();
  const result = await autocannon({ url: url + row.path, method: row.method, body: row.body, headers: row.headers, connections, duration });
  if (result.non2xx || result.errors) console.log(`  ! ${row.path}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  const used = process.cpuUsage(cpu);
  // The process's CPU (server and autocannon's client side together) per answered request.
  const cpuMsPerRequest = (used.user + used.system) / 1000 / Math.max(1, result.requests.total);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, cpuMsPerRequest };
}

const fmt = (r: Measured) => `${r.rps.toFixed(0).padStart(6)} req/s p50 ${r.p50} ms p99 ${r.p99} ms ${r.cpuMsPerRequest.toFixed(2)} ms CPU/req`;

async function checkSameData(url: string, restPath: string, gqlBody: string, field: string) {
  const rest = await (await fetch(url + restPath)).json() as { result: unknown };
  const gql = await (await fetch(url + '/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: gqlBody })).json() as { data: Record<string, unknown> };
  const restCount = Array.isArray(rest.result) ? rest.result.length : -1;
  const gqlCount = Array.isArray(gql.data?.[field]) ? (gql.data[field] as unknown[]).length : -2;
  if (restCount !== gqlCount) console.log(`  ! REST answered ${restCount} brands, the gateway ${gqlCount}`);
}
