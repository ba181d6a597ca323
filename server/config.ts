import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { httpSettingsFromEnv } from './http/security';

/** Runtime settings from the environment, with the embedded defaults of ARCHITECTURE.md. */
export function readConfig(env = process.env) {
  const dataDir = path.resolve(env.DATA_DIR ?? './data');
  const port = Number(env.PORT ?? 8080);
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    jwtSecret: env.JWT_SECRET || persistentSecret(dataDir),
    publicUrl: env.PUBLIC_URL ?? `http://localhost:${port}`,
    /** Set to run the REST services without the in-process gateway (the gateway then runs on its own: npm run gateway). */
    gateway: env.GATEWAY !== 'off',
    /** CORS_ORIGINS, TRUST_PROXY and the Firestore hosts of the CSP. */
    http: httpSettingsFromEnv(env),
  };
}
export type Config = ReturnType<typeof readConfig>;

/** A random secret, made once and kept in DATA_DIR so tokens survive a restart. */
function persistentSecret(dataDir: string) {
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
