import type { FastifyRequest } from 'fastify';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { brandManagers, users } from '../db/schema';
import type { TokenService } from '../auth/tokens';
import { sessionIsCurrent } from '../auth/sessions';
import { unauthorized } from './envelope';
import type { Role } from '../../domain/permissions';
import type { SmsProvider } from '../messages/smsProviders';
import type { OrderEvents } from '../events/orderEvents';
import type { FileStorage } from '../storage/storage';
import type { PushDelivery } from '../notify/pushLoop';
import type { PaymentSettings } from '../config';
import type { HttpSettings } from './security';

/** The signed-in caller, read fresh from the database on each request. */
export type Caller = {
  id: number;
  role: Role;
  companyId: number | null;
  brandId: number | null;
  branchId: number | null;
  isGuest: boolean;
  /**
   * A brand manager's brands (brand_managers, their default `brandId` among them), read with the
   * user; absent for other roles. server/resources/scope.ts `managedBrandIds` reads it.
   */
  brandIds?: readonly number[];
} | null;

export interface AppConfig {
  /** Public origin of the app, used in payment return URLs. */
  publicUrl: string;
  /**
   * True when PUBLIC_URL was not configured and publicUrl is only the address the server listens on:
   * the sandbox payment links are then root-relative, so the customer comes back to the origin they
   * opened the shop at (127.0.0.1, a LAN address, a proxy's name) and keeps their session there.
   */
  publicUrlIsListenAddress?: boolean;
  /** CORS origins, proxy trust and CSP sources (server/http/security.ts); none when absent. */
  http?: HttpSettings;
  /** The payment gateways configured (server/config.ts paymentSettingsFromEnv); none: the sandbox and cash only. */
  payments?: PaymentSettings;
}

export interface AppContext {
  db: Db;
  config: AppConfig;
  tokens: TokenService;
  sms: SmsProvider;
  /** New and changed orders, for the live order feed. */
  events: OrderEvents;
  /** Uploaded files (server/storage): DATA_DIR/uploads by default. */
  storage: FileStorage;
  /** Web push of customer notifications when VAPID is configured (server/notify); null: the shop's inbox only. */
  push: PushDelivery | null;
  auth: { callerOf(req: FastifyRequest): Promise<Caller> };
}

/** Reads the bearer token; a token that is present but invalid is a 401, never an anonymous call. */
export function createAuth(db: Db, tokens: TokenService): AppContext['auth'] {
  const cache = new WeakMap<FastifyRequest, Promise<Caller>>();
  async function resolve(req: FastifyRequest): Promise<Caller> {
    const header = req.headers.authorization?.trim();
    if (!header) return null;
    const match = /^Bearer\s+(.+)$/i.exec(header);
    if (!match) throw unauthorized();
    const claims = await tokens.verify(match[1]);
    if (!claims) throw unauthorized();
    const [user] = await db
      .select({
        id: users.id, role: users.role, companyId: users.companyId, brandId: users.brandId,
        branchId: users.branchId, isGuest: users.isGuest, isActive: users.isActive, sessionGeneration: users.sessionGeneration,
      })
      .from(users)
      .where(eq(users.id, claims.userId));
    // An archived user, or a session ended since the token was issued (server/auth/sessions.ts): the same 401.
    if (!user || !user.isActive || !sessionIsCurrent(claims.generation, user.sessionGeneration)) throw unauthorized();
    const { isActive: _active, sessionGeneration: _generation, ...caller } = user;
    if (caller.role !== 'BRAND_MANAGER') return { ...caller, role: caller.role as Role };
    const managed = await db.select({ brandId: brandManagers.brandId }).from(brandManagers).where(eq(brandManagers.userId, caller.id));
    return { ...caller, role: 'BRAND_MANAGER', brandIds: managed.map((m) => m.brandId) };
  }
  return {
    callerOf(req) {
      let found = cache.get(req);
      if (!found) cache.set(req, (found = resolve(req)));
      return found;
    },
  };
}
