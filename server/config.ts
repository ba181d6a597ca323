import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { httpSettingsFromEnv } from './http/security';
import type { S3Settings } from './storage/s3';

/**
 * Runtime settings from the environment, with the embedded defaults of ARCHITECTURE.md.
 * Reads only: nothing is written to DATA_DIR before the server has locked it (app/main.ts).
 */
export function readConfig(env = process.env) {
  const dataDir = path.resolve(env.DATA_DIR ?? './data');
  return {
    /** 0 picks a free port. */
    port: Number(env.PORT ?? 8080),
    host: env.HOST ?? '0.0.0.0',
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    /** Unset: a secret kept in DATA_DIR (persistentSecret). */
    jwtSecret: env.JWT_SECRET || undefined,
    /** Unset: the address the server listens on. */
    publicUrl: env.PUBLIC_URL || undefined,
    /** Set to run the REST services without the in-process gateway (the gateway then runs on its own: npm run gateway). */
    gateway: env.GATEWAY !== 'off',
    /** CORS_ORIGINS, TRUST_PROXY and the Firestore hosts of the CSP. */
    http: httpSettingsFromEnv(env),
    /** Set: Prometheus metrics on /metrics for `Authorization: Bearer <METRICS_TOKEN>` (server/http/metrics.ts). Unset: no /metrics. */
    metricsToken: env.METRICS_TOKEN || undefined,
    /** Where uploads are kept: DATA_DIR/uploads, or an S3-compatible bucket when S3_BUCKET is set. */
    storage: storageSettingsFromEnv(env),
    /** SIGTERM: how long /readyz answers 503 while requests are still taken, before the port closes (DRAIN_NOTICE_MS, default 0). */
    drainNoticeMs: wholeNumber(env, 'DRAIN_NOTICE_MS', 0),
  };
}
export type Config = ReturnType<typeof readConfig>;

/** A setting that cannot work: the start is refused with this message (app/main.ts), before anything is opened. */
export class ConfigError extends Error {}

function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number) {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number (milliseconds), not "${raw}".`);
  return Number(raw);
}

/** The S3_* settings; without S3_BUCKET (and no other S3_*), uploads stay on the disk. */
export const S3_ENV = ['S3_BUCKET', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_ENDPOINT', 'S3_FORCE_PATH_STYLE', 'S3_PUBLIC_URL'] as const;
const S3_REQUIRED = ['S3_BUCKET', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;

export type StorageSettings = { kind: 'disk' } | ({ kind: 's3' } & S3Settings);

/**
 * S3_BUCKET turns the S3-compatible storage on; it then needs S3_REGION, S3_ACCESS_KEY_ID and
 * S3_SECRET_ACCESS_KEY. S3_ENDPOINT (unset: AWS), S3_FORCE_PATH_STYLE (true/false, default false;
 * MinIO and s3rver need true), S3_PUBLIC_URL (https: uploads' URLs point there). Anything
 * incomplete or malformed is a ConfigError naming what to fix, never a failure at the first upload.
 */
export function storageSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): StorageSettings {
  const given = S3_ENV.filter((name) => env[name]);
  if (given.length === 0) return { kind: 'disk' };
  const missing = S3_REQUIRED.filter((name) => !env[name]);
  if (missing.length) {
    throw new ConfigError(`S3 storage is half configured: ${given.join(', ')} ${given.length === 1 ? 'is' : 'are'} set but ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not. Set all of ${S3_REQUIRED.join(', ')} to keep uploads in a bucket, or none of the S3_* variables to keep them on the disk (DATA_DIR/uploads).`);
  }
  const url = (name: 'S3_ENDPOINT' | 'S3_PUBLIC_URL', protocols: string[]) => {
    const raw = env[name];
    if (!raw) return undefined;
    let parsed: URL | null = null;
    try { parsed = new URL(raw); } catch { /* refused below */ }
    if (!parsed || !protocols.includes(parsed.protocol)) throw new ConfigError(`${name} must be an ${protocols.map((p) => p.slice(0, -1)).join(' or ')} address, not "${raw}".`);
    return raw.replace(/\/+$/, '');
  };
  const pathStyle = (env.S3_FORCE_PATH_STYLE ?? '').toLowerCase();
  if (!['', 'true', 'false', '1', '0'].includes(pathStyle)) throw new ConfigError(`S3_FORCE_PATH_STYLE must be true or false, not "${env.S3_FORCE_PATH_STYLE}".`);
  return {
    kind: 's3',
    bucket: env.S3_BUCKET!,
    region: env.S3_REGION!,
    accessKeyId: env.S3_ACCESS_KEY_ID!,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY!,
    endpoint: url('S3_ENDPOINT', ['http:', 'https:']),
    forcePathStyle: pathStyle === 'true' || pathStyle === '1',
    // https only: rows accept an image URL that is a same-site path or an https address (docs/decisions.md "Images").
    publicUrl: url('S3_PUBLIC_URL', ['https:']),
  };
}

/** MyFatoorah's test API (docs.myfatoorah.com "Test Token"); live Kuwait accounts use https://api.myfatoorah.com. */
export const MYFATOORAH_TEST_URL = 'https://apitest.myfatoorah.com';
/** Tap's one API host: a test secret key (sk_test_…) makes test charges, a live key live ones. */
export const TAP_URL = 'https://api.tap.company';

/** The payment gateways this server may use (server/payments): each one only with all its secrets set. */
export interface PaymentSettings {
  myfatoorah?: { apiKey: string; baseUrl: string; webhookSecret: string };
  tap?: { secretKey: string; baseUrl: string };
}

/**
 * MYFATOORAH_API_KEY with MYFATOORAH_WEBHOOK_SECRET (webhook V2 signs every event, so both or
 * neither), MYFATOORAH_BASE_URL (default the test API); TAP_SECRET_KEY, TAP_BASE_URL.
 */
export function paymentSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): PaymentSettings {
  const trim = (url: string) => url.replace(/\/+$/, '');
  return {
    ...(env.MYFATOORAH_API_KEY && env.MYFATOORAH_WEBHOOK_SECRET ? {
      myfatoorah: { apiKey: env.MYFATOORAH_API_KEY, webhookSecret: env.MYFATOORAH_WEBHOOK_SECRET, baseUrl: trim(env.MYFATOORAH_BASE_URL || MYFATOORAH_TEST_URL) },
    } : {}),
    ...(env.TAP_SECRET_KEY ? { tap: { secretKey: env.TAP_SECRET_KEY, baseUrl: trim(env.TAP_BASE_URL || TAP_URL) } } : {}),
  };
}

/**
 * A random secret, made once and kept in DATA_DIR so tokens survive a restart. Replicas on
 * PostgreSQL may share DATA_DIR and start together: the secret is linked into place only if
 * absent, and everyone reads back the one that won.
 */
export function persistentSecret(dataDir: string) {
  const file = path.join(dataDir, 'jwt-secret');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(draft, randomBytes(48).toString('base64url'), { mode: 0o600 });
  try {
    linkSync(draft, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    unlinkSync(draft);
  }
  return readFileSync(file, 'utf8').trim();
}
