import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../server/db/client';
import { useServer } from '../support/harness';

/**
 * A bounded fuzz run over every operation of the OpenAPI document: for each operation and each
 * caller (anonymous, customer, admin) a seeded sample of malformed requests (numbers past 32 bits,
 * 1e23, Infinity, NUL characters, long strings, wrong types, deep objects, missing and extra
 * fields, broken JSON). No answer may be a 5xx, every answer is the ABP envelope, and a refused
 * request leaves the database as it was.
 *
 * FUZZ_SEED and FUZZ_SIZE (malformed requests per operation for a caller who may call it; a
 * refused caller gets a third of that, since all it can learn is its 401/403) make bigger runs:
 *   FUZZ_SIZE=200 FUZZ_SEED=3 npx vitest run tests/server/fuzz.test.ts
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20240607);
const PER_OPERATION = Number(process.env.FUZZ_SIZE ?? 6);
const PER_REFUSED_OPERATION = Math.max(1, Math.ceil(PER_OPERATION / 3));

type Schema = {
  type?: string; properties?: Record<string, Schema>; required?: string[]; items?: Schema; anyOf?: Schema[]; oneOf?: Schema[];
  enum?: unknown[]; const?: unknown; minimum?: number; maximum?: number; minLength?: number; maxLength?: number; format?: string;
  nullable?: boolean; default?: unknown;
};
type Parameter = { in: 'query' | 'header' | 'path'; name: string; required?: boolean; schema: Schema };
type Operation = { id: string; method: string; path: string; params: Parameter[]; body: Schema | null };
type Caller = 'anonymous' | 'customer' | 'admin';
/** One request as sent: query values and header values as strings, the body as raw text. */
type Attempt = { what: string; query: Record<string, string>; headers: Record<string, string>; payload?: string; contentType?: string };

/** mulberry32: small, fast and the same on every machine. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)), pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] };
}
type Rng = ReturnType<typeof prng>;

/**
 * Values JSON.stringify cannot write (Infinity) or would overflow the stack on (5,000 levels) are
 * markers in the value and spliced into the raw text: 1e400 parses to Infinity.
 */
const deepObjectText = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const deepArrayText = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const RAW: Record<string, string> = {
  __fuzz_infinity__: '1e400',
  __fuzz_deep_object__: deepObjectText(5000),
  __fuzz_deep_array__: deepArrayText(5000),
};
const [INFINITY, DEEP_OBJECT, DEEP_ARRAY] = Object.keys(RAW);

const BAD_QUERY = [
  '2147483648', '-2147483649', '1e23', '-1e23', 'Infinity', '-Infinity', 'NaN', '1.5', '-1', '0', '9'.repeat(40), 'abc', '',
  'a\u0000b', '\u0000', 'x'.repeat(5000), '%', '[]', 'true', ' 1', '0x10', '\ud800', '1e400', "'; drop table users; --",
] as const;
const BAD_JSON: [string, unknown][] = [
  ['2147483648', 2147483648], ['-2147483649', -2147483649], ['1e23', 1e23], ['-1e23', -1e23], ['Infinity', INFINITY],
  ['1e308', 1e308], ['1.5', 1.5], ['-1', -1], ['0', 0], ['"abc"', 'abc'], ['""', ''], ['"a\\u0000b"', 'a\u0000b'],
  ['5000 chars', 'x'.repeat(5000)], ['null', null], ['true', true], ['[]', []], ['{}', {}], ['["\\u0000"]', ['\u0000']],
  ['lone surrogate', '\ud800'], ['"2147483648"', '2147483648'], ['deep object (5000)', DEEP_OBJECT], ['deep array (5000)', DEEP_ARRAY], ['deep object (40)', JSON.parse(deepObjectText(40))],
  ['{"\\u0000":1}', { '\u0000': 1 }],
];
const BAD_BODIES: [string, string][] = [
  ['null', 'null'], ['[]', '[]'], ['"x"', '"x"'], ['42', '42'], ['truncated', '{"a":'], ['not JSON', 'not json'],
  ['deep array (5000)', deepArrayText(5000)], ['deep object (5000)', deepObjectText(5000)],
  ['__proto__', '{"__proto__":{"isAdmin":true}}'], ['constructor.prototype', '{"constructor":{"prototype":{"x":1}}}'],
  ['NUL in a key', '{"\\u0000":"\\u0000"}'],
];

