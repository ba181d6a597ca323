import type { FastifyRequest } from 'fastify';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { brandManagers, users } from '../db/schema';
import type { TokenService } from '../auth/tokens';
import { sessionIsCurrent } from '../auth/sessions';
import { createCallerCache, type CallerChanges, type KnownCaller } from '../auth/callers';
import { unauthorized } from './envelope';
import type { Role } from '../../domain/permissions';
import type { SmsProvider } from '../messages/smsProviders';
import type { OrderEvents } from '../events/orderEvents';
import type { FileStorage } from '../storage/storage';
import type { PushDelivery } from '../notify/pushLoop';
import type { PaymentSettings } from '../config';
import type { HttpSettings } from './security';

/** The signed-in caller, as its user row says (server/auth/callers.ts keeps it between requests until the row changes). */
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

/**
 * Reads the bearer token; a token that is present but invalid is a 401, never an anonymous call.
 * The caller's row is kept between requests when `changes` is given (server/auth/callers.ts: every
 * process forgets a user when the row changes); without it, it is read on every request.
 */
export function createAuth(db: Db, tokens: TokenService, changes: CallerChanges | null = null): AppContext['auth'] & { close(): void } {
  const cache = new WeakMap<FastifyRequest, Promise<Caller>>();
  const callers = createCallerCache(changes, (userId) => readCaller(db, userId));
  async function resolve(req: FastifyRequest): Promise<Caller> {
    const header = req.headers.authorization?.trim();
    if (!header) return null;
    const match = /^Bearer\s+(.+)$/i.exec(header);
    if (!match) throw unauthorized();
    const claims = await tokens.verify(match[1]);
    if (!claims) throw unauthorized();
    const known = await callers.get(claims.userId, claims.generation);
    // An archived user (not kept), or a session ended since the token was issued (server/auth/sessions.ts): the same 401.
    if (!known || !sessionIsCurrent(claims.generation, known.generation)) throw unauthorized();
    return known.caller;
  }
  return {
    callerOf(req) {
      let found = cache.get(req);
      if (!found) cache.set(req, (found = resolve(req)));
      return found;
    },
    close: callers.close,
  };
}

/** The active user's caller and session generation, from the row (and a brand manager's brands); null for an unknown or archived user. */
async function readCaller(db: Db, userId: number): Promise<KnownCaller<NonNullable<Caller>> | null> {
  const [user] = await db
    .select({
      id: users.id, role: users.role, companyId: users.companyId, brandId: users.brandId,
      branchId: users.branchId, isGuest: users.isGuest, isActive: users.isActive, sessionGeneration: users.sessionGeneration,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!user || !user.isActive) return null;
  const { isActive: _active, sessionGeneration: generation, ...caller } = user;
  // Frozen: one caller object serves many requests while it is kept.
  if (caller.role !== 'BRAND_MANAGER') return { caller: Object.freeze({ ...caller, role: caller.role as Role }), generation };
  const managed = await db.select({ brandId: brandManagers.brandId }).from(brandManagers).where(eq(brandManagers.userId, caller.id));
  return { caller: Object.freeze({ ...caller, role: 'BRAND_MANAGER' as const, brandIds: Object.freeze(managed.map((m) => m.brandId)) }), generation };
}
