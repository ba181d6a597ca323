import type { FastifyReply, FastifyRequest } from 'fastify';
import { getOperationAST, type DocumentNode, type GraphQLError, type GraphQLSchema } from 'graphql';
import { processRegularResult } from 'graphql-yoga';

/**
 * The gateway's reads and writes without Yoga's HTTP adapter (docs/decisions.md "Gateway, start-up,
 * bench and metrics"): a plain JSON POST of one query or mutation runs through the built mesh's own
 * Envelop pipeline (the same plugins Yoga runs: parse cache, our operation limits and error
 * sanitising, the mesh's context) and its answer is made by Yoga's own result processor, so status,
 * content type and body are what Yoga would send. Anything else (GET, GraphiQL, a subscription,
 * an Accept asking for a stream, a batch, a document that does not parse or validate) returns null
 * and goes to Yoga unchanged, so every error of that kind keeps Yoga's exact shape.
 */
export interface BuiltMesh {
  getEnveloped: (initial: Record<string, unknown>) => {
    parse: (source: string) => DocumentNode;
    validate: (schema: GraphQLSchema, document: DocumentNode) => readonly GraphQLError[];
    contextFactory: (extra: Record<string, unknown>) => unknown;
    execute: (args: Record<string, unknown>) => unknown;
    schema: GraphQLSchema;
  };
}

const PARAMS = new Set(['query', 'variables', 'operationName', 'extensions']);

export function directExecutor(mesh: BuiltMesh) {
  // The mesh's parse cache hands back the same document for the same text, so validation is kept per
  // document: the schema and the rules never change while the process runs.
  const validated = new WeakMap<DocumentNode, boolean>();
  // Whether a document's chosen operation is a query or mutation (not a subscription, not ambiguous), per operation name.
  const kinds = new WeakMap<DocumentNode, Map<string | undefined, 'regular' | 'other'>>();
  const kindOf = (document: DocumentNode, operationName: string | undefined) => {
    let byName = kinds.get(document);
    if (!byName) kinds.set(document, (byName = new Map()));
    let kind = byName.get(operationName);
    if (kind === undefined) {
      const operation = getOperationAST(document, operationName);
      kind = operation && operation.operation !== 'subscription' ? 'regular' : 'other';
      // A client that sends ever new operation names to one document cannot grow this without bound.
      if (byName.size < 100) byName.set(operationName, kind);
    }
    return kind;
  };

  return async function answer(req: FastifyRequest, reply: FastifyReply): Promise<string | null> {
    if (req.method !== 'POST' || !(req.headers['content-type'] ?? '').startsWith('application/json')) return null;
    const params = req.body as Record<string, unknown> | null;
    if (!params || typeof params !== 'object' || Array.isArray(params) || typeof params.query !== 'string') return null;
    for (const key of Object.keys(params)) if (!PARAMS.has(key)) return null;
    const { variables, operationName } = params;
    if (variables != null && (typeof variables !== 'object' || Array.isArray(variables))) return null;
    if (operationName != null && typeof operationName !== 'string') return null;
    const mediaType = regularMediaType(req.headers.accept);
    if (!mediaType) return null;

    const enveloped = mesh.getEnveloped({ req, reply, params });
    let document: DocumentNode;
    try {
      document = enveloped.parse(params.query);
    } catch {
      return null;
    }
    let valid = validated.get(document);
    if (valid === undefined) {
      valid = enveloped.validate(enveloped.schema, document).length === 0;
      validated.set(document, valid);
    }
    if (!valid) return null;
    if (kindOf(document, (operationName as string | undefined) ?? undefined) !== 'regular') return null;

    const contextValue = await enveloped.contextFactory({ req, reply, params });
    const result = await enveloped.execute({
      schema: enveloped.schema, document, contextValue, variableValues: variables ?? undefined, operationName: operationName ?? undefined,
    });
    const answer = processRegularResult(result as never, { Response: Captured } as never, mediaType) as unknown as Captured;
    reply.status(answer.init.status ?? 200);
    for (const [key, value] of Object.entries(answer.init.headers ?? {})) reply.header(key, value);
    return answer.body;
  };
}

/** Yoga's result processor only calls `new Response(body, init)`: keep both as they are. */
class Captured {
  constructor(readonly body: string, readonly init: { status?: number; headers?: Record<string, string> }) {}
}

/**
 * The media type Yoga would answer a single result in (graphql-yoga use-result-processor.js: the
 * client's Accept in order, the last match over SSE, multipart, then the regular processor wins),
 * or null when that would be a stream (SSE, multipart) or nothing: those stay with Yoga.
 */
function regularMediaType(accept: string | undefined): string | null {
  const key = accept ?? '';
  const known = mediaTypes.get(key);
  if (known !== undefined) return known;
  const chosen = negotiate(accept);
  // Clients send a handful of Accept values; an odd one is worked out each time rather than kept.
  if (mediaTypes.size < 50) mediaTypes.set(key, chosen);
  return chosen;
}
const mediaTypes = new Map<string, string | null>();

function negotiate(accept: string | undefined): string | null {
  const asked = (accept || '*/*').replace(/\s/g, '').toLowerCase().split(',').flatMap((part) => {
    const [type, ...params] = part.split(';');
    const charset = params.find((p) => p.includes('charset=')) ?? 'charset=utf-8';
    return type !== undefined && charset === 'charset=utf-8' ? [type] : [];
  }).reverse();
  const processors: [string, string[]][] = [['stream', ['text/event-stream']], ['stream', ['multipart/mixed']], ['regular', ['application/graphql-response+json', 'application/json']]];
  let chosen: [string, string] | null = null;
  for (const [kind, types] of processors) {
    for (const wanted of asked) for (const type of types) if (matches(type, wanted)) chosen = [kind, type];
  }
  return chosen && chosen[0] === 'regular' ? chosen[1] : null;
}

function matches(asked: string, offered: string) {
  const [askedPre, askedSuf] = asked.split('/');
  const [pre, suf] = offered.split('/');
  return (pre === '*' || pre === askedPre) && (suf === '*' || suf === askedSuf);
}