/** A value the schema accepts, or close to it: the base each malformed request changes one thing of. */
function sample(rng: Rng, s: Schema | undefined, depth = 0): unknown {
  if (!s) return 1;
  if (s.const !== undefined) return s.const;
  if (s.enum) return rng.pick(s.enum);
  const branches = (s.anyOf ?? s.oneOf)?.filter((b) => b.type !== 'null');
  if (branches?.length) return sample(rng, rng.pick(branches), depth);
  switch (s.type) {
    case 'integer': return rng.int(Math.max(s.minimum ?? 1, 0), Math.min(s.maximum ?? 12, 12));
    case 'number': return rng.int(Math.max(s.minimum ?? 1, 0), Math.min(s.maximum ?? 12, 12));
    case 'boolean': return rng.next() < 0.5;
    case 'string': {
      if (s.format === 'date-time') return new Date(Date.UTC(2024, 5, rng.int(1, 28))).toISOString();
      if (s.format === 'date') return `2024-06-${String(rng.int(10, 28))}`;
      const len = Math.min(Math.max(s.minLength ?? 1, 3), s.maxLength ?? 12);
      return rng.pick(['+96550000001', 'customer', '123qwe', 'abc'.repeat(4)]).slice(0, len).padEnd(s.minLength ?? 0, '1');
    }
    case 'array': return depth > 4 ? [] : Array.from({ length: rng.int(0, 2) }, () => sample(rng, s.items, depth + 1));
    case 'object':
    default: {
      const out: Record<string, unknown> = {};
      for (const [k, p] of Object.entries(s.properties ?? {})) {
        if (s.required?.includes(k) || rng.next() < 0.5) out[k] = sample(rng, p, depth + 1);
      }
      return out;
    }
  }
}

/** Paths to every value inside a JSON value (objects and arrays), the root excluded. */
function leafPaths(v: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(v)) return v.flatMap((x, i) => [[...at, i], ...leafPaths(x, [...at, i])]);
  if (v && typeof v === 'object') return Object.entries(v).flatMap(([k, x]) => [[...at, k], ...leafPaths(x, [...at, k])]);
  return [];
}
function setAt(root: unknown, at: (string | number)[], value: unknown, remove = false) {
  let node = root as Record<string | number, unknown>;
  for (const k of at.slice(0, -1)) node = node[k] as Record<string | number, unknown>;
  if (remove) delete node[at[at.length - 1]];
  else node[at[at.length - 1]] = value;
}
const bodyText = (v: unknown) => JSON.stringify(v).replace(/"(__fuzz_[a-z_]+__)"/g, (_, marker: string) => RAW[marker]);
const show = (s: string) => JSON.stringify(s.length > 80 ? `${s.slice(0, 60)}…(${s.length} chars)` : s);

function baseQuery(rng: Rng, op: Operation) {
  const query: Record<string, string> = {};
  for (const p of op.params) if (p.in === 'query' && (p.required || rng.next() < 0.5)) query[p.name] = String(sample(rng, p.schema));
  return query;
}

