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
    const operation = getOperationAST(document, (operationName as string | undefined) ?? undefined);
    if (!operation || operation.operation === 'subscription') return null;

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
