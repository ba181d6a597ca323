import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';

/** s3rver ships no types: the part of its API used here. */
type S3rverServer = { run(): Promise<{ address: string; port: number }>; close(): Promise<void> };
const S3rver = createRequire(import.meta.url)('s3rver') as new (opts: {
  address: string; port: number; directory: string; silent: boolean; configureBuckets: { name: string }[];
}) => S3rverServer;

/** s3rver's built-in account (lib/models/account.js): requests are signed and checked as on AWS. */
export const S3RVER_KEYS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

export interface LocalS3 {
  endpoint: string;
  bucket: string;
  /** The S3_* environment of a server using this bucket (server/config.ts storageSettingsFromEnv). */
  env: Record<string, string>;
  /** An SDK client of its own, to look into the bucket behind the server's back. */
  client: S3Client;
  close(): Promise<void>;
}

/**
 * A real S3-compatible server (s3rver, pure npm) on a free port of 127.0.0.1, keeping its objects
 * in a fresh temp folder, with one empty bucket. Path-style, as MinIO.
 */
export async function startLocalS3(bucket = 'brewops-uploads'): Promise<LocalS3> {
  const directory = mkdtempSync(path.join(tmpdir(), 'brewops-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: S3RVER_KEYS });
  return {
    endpoint,
    bucket,
    env: {
      S3_ENDPOINT: endpoint, S3_BUCKET: bucket, S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: S3RVER_KEYS.accessKeyId, S3_SECRET_ACCESS_KEY: S3RVER_KEYS.secretAccessKey, S3_FORCE_PATH_STYLE: 'true',
    },
    client,
    async close() {
      client.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
