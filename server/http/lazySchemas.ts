import AjvCompiler from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

/**
 * Fastify compiles every route's validators (ajv) and response serializers (fast-json-stringify)
 * when the route is added: for our ~240 routes that was the largest piece of the server's own CPU
 * at start-up (issue 14, a start's profile: ajv and fast-json-stringify ahead of PGlite). Here each
 * is compiled on its route's first use, by Fastify's own compilers with the server's ajv options,
 * so what a request meets is unchanged; `compileAllSchemas` compiles every pending one (a test runs
 * it, so a schema that cannot compile still fails the suite instead of a first request).
 */
type Compiled = ((...args: unknown[]) => unknown) & { errors?: unknown; schemaEnv?: unknown };
interface RouteSchema { schema: unknown; httpPart?: string; url?: string; method?: string }

const pending = new Set<() => void>();

function lazily(compile: (route: RouteSchema) => Compiled, route: RouteSchema, keepErrors: boolean): Compiled {
  let fn: Compiled | null = null;
  const force = () => { fn ??= compile(route); pending.delete(force); return fn; };
  pending.add(force);
  const wrapper: Compiled = (...args) => {
    const target = fn ?? force();
    const result = target(...args);
    // Fastify reads a failed validation's errors off the function it called.
    if (keepErrors) wrapper.errors = target.errors;
    return result;
  };
  // Fastify hands ajv's functions (known by `schemaEnv`) the request as the value's parent, which
  // coercing a root value needs; the wrapper passes whatever it is given on.
  if (keepErrors) wrapper.schemaEnv = true;
  return wrapper;
}

/** A compiler chosen here makes Fastify skip its lower-casing of header schemas: ours must be written lower case. */
function assertLowerCaseHeaders(route: RouteSchema) {
  const properties = (route.schema as { properties?: Record<string, unknown> } | null)?.properties ?? {};
  const upper = Object.keys(properties).filter((k) => k !== k.toLowerCase());
  if (upper.length) throw new Error(`${route.method} ${route.url}: header names in a schema must be lower case (${upper.join(', ')})`);
}

interface AjvOptions { customOptions?: Record<string, unknown>; plugins?: unknown[] }

export const lazySchemaCompilers = {
  buildValidator(externalSchemas: unknown, ajvOptions: AjvOptions) {
    const compilers = (AjvCompiler as unknown as () => (s: unknown, o: unknown) => (r: RouteSchema) => Compiled)();
    const compile = compilers(externalSchemas, ajvOptions);
    // A JSON body carries its own types: `true`, `null` or `"250"` where a number is asked for is
    // a 400, never 1, 0 or 250 (issue 20: `balance: null` had set a wallet to 0). Querystrings,
    // params and headers arrive as text, so they keep the server's coercion.
    const compileBody = compilers(externalSchemas, { ...ajvOptions, customOptions: { ...ajvOptions.customOptions, coerceTypes: false } });
    return (route: RouteSchema) => {
      if (route.httpPart === 'headers') assertLowerCaseHeaders(route);
      return lazily(route.httpPart === 'body' ? compileBody : compile, route, true);
    };
  },
  buildSerializer(externalSchemas: unknown, serializerOptions: unknown) {
    const compile = (SerializerSelector as unknown as () => (s: unknown, o: unknown) => (r: RouteSchema) => Compiled)()(externalSchemas, serializerOptions);
    return (route: RouteSchema) => lazily(compile, route, false);
  },
};

/** Compiles every schema not yet compiled; answers how many there were. */
export function compileAllSchemas(): number {
  const all = [...pending];
  for (const force of all) force();
  return all.length;
}
