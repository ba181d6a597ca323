import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { httpSettingsFromEnv } from './http/security';

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
  };
}
export type Config = ReturnType<typeof readConfig>;

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
