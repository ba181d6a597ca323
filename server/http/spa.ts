import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';

export const SPA_CACHE = {
  /** index.html names the current hashed bundles, so it is revalidated on every load. */
  shell: 'no-cache',
  /** Vite's content-hashed files under assets/ never change under their name. */
  hashed: 'public, max-age=31536000, immutable',
  /** Other public files (sounds, images, icons) keep their names across releases. */
  other: 'public, max-age=3600',
};

/**
 * Serves the built SPA from `spaDir` when it holds an index.html; returns whether it does.
 * @fastify/static's own Cache-Control (maxAge) would overwrite any header set before it, so it is
 * off and setHeaders decides per file. Brotli and gzip twins (scripts/build.ts) are served to
 * browsers that accept them, hence Vary: Accept-Encoding.
 */
export async function registerSpa(app: FastifyInstance, spaDir: string | undefined): Promise<boolean> {
  const root = spaDir && path.resolve(spaDir);
  if (!root || !existsSync(path.join(root, 'index.html'))) return false;
  const assets = path.join(root, 'assets') + path.sep;
  await app.register(fastifyStatic, {
    root, wildcard: false, index: 'index.html', preCompressed: true, cacheControl: false,
    setHeaders(res, file) {
      const served = file.replace(/\.(br|gz)$/, '');
      res.setHeader('cache-control', served === path.join(root, 'index.html') ? SPA_CACHE.shell
        : served.startsWith(assets) ? SPA_CACHE.hashed : SPA_CACHE.other);
      res.setHeader('vary', 'Accept-Encoding');
    },
  });
  return true;
}

/**
 * A GET that no route answered is a client-side route (wouter) and gets the SPA shell, unless it is
 * an API, gateway or metrics path, or asks for a file: under /assets/ or with an extension in its last
 * segment. /brands/qrscans/{brandId}/{brandName} is the one route of SPEC.md 2 whose last
 * segment is free text, so a brand name with a dot stays a route.
 */
export function isClientRoute(req: FastifyRequest): boolean {
  if (req.method !== 'GET') return false;
  const pathname = req.url.split('?')[0];
  // /metrics is served only with METRICS_TOKEN (server/http/metrics.ts); without it, a 404 like any unknown path.
  if (pathname.startsWith('/api/') || pathname === '/api' || pathname.startsWith('/graphql') || pathname === '/metrics') return false;
  if (pathname.startsWith('/assets/')) return false;
  if (pathname.startsWith('/brands/qrscans/')) return true;
  return !/\.[A-Za-z0-9]+$/.test(pathname.slice(pathname.lastIndexOf('/') + 1));
}