/** One malformed request: the valid-looking base with one thing broken. */
function malformed(rng: Rng, op: Operation): Attempt {
  const query = baseQuery(rng, op);
  const headers: Record<string, string> = {};
  const body = op.body ? sample(rng, op.body) : undefined;
  const queryParams = op.params.filter((p) => p.in === 'query');
  const kinds = [
    ...(queryParams.length ? ['query', 'query', 'query'] : []),
    ...(op.body ? ['field', 'field', 'field', 'missing', 'extra', 'body', 'contentType'] : ['extraQuery']),
    ...(op.params.some((p) => p.in === 'header') ? ['header'] : []),
  ];
  const kind = rng.pick(kinds);
  const attempt = (what: string, payload = body === undefined ? undefined : bodyText(body), contentType?: string): Attempt =>
    ({ what, query, headers, payload, contentType });
  switch (kind) {
    case 'query': {
      const p = rng.pick(queryParams);
      query[p.name] = rng.pick(BAD_QUERY);
      return attempt(`query ${p.name}=${show(query[p.name])}`);
    }
    case 'extraQuery': {
      const bad = rng.pick(BAD_QUERY);
      query[rng.pick(['x', 'Id', 'constructor', '__proto__'])] = bad;
      return attempt(`extra query parameter = ${show(bad)}`);
    }
    case 'header': {
      const p = rng.pick(op.params.filter((x) => x.in === 'header'));
      headers[p.name] = rng.pick(['', ' ', 'x'.repeat(5000), '\u00ff'.repeat(3), 'k'.repeat(201)]);
      return attempt(`header ${p.name}=${show(headers[p.name])}`);
    }
    case 'field': {
      const paths = leafPaths(body);
      if (!paths.length) return attempt('empty body', bodyText(body));
      const at = rng.pick(paths);
      const [label, value] = rng.pick(BAD_JSON);
      setAt(body, at, value);
      return attempt(`body ${at.join('.')} = ${label}`, bodyText(body));
    }
    case 'missing': {
      const paths = leafPaths(body);
      if (!paths.length) return attempt('empty body', bodyText(body));
      const at = rng.pick(paths);
      setAt(body, at, undefined, true);
      return attempt(`body without ${at.join('.')}`, bodyText(body));
    }
    case 'extra': {
      const [label, value] = rng.pick(BAD_JSON);
      const name = rng.pick(['unknown', 'id', 'userId', 'isAdmin', 'role']);
      const paths = leafPaths(body).filter((p) => { let n: unknown = body; for (const k of p) n = (n as never)[k]; return !!n && typeof n === 'object' && !Array.isArray(n); });
      const at = paths.length && rng.next() < 0.5 ? [...rng.pick(paths), name] : [name];
      setAt(body, at, value);
      return attempt(`extra body field ${at.join('.')} = ${label}`, bodyText(body));
    }
    case 'body': {
      const [label, text] = rng.pick(BAD_BODIES);
      return attempt(`body ${label}`, text);
    }
    default: {
      const contentType = rng.pick(['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', 'multipart/form-data']);
      return attempt(`content-type ${contentType}`, bodyText(body), contentType);
    }
  }
}

let operations: Operation[];
const tokens: Record<Caller, string | undefined> = { anonymous: undefined, customer: undefined, admin: undefined };

/**
 * Counts changed rows in every table: a trigger on each adds one per inserted, deleted or really
 * changed row, in the writer's own transaction (a write rolled back counts nothing). Left out on
 * purpose: what a refused request writes by design, the attempt counters of the login and code
 * limits (the rate_limits table, `failed_attempts` columns).
 */
const COUNTERS = { tables: ['rate_limits'], columns: ['failed_attempts'] };
async function countChanges(tables: string[]) {
  const skip = COUNTERS.columns.map((c) => ` - '${c}'`).join('');
  const statements = [
    'create table fuzz_changes (n bigint not null)',
    'insert into fuzz_changes values (0)',
    `create function fuzz_count_change() returns trigger language plpgsql as $$
     begin
       if tg_op = 'UPDATE' and (to_jsonb(new)${skip}) = (to_jsonb(old)${skip}) then return null; end if;
       update fuzz_changes set n = n + 1;
       return null;
     end $$`,
    ...tables.map((t) => `create trigger fuzz_count_change after insert or update or delete on "${t}" for each row execute function fuzz_count_change()`),
  ];
  for (const statement of statements) await server.database.db.execute(sql.raw(statement));
}
async function fingerprint(): Promise<string> {
  const res = await server.database.db.execute(sql.raw('select n::text as n from fuzz_changes'));
  return rowsOf<{ n: string }>(res)[0].n;
}

const server = useServer();
beforeAll(async () => {
  tokens.customer = await server.api.login('customer');
  tokens.admin = await server.api.login('admin');
  const res = await server.app.inject({ method: 'GET', url: '/api/openapi.json' });
  const doc = res.json() as { paths: Record<string, Record<string, { operationId: string; parameters?: Parameter[]; requestBody?: { content: Record<string, { schema: Schema }> } }>> };
  operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({
    id: op.operationId, method: method.toUpperCase(), path, params: op.parameters ?? [],
    body: op.requestBody?.content['application/json']?.schema ?? null,
  })));
  const tables = rowsOf<{ name: string }>(await server.database.db.execute(sql.raw(
    "select tablename as name from pg_tables where schemaname = 'public' order by tablename")))
    .map((t) => t.name).filter((t) => !COUNTERS.tables.includes(t));
  await countChanges(tables);
});

