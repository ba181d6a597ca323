import webpush from 'web-push';

/** A browser's push subscription as PushSubscription.toJSON() gives it (push_subscriptions). */
export interface PushTarget {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/**
 * What a push service answered: 'sent' (2xx), 'gone' (404 or 410: the subscription no longer
 * exists and is pruned), 'failed' (anything else, or no answer in time).
 */
export type PushOutcome = 'sent' | 'gone' | 'failed';

/**
 * The channel that reaches a customer beyond the shop's inbox (ARCHITECTURE.md "customer
 * notifications"). The inbox rows are always written; a sender only alerts the customer's browsers.
 * Not configured (the embedded default): no sender, the customer reads the inbox in the shop.
 */
export interface PushSender {
  /** The VAPID public key browsers subscribe with (applicationServerKey). */
  readonly publicKey: string;
  /** Sends one encrypted message to one subscription; never throws. */
  send(target: PushTarget, payload: string): Promise<PushOutcome>;
}

export interface VapidSettings {
  publicKey: string;
  privateKey: string;
  /** `mailto:` or an https URL the push services can contact. */
  subject: string;
  /** How long one push service may take to answer (default 10 s). */
  timeoutMs?: number;
  /** How long a push service keeps an undelivered message (default 1 day). */
  ttlSeconds?: number;
}

/**
 * Web push with VAPID (the `web-push` package encrypts the payload and signs the request); the
 * request itself is sent with fetch, so each one has a deadline and a test's stand-in push service
 * may answer over plain HTTP.
 */
export function webPushSender(settings: VapidSettings): PushSender {
  // Signing the VAPID token is most of a send's cost (ES256, about 2.5 ms against 0.7 ms for the
  // payload's encryption), and the token depends only on the push service's origin: sign it once
  // per origin and hour (web-push's tokens live 12 h). The first call also rejects malformed keys
  // or subject at start.
  const vapidFor = (audience: string) =>
    webpush.getVapidHeaders(audience, settings.subject, settings.publicKey, settings.privateKey, 'aes128gcm').Authorization as string;
  vapidFor('https://push.invalid');
  const tokens = new Map<string, { authorization: string; until: number }>();
  const authorizationFor = (endpoint: string) => {
    const audience = new URL(endpoint).origin;
    let token = tokens.get(audience);
    if (!token || token.until < Date.now()) tokens.set(audience, (token = { authorization: vapidFor(audience), until: Date.now() + 3_600_000 }));
    return token.authorization;
  };
  return {
    publicKey: settings.publicKey,
    async send(target, payload) {
      try {
        const request = webpush.generateRequestDetails(target, payload, { TTL: settings.ttlSeconds ?? 86_400, contentEncoding: 'aes128gcm' });
        const res = await fetch(request.endpoint, {
          method: request.method,
          headers: { ...(request.headers as Record<string, string>), Authorization: authorizationFor(request.endpoint) },
          body: request.body ? new Uint8Array(request.body as Buffer) : undefined,
          signal: AbortSignal.timeout(settings.timeoutMs ?? 10_000),
        });
        await res.arrayBuffer().catch(() => undefined);
        if (res.ok) return 'sent';
        return res.status === 404 || res.status === 410 ? 'gone' : 'failed';
      } catch {
        return 'failed';
      }
    },
  };
}

/**
 * VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT: all three turn web push on, none leaves
 * the embedded inbox only; some but not all stop the server at start, since half a configuration
 * would silently send nothing.
 */
export function pushSenderFromEnv(env: NodeJS.ProcessEnv = process.env): PushSender | null {
  const publicKey = env.VAPID_PUBLIC_KEY?.trim(), privateKey = env.VAPID_PRIVATE_KEY?.trim(), subject = env.VAPID_SUBJECT?.trim();
  if (!publicKey && !privateKey && !subject) return null;
  if (!publicKey || !privateKey || !subject) {
    throw new Error('Web push needs all of VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT (generate keys with `npx web-push generate-vapid-keys`).');
  }
  return webPushSender({ publicKey, privateKey, subject });
}
