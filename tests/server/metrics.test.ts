import { describe, expect, it } from 'vitest';
import { placeGuestOrder } from '../support/guestOrders';
import { useServer } from '../support/harness';

/** Prometheus metrics on /metrics (issue 14): off by default, and for the metrics token's holder only. */
describe('/metrics off by default', () => {
  const server = useServer();

  it('is a 404 when METRICS_TOKEN is not set', async () => {
    const res = await fetch(`${server.url}/metrics`);
    expect(res.status).toBe(404);
  });
});

describe('/metrics with a token', () => {
  const token = 'metrics-token-for-tests';
  const server = useServer({ metricsToken: token });

  const scrape = async (authorization?: string) => fetch(`${server.url}/metrics`, { headers: authorization ? { authorization } : {} });

  it('refuses a scrape without the token, or with a user token, in the ABP envelope', async () => {
    const none = await scrape();
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ success: false, unAuthorizedRequest: true });
    expect((await scrape('Bearer wrong')).status).toBe(401);
    const userToken = await server.api.login('admin');
    expect((await scrape(`Bearer ${userToken}`)).status).toBe(401);
  });

  it('does not open any other route to the metrics token', async () => {
    const profile = (authorization: string) => fetch(`${server.url}/api/services/app/User/Get?Id=1`, { headers: { authorization } });
    expect((await profile(`Bearer ${token}`)).status).toBe(401);
    expect((await profile(`Bearer ${await server.api.login('admin')}`)).status).toBe(200);
  });

  it('counts a request by its route pattern and reports latency, order intake, live-feed subscribers and the database pool', async () => {
    const read = async () => {
      const res = await scrape(`Bearer ${token}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/plain');
      return res.text();
    };
    const countOf = (text: string) => {
      const line = text.split('\n').find((l) => l.startsWith('brewops_http_requests_total{') && l.includes('route="/api/services/app/Brand/GetBrandsForMangoCustomer"') && l.includes('status="200"'));
      return line ? Number(line.split(' ').pop()) : 0;
    };
    const before = countOf(await read());
    const brands = await fetch(`${server.url}/api/services/app/Brand/GetBrandsForMangoCustomer`);
    expect(brands.status).toBe(200);
    const text = await read();
    expect(countOf(text)).toBe(before + 1);
    expect(text).toMatch(/brewops_http_request_duration_seconds_bucket\{[^}]*route="\/api\/services\/app\/Brand\/GetBrandsForMangoCustomer"/);
    expect(text).toMatch(/^brewops_orders_created_total 0$/m);
    await placeGuestOrder(server.api);
    expect(await read()).toMatch(/^brewops_orders_created_total 1$/m);
    expect(text).toMatch(/^brewops_live_feed_subscribers 0$/m);
    expect(text).toMatch(/^brewops_db_pool_connections\{state="total"\} \d+$/m);
    expect(text).toMatch(/^brewops_db_pool_connections\{state="waiting"\} \d+$/m);
  });
});
