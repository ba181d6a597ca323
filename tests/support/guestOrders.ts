import { randomUUID } from 'node:crypto';

type Api = {
  post: (url: string, opts?: { token?: string; body?: unknown; headers?: Record<string, string> }) => Promise<{ status: number; body: any }>;
  guestToken: () => Promise<string>;
};

/** A guest's cash order of branch 1 (brand 7), the shop's request shape (SPEC.md 3). Pick-up unless told. */
export function guestOrderBody(opts: { name?: string; carService?: boolean } = {}) {
  return {
    brandId: 7,
    paymentSystem: 2,
    guestCustomerName: opts.name ?? 'Walk-in Guest',
    guestPhoneNumber: '+96555512345',
    ...(opts.carService ? { carDetails: 'White Land Cruiser 12345' } : {}),
    deliveryOptions: { branchId: 1, ...(opts.carService ? { isCarService: true } : { isPickup: true }) },
    products: [{ productId: 1, quantity: 1 }],
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
