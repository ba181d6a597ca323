import { beforeAll, expect } from 'vitest';
import { countRows, type TestServer } from './server';

/** Shared by tests/server/menu.test.ts and menu-access.test.ts. */
export const APP = '/api/services/app';
export const PT = `${APP}/ProductTypesAndSubtypes`;
export const P = `${APP}/Products`;
export const PA = `${APP}/ProductAddition`;
const USERS = ['admin', 'companyadmin', 'brandmanager', 'branchuser', 'customer'] as const;
type Who = (typeof USERS)[number] | 'anonymous';
const MENU_TABLES = ['product_types', 'product_subtypes', 'products', 'option_groups', 'option_items', 'product_addition_groups', 'branch_hidden_products', 'branch_hidden_options', 'brand_hidden_delivery_areas', 'audit_log'];

/** The demo accounts signed in once for the file, and the calls' checks: `refused` proves nothing was written, `ok` answers the result. */
export function useMenuCallers(server: TestServer) {
  const token = {} as Record<Who, string | undefined>;
  beforeAll(async () => {
    for (const u of USERS) token[u] = await server.api.login(u);
    token.anonymous = undefined;
  });
  const as = (who: Who) => ({ token: token[who] });
  const counts = async () => Promise.all(MENU_TABLES.map((tb) => countRows(server, tb)));
  /** Calls and proves nothing was written (any menu table, the audit log, orders). */
  async function refused(res: Promise<{ status: number; body: any }>, status: number, message?: string | RegExp) {
    const before = [...await counts(), await countRows(server, 'orders')];
    const r = await res;
    expect(r.status, JSON.stringify(r.body)).toBe(status);
    if (message) expect(r.body.error.message).toMatch(message);
    expect([...await counts(), await countRows(server, 'orders')]).toEqual(before);
    return r;
  }
  const ok = async (res: Promise<{ status: number; body: any }>) => {
    const r = await res;
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.result;
  };
  return { as, refused, ok };
}
