import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

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
const handler = built.createBuiltMeshHTTPHandler();
const server = http.createServer(handler);
server.listen(port, () => console.log(`GraphQL gateway on http://localhost:${port}/graphql → ${upstream}`));
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => server.close(() => process.exit(0)));
}
