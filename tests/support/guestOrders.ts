import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';

type Api = {
  post: (url: string, opts?: { token?: string; body?: unknown; headers?: Record<string, string> }) => Promise<{ status: number; body: any }>;
  guestToken: () => Promise<string>;
};

/** A guest's cash order of branch 1 (brand 7; or the branch, brand and product given), the shop's request shape (SPEC.md 3). Pick-up unless told. */
export function guestOrderBody(opts: { name?: string; carService?: boolean; brandId?: number; branchId?: number; productId?: number } = {}) {
  return {
    brandId: opts.brandId ?? 7,
    paymentSystem: 2,
    guestCustomerName: opts.name ?? 'Walk-in Guest',
    guestPhoneNumber: '+96555512345',
    ...(opts.carService ? { carDetails: 'White Land Cruiser 12345' } : {}),
    deliveryOptions: { branchId: opts.branchId ?? 1, ...(opts.carService ? { isCarService: true } : { isPickup: true }) },
    products: [{ productId: opts.productId ?? 1, quantity: 1 }],
  };
}

/** Places a guest order through Store/SaveNewOrderVS1 and answers its id. */
export async function placeGuestOrder(api: Api, opts: { token?: string; name?: string; carService?: boolean } = {}): Promise<number> {
  const token = opts.token ?? await api.guestToken();
  const res = await api.post('/api/services/app/Store/SaveNewOrderVS1', {
    token, body: guestOrderBody(opts), headers: { 'idempotency-key': randomUUID() },
  });
  if (res.status !== 200 || !res.body.result?.orderId) throw new Error(`SaveNewOrderVS1 failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.result.orderId as number;
}

/**
 * A guest places an order from its own page in the browser: a guest session and SaveNewOrderVS1
 * through /graphql. Answers the order id, the page's clock just before the save was sent, and when
 * its answer came (the save's own round trip: the baseline of save → alert).
 */
export async function guestPlacesOrderFromPage(page: Page, opts: { name?: string; carService?: boolean } = {}): Promise<{ id: number; sentAt: number; answeredAt: number }> {
  // No function is declared inside the page's code: tsx (the bench) names functions with a helper
  // the page does not have.
  return page.evaluate(async ({ body, key }) => {
    const w = window as unknown as { __guestToken?: string };
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (!w.__guestToken) {
      const res = await (await fetch('/graphql', { method: 'POST', headers, body: JSON.stringify({ query: 'mutation { TokenAuth_Authenticate(input: { asGuest: true }) { accessToken } }' }) })).json();
      if (res.errors) throw new Error(JSON.stringify(res.errors));
      w.__guestToken = res.data.TokenAuth_Authenticate.accessToken as string;
    }
    const sentAt = Date.now();
    const res = await (await fetch('/graphql', {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${w.__guestToken}` },
      body: JSON.stringify({
        query: 'mutation Save($key: String, $input: SaveNewOrderInput_Input) { Store_SaveNewOrderVS1(idempotency_key: $key, input: $input) { isSuccessed orderId } }',
        variables: { key, input: body },
      }),
    })).json();
    if (res.errors) throw new Error(JSON.stringify(res.errors));
    return { id: res.data.Store_SaveNewOrderVS1.orderId as number, sentAt, answeredAt: Date.now() };
  }, { body: guestOrderBody(opts), key: randomUUID() });
}

/** When the console's alert for `orderId` played (its page's clock), as the app logs it for tests and the bench. */
export async function alertPlayedAt(page: Page, orderId: number): Promise<number> {
  return page.waitForFunction(
    (oid) => (window as unknown as { __alertLog?: Array<{ orderId: number; playedAt?: number }> }).__alertLog?.find((e) => e.orderId === oid && e.playedAt)?.playedAt,
    orderId, { timeout: 15_000 },
  ).then((h) => h.jsonValue() as Promise<number>);
}
