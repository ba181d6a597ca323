import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../http/envelope';
import type { AppContext } from '../../http/context';
import { isStorageKey, UPLOAD_CACHE_CONTROL } from '../../storage/storage';
import { UPLOADS_PATH } from '../../storage/localFiles';

/**
 * GET /uploads/<key>: the stored files (on the disk, or read from the S3 bucket). Only a
 * well-formed key reaches the storage (no path can leave it); anything else, or a key with no
 * file, is a 404.
 */
export function registerUploadsServing(app: FastifyInstance, ctx: AppContext) {
  app.get(`${UPLOADS_PATH}/:key`, { schema: { hide: true } }, async (req, reply) => {
    const { key } = req.params as { key: string };
    const file = isStorageKey(key) ? await ctx.storage.get(key) : null;
    if (!file) throw new ApiError(404, 'There is no such file.');
    return reply
      .header('content-type', file.contentType)
      .header('content-length', file.size)
      .header('cache-control', UPLOAD_CACHE_CONTROL)
      .header('x-content-type-options', 'nosniff')
      .send(file.body);
  });
}
