import { SignJWT, jwtVerify } from 'jose';

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

/** HS256 JWTs. Verification pins the algorithm, so `alg:none` and unsigned tokens are refused. */
export function createTokenService(secret: string) {
  const key = new TextEncoder().encode(secret);
  return {
    async issue(claims: TokenClaims, lifetimeSeconds = TOKEN_LIFETIME_SECONDS) {
      const accessToken = await new SignJWT({ role: claims.role, gen: claims.generation })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(String(claims.userId))
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + lifetimeSeconds)
        .sign(key);
      return { accessToken, expireInSeconds: lifetimeSeconds };
    },
    /** Returns the claims, or null for a token that is missing, malformed, unsigned, expired or forged. */
    async verify(token: string): Promise<TokenClaims | null> {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], requiredClaims: ['exp', 'sub'] });
        const userId = Number(payload.sub);
        if (!Number.isInteger(userId) || typeof payload.role !== 'string') return null;
        const generation = payload.gen ?? 0;
        if (typeof generation !== 'number' || !Number.isInteger(generation)) return null;
        return { userId, role: payload.role, generation };
      } catch {
        return null;
      }
    },
  };
}
export type TokenService = ReturnType<typeof createTokenService>;