describe('fuzz: malformed requests to every operation', () => {
  it('covers the whole OpenAPI document', () => {
    expect(operations.length).toBeGreaterThan(50);
  });

  it('never answers 5xx, always answers the envelope, and a refused request writes nothing', async () => {
    const started = Date.now();
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let sent = 0;
    let refusalsChecked = 0;
    let writesSeen = 0;
    for (const op of operations) {
      const rng = prng(SEED ^ hashOf(op.id));
      for (const caller of ['anonymous', 'customer', 'admin'] as Caller[]) {
        // The empty request tells whether the caller may call the operation at all: if not, every
        // malformed request must get the same 401/403, before any complaint about the input.
        const empty = await send(op, caller, { what: 'empty request', query: {}, headers: {}, payload: op.body ? '{}' : undefined });
        sent++;
        // Taken after the empty request, which may be accepted and write (a statistics read refreshes
        // its rollup): what it wrote is not the next refused request's doing.
        let before = await fingerprint();
        const denied = empty.status === 401 || empty.status === 403 ? empty.status : null;
        for (let i = 0; i < (denied ? PER_REFUSED_OPERATION : PER_OPERATION); i++) {
          const attempt = malformed(rng, op);
          const res = await send(op, caller, attempt);
          sent++;
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          const where = `${op.method} ${op.path} as ${caller}, ${attempt.what}`;
          if (res.status >= 500) failures.push(`${where}: ${res.status} ${res.text.slice(0, 200)}`);
          else if (!res.envelope) failures.push(`${where}: ${res.status} without the envelope: ${res.text.slice(0, 200)}`);
          else if (denied && res.status !== denied) failures.push(`${where}: ${res.status} where the caller is refused (${denied}) before any input check`);
          // Checked right away: a later request that succeeds may change the database itself.
          if (res.status >= 400) {
            const now = await fingerprint();
            if (now !== before) failures.push(`${where}: refused with ${res.status} but changed the database`);
            refusalsChecked++;
            before = now;
          } else {
            const now = await fingerprint();
            if (now !== before) writesSeen++;
            before = now;
          }
        }
      }
      // Sign out everywhere ends the callers' sessions when it is accepted: sign in again for the operations that follow.
      if (op.id === 'TokenAuth_SignOutEverywhere') {
        tokens.customer = await server.api.login('customer');
        tokens.admin = await server.api.login('admin');
      }
    }
    const seconds = (Date.now() - started) / 1000;
    console.log(`fuzz: seed ${SEED}, ${sent} requests over ${operations.length} operations × 3 callers in ${seconds.toFixed(1)} s; ` +
      `statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}; ${refusalsChecked} refusals checked for writes ` +
      `(${writesSeen} accepted requests wrote); ${failures.length} failures`);
    expect(failures, failures.slice(0, 60).join('\n')).toEqual([]);
    // The write detector works: some accepted requests (an address, a car, an order) did write.
    expect(writesSeen).toBeGreaterThan(0);
  }, 600_000);
});

function hashOf(s: string) {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

async function send(op: Operation, caller: Caller, attempt: Attempt) {
  const qs = new URLSearchParams(attempt.query).toString();
  const headers: Record<string, string> = { ...attempt.headers };
  if (tokens[caller]) headers.authorization = `Bearer ${tokens[caller]}`;
  if (attempt.payload !== undefined) headers['content-type'] = attempt.contentType ?? 'application/json';
  let res;
  try {
    res = await server.app.inject({ method: op.method as 'GET', url: `${op.path}${qs ? `?${qs}` : ''}`, headers, payload: attempt.payload });
  } catch (err) {
    // A request the HTTP layer itself cannot carry (e.g. an invalid header value) never reaches the server.
    if (err instanceof TypeError && /header/i.test(String(err.message))) return { status: 400, text: '', envelope: true };
    throw err;
  }
  let envelope = false;
  try { envelope = (res.json() as { __abp?: boolean }).__abp === true; } catch { /* not JSON */ }
  return { status: res.statusCode, text: res.body, envelope };
}
