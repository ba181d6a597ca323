import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { branches } from '../../server/db/schema';
import { PREPARATION_MINUTES } from '../../domain/readyEstimate';
import { seededMenu } from '../support/shopMenu';
import { useServer } from '../support/harness';

/**
 * Issue 25: a branch's preparation minutes (the ready estimate, the earliest time an order for later
 * may be for, and its fire time = chosen time − these minutes) are a branch setting operators edit
 * through Branch/Update like auto-accept and the deadline, within 1..240 (the database's CHECK).
 */
const API = '/api/services/app';
const token: Record<string, string> = {};
let menu: Awaited<ReturnType<typeof seededMenu>>;
const server = useServer();
beforeAll(async () => {
  menu = await seededMenu(server);
  for (const who of ['brandmanager', 'branchuser', 'customer']) token[who] = await server.api.login(who);
});

const updateBranch = (body: Record<string, unknown>, who = 'brandmanager') => server.api.put(`${API}/Branch/Update`, { token: token[who], body });
const listed = async () => ((await server.api.get(`${API}/Branch/GetBranchesForCurrentUser`, { token: token.brandmanager, query: { SkipCount: 0, MaxResultCount: 1, id: 1 } }))
  .body.result.data[0]) as { id: number; preparationMinutes: number };
const stored = async () => (await server.database.db.select({ m: branches.preparationMinutes }).from(branches).where(eq(branches.id, 1)))[0].m;
const quotedMinutes = async () => {
  const res = await server.api.post(`${API}/Store/QuoteOrder`, {
    token: token.customer,
    body: { brandId: 7, paymentSystem: 2, deliveryOptions: { branchId: 1, isPickup: true }, products: [{ productId: menu.product('Espresso'), quantity: 1 }] },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result.readyMinutes as number;
};

describe("a branch's preparation minutes", () => {
  it('are listed with the branch, saved by Branch/Update and read back; the shop\'s estimate follows', async () => {
    expect(await listed()).toMatchObject({ id: 1, preparationMinutes: PREPARATION_MINUTES.default });
    const saved = await updateBranch({ id: 1, preparationMinutes: 40 });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.result).toMatchObject({ id: 1, preparationMinutes: 40 });
    expect(await listed()).toMatchObject({ preparationMinutes: 40 });
    expect(await stored()).toBe(40);
    expect(await quotedMinutes()).toBe(40);
    expect((await updateBranch({ id: 1, preparationMinutes: PREPARATION_MINUTES.default })).status).toBe(200);
    expect(await quotedMinutes()).toBe(PREPARATION_MINUTES.default);
  });

  it(`take ${PREPARATION_MINUTES.min} to ${PREPARATION_MINUTES.max} whole minutes: anything else is a 400 naming the field, and nothing is written`, async () => {
    expect(PREPARATION_MINUTES).toMatchObject({ min: 1, max: 240 });
    for (const minutes of [0, 241, -5, 7.5, '20', null]) {
      const res = await updateBranch({ id: 1, preparationMinutes: minutes });
      expect(res.status, String(minutes)).toBe(400);
      expect(JSON.stringify(res.body.error), String(minutes)).toContain('preparationMinutes');
    }
    expect(await stored()).toBe(PREPARATION_MINUTES.default);
    for (const minutes of [PREPARATION_MINUTES.min, PREPARATION_MINUTES.max]) {
      expect((await updateBranch({ id: 1, preparationMinutes: minutes })).status, String(minutes)).toBe(200);
      expect(await stored()).toBe(minutes);
    }
    expect((await updateBranch({ id: 1, preparationMinutes: PREPARATION_MINUTES.default })).status).toBe(200);
  });

  it('are not the branch user\'s to change: 403 before any complaint about the body', async () => {
    for (const minutes of [30, 0]) expect((await updateBranch({ id: 1, preparationMinutes: minutes }, 'branchuser')).status).toBe(403);
    expect(await stored()).toBe(PREPARATION_MINUTES.default);
  });
});
