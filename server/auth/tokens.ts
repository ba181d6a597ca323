import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';

export interface TokenClaims {
  userId: number;
  role: string;
  /**
   * The user's session generation when the token was issued (claim `gen`; users.session_generation).
   * A token whose generation is behind the user's is refused (server/auth/sessions.ts). Tokens issued
   * before the claim existed read as 0, so they last until the user's first revocation.
   */
  generation: number;
}

export const TOKEN_LIFETIME_SECONDS = 24 * 60 * 60;

/**
 * HS256 JWTs (RFC 7519), signed and checked with node:crypto's HMAC in the request's own turn, not
 * through WebCrypto's asynchronous job (jose; 6.5 % of an order's CPU: docs/decisions.md "Order
 * intake"). The checks are jose's for these options: the header is exactly HS256 (`alg:none`,
 * another algorithm, a `crit` extension are refused), the signature matches in constant time,
 * `exp` (a number, in the future) and `sub` (a string) are present, `nbf`/`iat` when present are
 * numbers and `nbf` has passed. Tokens issued by jose before verify here unchanged.
 */
export function createTokenService(secret: string) {
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  const header = base64url({ alg: 'HS256', typ: 'JWT' });
  return {
    async issue(claims: TokenClaims, lifetimeSeconds = TOKEN_LIFETIME_SECONDS) {
      const now = Math.floor(Date.now() / 1000);
      const body = `${header}.${base64url({ role: claims.role, gen: claims.generation, sub: String(claims.userId), iat: now, exp: now + lifetimeSeconds })}`;
      return { accessToken: `${body}.${mac(key, body).toString('base64url')}`, expireInSeconds: lifetimeSeconds };
    },
    /** Returns the claims, or null for a token that is missing, malformed, unsigned, expired or forged. */
    async verify(token: string): Promise<TokenClaims | null> {
      const payload = verifiedPayload(key, token);
      if (!payload) return null;
      const userId = Number(payload.sub);
      if (!Number.isInteger(userId) || typeof payload.role !== 'string') return null;
      const generation = payload.gen ?? 0;
      if (typeof generation !== 'number' || !Number.isInteger(generation)) return null;
      return { userId, role: payload.role, generation };
    },
  };
}
export type TokenService = ReturnType<typeof createTokenService>;

const SEGMENT = /^[A-Za-z0-9_-]+$/;
const base64url = (json: object) => Buffer.from(JSON.stringify(json)).toString('base64url');
const mac = (key: KeyObject, signed: string) => createHmac('sha256', key).update(signed).digest();

/** The payload of a compact HS256 JWS signed with `key` whose time claims hold now; null otherwise. */
function verifiedPayload(key: KeyObject, token: string): Record<string, unknown> | null {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((p) => SEGMENT.test(p))) return null;
  const [head, body, signature] = parts;
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(key, `${head}.${body}`);
  // The length first (timingSafeEqual needs equal lengths); the re-encoding refuses a second spelling of the same bytes.
  if (given.length !== expected.length || !timingSafeEqual(given, expected) || given.toString('base64url') !== signature) return null;
  const protectedHeader = parseObject(head);
  if (!protectedHeader || protectedHeader.alg !== 'HS256' || 'crit' in protectedHeader) return null;
  const payload = parseObject(body);
  if (!payload) return null;
  const now = Math.floor(Date.now() / 1000);
  const { exp, nbf, iat, sub } = payload;
  if (typeof exp !== 'number' || exp <= now) return null;
  if (typeof sub !== 'string') return null;
  if (nbf !== undefined && (typeof nbf !== 'number' || nbf > now)) return null;
  if (iat !== undefined && typeof iat !== 'number') return null;
  return payload;
}

function parseObject(segment: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
