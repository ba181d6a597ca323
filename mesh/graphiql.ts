import type { FastifyInstance } from 'fastify';

/**
 * GraphiQL from our own origin: graphql-yoga's page loads its editor from unpkg.com, so it is blank
 * offline (kiosks, CI) and needs a CSP that trusts a CDN. This page is the same GraphiQL build
 * (@graphql-yoga/render-graphiql, bundled in node_modules), served as files under /graphql/graphiql/,
 * so the page has no inline script and its policy is script-src 'self'
 * (server/http/security.ts GRAPHIQL_CONTENT_SECURITY_POLICY).
 */
export const GRAPHIQL_ASSETS = '/graphql/graphiql';

/**
 * GraphiQL (the editor page on GET /graphql in a browser) is off unless GRAPHIQL=on (or 1, true,
 * yes): `npm start` is the product whatever NODE_ENV says, and a browser's navigation carries no
 * bearer token, so the page cannot be kept to signed-in staff. Turned on (development, staging), it
 * is for everyone, and gives no data by itself: its queries carry the token pasted in its headers
 * tab, as any other client's. Queries (POST, and GET with a query) work either way.
 */
export const graphiqlFromEnv = (env: NodeJS.ProcessEnv) => /^(1|true|yes|on)$/i.test(env.GRAPHIQL?.trim() ?? '');

/** Monaco's workers by the label it asks for, each served as a same-origin file. */
const WORKERS = { editorWorkerService: 'editorWorkerService', json: 'jsonWorker', graphql: 'graphqlWorker' } as const;

// 9 MB of JavaScript: loaded on the first GraphiQL request, never at start-up.
let bundle: Promise<typeof import('@graphql-yoga/render-graphiql/graphiql')> | null = null;
const graphiqlBundle = () => (bundle ??= import('@graphql-yoga/render-graphiql/graphiql'));

const escapeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The page: markup only; its options travel in a data attribute that the bundle's own script reads. */
export async function renderOfflineGraphiQL(opts?: { title?: string } & Record<string, unknown>): Promise<string> {
  const { favicon } = await graphiqlBundle();
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>${escapeAttribute(opts?.title || 'GraphiQL')}</title>
    <link rel="icon" href="${escapeAttribute(favicon)}" />
    <link rel="stylesheet" href="${GRAPHIQL_ASSETS}/graphiql.css" />
  </head>
  <body id="body" class="no-focus-outline">
    <noscript>You need to enable JavaScript to run this app.</noscript>
    <div id="root" data-options="${escapeAttribute(JSON.stringify(opts ?? {}))}"></div>
    <script src="${GRAPHIQL_ASSETS}/graphiql.js"></script>
  </body>
</html>`;
}

/** The page's script, style sheet and workers, from the bundle in node_modules. */
export function registerGraphiQLAssets(app: FastifyInstance) {
  app.get<{ Params: { file: string } }>(`${GRAPHIQL_ASSETS}/:file`, { schema: { hide: true } }, async (req, reply) => {
    const body = await assetOf(req.params.file);
    if (!body) return reply.callNotFound();
    return reply.type(`${body.type}; charset=utf-8`).header('cache-control', 'public, max-age=3600').send(body.text);
  });
}

async function assetOf(file: string): Promise<{ type: string; text: string } | null> {
  const assets = await graphiqlBundle();
  if (file === 'graphiql.css') return { type: 'text/css', text: assets.css };
  if (file === 'graphiql.js') return (script ??= { type: 'text/javascript', text: pageScript(assets.js) });
  const label = /^worker-(\w+)\.js$/.exec(file)?.[1];
  if (label && Object.hasOwn(WORKERS, label)) return { type: 'text/javascript', text: assets[WORKERS[label as keyof typeof WORKERS]] };
  return null;
}

let script: { type: string; text: string } | null = null;

/** GraphiQL's bundle between the Monaco setup (workers from our origin) and the call that renders the page. */
function pageScript(js: string) {
  const workerUrl = `function (_moduleId, label) { return ${JSON.stringify(GRAPHIQL_ASSETS)} + '/worker-' + label + '.js'; }`;
  return `self.MonacoEnvironment = { globalAPI: false, getWorkerUrl: ${workerUrl} };\n${js};\n`
    + "(function () { var root = document.querySelector('#root'); YogaGraphiQL.renderYogaGraphiQL(root, JSON.parse(root.dataset.options || '{}')); })();\n";
}
