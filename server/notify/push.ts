import webpush from 'web-push';

/** A browser's push subscription as PushSubscription.toJSON() gives it (push_subscriptions). */
export interface PushTarget {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/**
 * What a push service answered in the end: 'sent' (2xx), 'gone' (404 or 410: the subscription no
 * longer exists and is deleted), 'failed' (400, 403, 413 and other refusals, not tried again; or
 * 429, 5xx and no answer still after the last try).
 */
export type PushOutcome = 'sent' | 'gone' | 'failed';

/**
 * How a push service keeps one message (RFC 8030): its lifetime (TTL), its urgency, and a topic
 * under which a newer message replaces an older one not yet delivered (at most 32 characters of the
 * URL-safe base64 alphabet).
 */
export interface PushOptions { ttlSeconds: number; urgency: 'very-low' | 'low' | 'normal' | 'high'; topic?: string }

/** Issue 27: an order's status (accepted, ready, rejected, refunded) matters for 15 minutes, at once, and only its newest. */
export const orderStatusPush = (orderId: number): PushOptions => ({ ttlSeconds: 15 * 60, urgency: 'high', topic: `order-${orderId}` });
/** Issue 27: a brand's notification (marketing, approved) may wait a day, at normal urgency. */
export const MARKETING_PUSH: PushOptions = { ttlSeconds: 24 * 60 * 60, urgency: 'normal' };

/**
 * The channel that reaches a customer beyond the shop's inbox (ARCHITECTURE.md "customer
 * notifications"). The inbox rows are always written; a sender only alerts the customer's browsers.
 * Not configured (the embedded default): no sender, the customer reads the inbox in the shop.
 */
export interface PushSender {
  /** The VAPID public key browsers subscribe with (applicationServerKey). */
  readonly publicKey: string;
  /** Sends one encrypted message to one subscription, trying again as PUSH_RETRY says; never throws. */
  send(target: PushTarget, payload: string, options?: PushOptions): Promise<PushOutcome>;
}

export interface VapidSettings {
  publicKey: string;
  privateKey: string;
  /** `mailto:` or an https URL the push services can contact. */
  subject: string;
  /** How long one push service may take to answer (default 10 s). */
  timeoutMs?: number;
  /** Tries and waits (default PUSH_RETRY). */
  retry?: Partial<typeof PUSH_RETRY>;
}

/**
 * Issue 27: 429 and 5xx (and no answer) are tried again, 5 tries in all, after the push service's
 * Retry-After when it gives one, else 1 s, 2 s, 4 s, 8 s; a Retry-After longer than a minute is not
 * waited for in the sender (the inbox keeps the message). 400, 403 and 413 are final.
 */
export const PUSH_RETRY = { tries: 5, baseDelayMs: 1_000, maxWaitMs: 60_000 };

/** Retry-After as seconds or an HTTP date (RFC 9110), in milliseconds from now; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
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
  const retry = { ...PUSH_RETRY, ...settings.retry };
  /** One request: its outcome, or how long to wait before the next try (undefined: the back-off's). */
  async function once(target: PushTarget, payload: string, options: PushOptions): Promise<PushOutcome | { again: number | null }> {
    try {
      const request = webpush.generateRequestDetails(target, payload, {
        TTL: options.ttlSeconds, urgency: options.urgency, ...(options.topic && { topic: options.topic }), contentEncoding: 'aes128gcm',
      });
      const res = await fetch(request.endpoint, {
        method: request.method,
        headers: { ...(request.headers as Record<string, string>), Authorization: authorizationFor(request.endpoint) },
        body: request.body ? new Uint8Array(request.body as Buffer) : undefined,
        signal: AbortSignal.timeout(settings.timeoutMs ?? 10_000),
      });
      await res.arrayBuffer().catch(() => undefined);
      if (res.ok) return 'sent';
      if (res.status === 404 || res.status === 410) return 'gone';
      if (res.status === 429 || res.status >= 500) return { again: retryAfterMs(res.headers.get('retry-after')) };
      return 'failed';
    } catch {
      return { again: null };
    }
  }
  return {
    publicKey: settings.publicKey,
    async send(target, payload, options = MARKETING_PUSH) {
      for (let attempt = 1; ; attempt++) {
        const outcome = await once(target, payload, options);
        if (typeof outcome === 'string') return outcome;
        const wait = outcome.again ?? retry.baseDelayMs * 2 ** (attempt - 1);
        if (attempt >= retry.tries || wait > retry.maxWaitMs) return 'failed';
        await new Promise((resolve) => setTimeout(resolve, wait));
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
