import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMeshHTTPHandler } from '@graphql-mesh/http';
import { graphiqlFromEnv } from './graphiql';
import { CORS_HEADERS, CORS_MAX_AGE_SECONDS, CORS_METHODS, allowedCorsOrigins, httpSettingsFromEnv } from '../server/http/security';

/**
 * The gateway as its own process, for scale-out: `GATEWAY=off npm start` on the REST replicas,
 * and `MESH_UPSTREAM_URL=http://rest-host:8080 npm run gateway` here. Queries and mutations go
 * to the REST services over HTTP; the live-order subscription needs the in-process gateway
 * (it is fed by the server's order events), so consoles connect to a full server for that.
 */
const upstream = process.env.MESH_UPSTREAM_URL ?? 'http://127.0.0.1:8080';
const port = Number(process.env.GATEWAY_PORT ?? 4000);
process.env.MESH_UPSTREAM_URL = upstream;
const built = await import(pathToFileURL(path.resolve('.mesh/index.ts')).href);
await built.getBuiltMesh();
// The same CORS policy as the full server (server/http/security.ts): only CORS_ORIGINS and PUBLIC_URL's
// origin, never with credentials. graphql-yoga's default would echo any origin with credentials.
const allowedOrigins = allowedCorsOrigins(process.env.PUBLIC_URL, httpSettingsFromEnv(process.env));
const cors = (request: Request) => {
  const origin = request.headers.get('origin');
  return origin && allowedOrigins.has(origin)
    ? { origin: [origin], methods: CORS_METHODS, allowedHeaders: CORS_HEADERS, maxAge: CORS_MAX_AGE_SECONDS, credentials: false }
    : false;
};
// GraphiQL only with GRAPHIQL=on, as on the full server (mesh/graphiql.ts); here it is Yoga's own page.
const handler = createMeshHTTPHandler({
  baseDir: path.resolve('.'), getBuiltMesh: built.getBuiltMesh,
  rawServeConfig: { ...built.rawServeConfig, cors: cors as never, playground: graphiqlFromEnv(process.env) },
});
const server = http.createServer(handler);
server.listen(port, () => console.log(`GraphQL gateway on http://localhost:${port}/graphql → ${upstream}`));
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => server.close(() => process.exit(0)));
}
