import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { writeOpenApi } from './openapi';
import { writeResourceDocuments } from './resourceDocuments';

/**
 * Everything `npm start` and `npm test` need built, offline, each step skipped when its inputs
 * have not changed since the last build:
 *   1. the OpenAPI document, generated from the routes' schemas;
 *   2. the Mesh gateway (.mesh/) over it;
 *   3. the console's half of each declared resource (src/console/resources/generated/), from the
 *      server's declarations and the gateway's schema;
 *   4. typed GraphQL operations (src/gql/) by codegen from the gateway's schema;
 *   5. the SPA (dist/) by Vite.
 */
const bin = (name: string) => path.resolve('node_modules/.bin', name);
const run = (cmd: string, args: string[], env: Record<string, string> = {}): void => {
  execFileSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, ...env } });
};

function hashOf(inputs: string[]): string {
  const h = createHash('sha256');
  const visit = (p: string) => {
    if (!existsSync(p)) return;
    if (statSync(p).isDirectory()) {
      for (const f of readdirSync(p).sort()) if (f !== 'node_modules' && f !== 'gql') visit(path.join(p, f));
    } else h.update(p).update(readFileSync(p));
  };
  inputs.forEach(visit);
  return h.digest('hex');
}

async function step(name: string, inputs: string[], output: string, work: () => Promise<void> | void) {
  const stamp = path.join('.build', `${name}.sha256`);
  const digest = hashOf(inputs);
  if (existsSync(output) && existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) {
    console.log(`build: ${name} is up to date`);
    return;
  }
  const t0 = Date.now();
  await work();
  mkdirSync('.build', { recursive: true });
  writeFileSync(stamp, digest);
  console.log(`build: ${name} done in ${Date.now() - t0} ms`);
}

/** Brotli and gzip twins of the text assets; the server sends them to browsers that accept them. */
function precompress(dir: string) {
  for (const f of readdirSync(dir, { recursive: true }).map(String)) {
    const file = path.join(dir, f);
    if (!/\.(js|css|html|svg|json|wav)$/.test(f) || statSync(file).size < 1024) continue;
    const body = readFileSync(file);
    writeFileSync(`${file}.br`, brotliCompressSync(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }));
    writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
  }
}

/** The shop's own chunk (src/shop/ShopApp.tsx, by its chunk name): every shop page needs it right after the entry. */
const PRELOADED = ['ShopApp'];

type ManifestChunk = { file: string; name?: string; imports?: string[]; css?: string[]; isEntry?: boolean; isDynamicEntry?: boolean };

/**
 * Adds to dist/index.html a modulepreload of PRELOADED's chunks (and the chunks they import) and a preload
 * of their style sheets, read from Vite's manifest (then removed: it is no asset). Without it the shop's
 * chunk is asked for only once the entry has run, a round trip later on a phone (issue 12, Lighthouse LCP).
 * Links, not inline script: the Content-Security-Policy allows no inline script or style.
 */
function preloadShopChunks(dir: string) {
  const manifestFile = path.join(dir, '.vite', 'manifest.json');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>;
  rmSync(path.join(dir, '.vite'), { recursive: true, force: true });
  const scripts = new Set<string>();
  const styles = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || chunk.isEntry || scripts.has(chunk.file)) return;
    scripts.add(chunk.file);
    chunk.css?.forEach((c) => styles.add(c));
    chunk.imports?.forEach(visit);
  };
  for (const name of PRELOADED) {
    const key = Object.keys(manifest).find((k) => manifest[k].isDynamicEntry && manifest[k].name === name);
    if (!key) throw new Error(`build: no lazy chunk named ${name} (scripts/build.ts PRELOADED)`);
    visit(key);
  }
  const links = [
    ...[...scripts].map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`),
    ...[...styles].map((f) => `<link rel="preload" as="style" crossorigin href="/${f}">`),
  ];
  const html = readFileSync(path.join(dir, 'index.html'), 'utf8');
  writeFileSync(path.join(dir, 'index.html'), html.replace('</head>', `  ${links.join('\n    ')}\n  </head>`));
}

const t0 = Date.now();
await step('openapi', ['server', 'domain', 'package-lock.json'], 'mesh/generated/openapi.gateway.json', writeOpenApi);
await step('mesh', ['mesh/generated/openapi.gateway.json', 'mesh', '.meshrc.yaml'], '.mesh/index.ts', () =>
  run(bin('mesh'), ['build'], { MESH_UPSTREAM_URL: 'http://rest.in-process' }));
await step('resources', ['.mesh/schema.graphql', 'server', 'domain', 'scripts/resourceDocuments.ts'], 'src/console/resources/generated', writeResourceDocuments);
await step('codegen', ['.mesh/schema.graphql', 'src', 'codegen.ts'], 'src/gql/index.ts', () => run(bin('graphql-codegen'), ['--config', 'codegen.ts']));
await step('spa', ['src', 'machines', 'domain', 'public', 'index.html', 'vite.config.ts', 'scripts/viteGqlInline.ts', 'scripts/build.ts', 'package-lock.json'], 'dist/index.html', () => {
  if (!existsSync('index.html')) return;
  run(bin('vite'), ['build', '--logLevel', 'warn', '--manifest']);
  preloadShopChunks('dist');
  precompress('dist');
});
console.log(`build: ready in ${Date.now() - t0} ms`);
