import { loadavg } from 'node:os';
import { startServer, type RunningServer } from '../app/start';
import { fill } from './orders';
import { LIST_SERVER_GOAL_MS } from './goals';

/**
 * The console's order lists at 100,000 and 300,000 orders, through HTTP as the console calls them
 * (the REST routes the gateway wraps; 50 rows, the board's page size). Each case is the median of
 * several calls, printed beside its goal (issue 14) and as a ratio against a baseline taken in the
 * same run: an HTTP round trip to a route that reads no table. Never fails on slowness.
 */
export async function benchConsoleLists(opts: { sizes?: number[]; runs?: number } = {}) {
  const sizes = opts.sizes ?? (process.env.BENCH_LIST_SIZES ?? process.env.BENCH_ORDERS ?? '100000,300000').split(',').map(Number);
  const runs = opts.runs ?? 9;
  const all: Record<number, Result[]> = {};
  for (const size of sizes) all[size] = await benchAt(size, runs);
  return all;
}

interface Result { name: string; median: number; p90: number; goal?: number; server?: number }

const STORE = '/api/services/app/Store';
const TAKE = 50;

async function benchAt(size: number, runs: number): Promise<Result[]> {
  const t0 = Date.now();
  const server = await startServer({
    dataDir: 'memory://', jwtSecret: 'bench-secret-0123456789abcdef', gateway: false, spaDir: '/nonexistent', timedWork: false,
  });
  try {
    await fill(server.database.db, size);
    console.log(`\nconsole lists at ${size.toLocaleString('en')} orders (PGlite, in memory, through HTTP; filled in ${((Date.now() - t0) / 1000).toFixed(0)} s; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')})`);
    const token = {
      admin: await login(server, 'admin'),
      brand: await login(server, 'brandmanager'),
      branch: await login(server, 'branchuser'),
    };
    const get = (path: string, who: keyof typeof token | null, query: Record<string, string | number | boolean> = {}) => async () => {
      const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
      const res = await fetch(`${server.url}${path}${qs ? `?${qs}` : ''}`, { headers: who ? { authorization: `Bearer ${token[who]}` } : {} });
      const body = await res.json() as { result?: { totalCount?: number } };
      if (!res.ok) throw new Error(`${path} ${qs}: ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
      return body.result;
    };
    const totalOf = async (list: string, who: keyof typeof token, query: Record<string, string | number | boolean> = {}) =>
      ((await get(`${STORE}/${list}`, who, { ...query, MaxResultCount: 1 })()) as { totalCount: number }).totalCount;
    const lastSkip = (total: number) => Math.max(0, Math.floor((total - 1) / TAKE) * TAKE);
    const page = (list: string, who: keyof typeof token, query: Record<string, string | number | boolean> = {}) =>
      get(`${STORE}/${list}`, who, { SkipCount: 0, MaxResultCount: TAKE, ...query });

    const allAdmin = await totalOf('GetUserOrdersAsBranchUser', 'admin');
    const allBrand = await totalOf('GetUserOrdersAsBranchUser', 'brand');
    const allBranch = await totalOf('GetUserOrdersAsBranchUser', 'branch');
    const closedBrand = await totalOf('GetCloseddStatusOrdersHistory', 'brand');
    const unpaidBrand = await totalOf('GetUnPaidUserOrdersAsBranchUser', 'brand');
    const guestPhone = '99001234';

    // An order changed: the kept totals of lists filtered by status, payment or arrival are dropped
    // (server/orders/listCounts.ts), so their next page counts; the others stay kept.
    const changed = () => server.events.publish({ type: 'order.changed', orderId: 1, branchId: 1, brandId: 7 });
    const afterChange = (run: () => Promise<unknown>) => Object.assign(run, { before: changed });
    const cases: [string, (() => Promise<unknown>) & { before?: () => Promise<unknown> }, number?][] = [
      ['baseline: HTTP round trip (no table)', get(`${STORE}/GetOrderStatusTypes`, null)],
      ['branch user: first page', page('GetUserOrdersAsBranchUser', 'branch')],
      ['branch user: current orders + counts', page('GetCurrentUserOrdersAsBranchUser', 'branch', { IncludeCounts: true })],
      ['branch user: last page', page('GetUserOrdersAsBranchUser', 'branch', { SkipCount: lastSkip(allBranch) }), LIST_SERVER_GOAL_MS],
      ['branch user: last page by total', page('GetUserOrdersAsBranchUser', 'branch', { SkipCount: lastSkip(allBranch), Sorting: 'total desc' }), LIST_SERVER_GOAL_MS],
      ['brand manager: first page', page('GetUserOrdersAsBranchUser', 'brand')],
      ['brand manager: status counts (IncludeCounts)', page('GetUserOrdersAsBranchUser', 'brand', { MaxResultCount: 1, IncludeCounts: true })],
      ['brand manager: last page', page('GetUserOrdersAsBranchUser', 'brand', { SkipCount: lastSkip(allBrand) }), LIST_SERVER_GOAL_MS],
      ['brand manager: middle page', page('GetUserOrdersAsBranchUser', 'brand', { SkipCount: lastSkip(allBrand / 2) }), LIST_SERVER_GOAL_MS],
      ['brand manager: sorted by total, first page', page('GetUserOrdersAsBranchUser', 'brand', { Sorting: 'total desc' }), LIST_SERVER_GOAL_MS],
      ['brand manager: sorted by total, last page', page('GetUserOrdersAsBranchUser', 'brand', { SkipCount: lastSkip(allBrand), Sorting: 'total desc' }), LIST_SERVER_GOAL_MS],
      ['brand manager: sorted by createdAt asc, last page', page('GetUserOrdersAsBranchUser', 'brand', { SkipCount: lastSkip(allBrand), Sorting: 'createdAt asc' }), LIST_SERVER_GOAL_MS],
      ['brand manager: sorted by status, last page', page('GetUserOrdersAsBranchUser', 'brand', { SkipCount: lastSkip(allBrand), Sorting: 'status asc' }), LIST_SERVER_GOAL_MS],
      ['brand manager: closed history by total, last page', page('GetCloseddStatusOrdersHistory', 'brand', { SkipCount: lastSkip(closedBrand), Sorting: 'total asc' }), LIST_SERVER_GOAL_MS],
      ['brand manager: unpaid, last page', page('GetUnPaidUserOrdersAsBranchUser', 'brand', { SkipCount: lastSkip(unpaidBrand) }), LIST_SERVER_GOAL_MS],
      ['brand manager: search by phone', page('GetUserOrdersAsBranchUser', 'brand', { Search: guestPhone }), LIST_SERVER_GOAL_MS],
      ['admin: first page', page('GetUserOrdersAsBranchUser', 'admin')],
      ['admin: last page', page('GetUserOrdersAsBranchUser', 'admin', { SkipCount: lastSkip(allAdmin) }), LIST_SERVER_GOAL_MS],
      ['admin: sorted by total, last page', page('GetUserOrdersAsBranchUser', 'admin', { SkipCount: lastSkip(allAdmin), Sorting: 'total desc' }), LIST_SERVER_GOAL_MS],
      ['admin: same, just after an order changed (total kept)', afterChange(page('GetUserOrdersAsBranchUser', 'admin', { SkipCount: lastSkip(allAdmin), Sorting: 'total desc' })), LIST_SERVER_GOAL_MS],
      ['brand manager: closed by total, last page, after a change (counted)', afterChange(page('GetCloseddStatusOrdersHistory', 'brand', { SkipCount: lastSkip(closedBrand), Sorting: 'total asc' })), LIST_SERVER_GOAL_MS],
      ['admin: sorted by createdAt, middle page', page('GetUserOrdersAsBranchUser', 'admin', { SkipCount: lastSkip(allAdmin / 2), Sorting: 'createdAt desc' }), LIST_SERVER_GOAL_MS],
      ['admin: search by phone', page('GetUserOrdersAsBranchUser', 'admin', { Search: guestPhone }), LIST_SERVER_GOAL_MS],
      ['admin: search by partial phone', page('GetUserOrdersAsBranchUser', 'admin', { Search: '9001234' }), LIST_SERVER_GOAL_MS],
      ['admin: search by name', page('GetUserOrdersAsBranchUser', 'admin', { Search: 'Guest 421' }), LIST_SERVER_GOAL_MS],
      ['admin: search by order number', page('GetUserOrdersAsBranchUser', 'admin', { Search: `B-${String(Math.floor(size / 3)).padStart(7, '0')}` }), LIST_SERVER_GOAL_MS],
      ['admin: search by a registered customer\'s name', page('GetUserOrdersAsBranchUser', 'admin', { Search: 'Sara' }), LIST_SERVER_GOAL_MS],
      ['admin: search, nothing matches', page('GetUserOrdersAsBranchUser', 'admin', { Search: 'zzzq' }), LIST_SERVER_GOAL_MS],
    ];

    const results: Result[] = [];
    for (const [name, run, goal] of cases) {
      await run.before?.();
      await run(); // warm up (plans, caches)
      const times: number[] = [];
      for (let i = 0; i < runs; i++) {
        await run.before?.();
        const start = performance.now();
        await run();
        times.push(performance.now() - start);
      }
      times.sort((a, b) => a - b);
      results.push({ name, median: times[Math.floor(times.length / 2)], p90: times[Math.floor(times.length * 0.9)], goal });
    }
    const base = results[0].median;
    // The goals are the server's: a call's time beyond the round trip to a route that reads no table.
    for (const r of results.slice(1)) r.server = Math.max(0, r.median - base);
    console.log(`rows: admin ${allAdmin}, brand 7 ${allBrand}, branch 1 ${allBranch}; ${runs} calls each, ${TAKE} rows a page; goals are issue 14's server goals, judged on the server's part (median − round trip)`);
    console.log(`${'call'.padEnd(68)} ${'median ms'.padStart(10)} ${'p90 ms'.padStart(8)} ${'server ms'.padStart(10)} ${'× round trip'.padStart(13)}  goal`);
    for (const r of results) {
      const judged = r.server ?? r.median;
      const verdict = r.goal === undefined ? '' : `server ≤ ${r.goal} ms${size >= 300_000 ? ' at 300k' : ''}: ${judged <= r.goal ? 'met' : 'MISSED'}`;
      console.log(`${r.name.padEnd(68)} ${r.median.toFixed(1).padStart(10)} ${r.p90.toFixed(1).padStart(8)} ${(r.server === undefined ? '' : r.server.toFixed(1)).padStart(10)} ${(r.median / base).toFixed(1).padStart(13)}  ${verdict}`);
    }
    return results;
  } finally {
    await server.close();
  }
}

async function login(server: RunningServer, user: string): Promise<string> {
  const res = await fetch(`${server.url}/api/TokenAuth/Authenticate`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ userNameOrEmailAddress: user, password: '123qwe' }),
  });
  const body = await res.json() as { result: { accessToken: string } };
  return body.result.accessToken;
}

if (process.argv[1]?.endsWith('consoleLists.ts')) {
  await benchConsoleLists();
}
