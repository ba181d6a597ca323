import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import * as t from '../../server/db/schema';
import { fireDueOrders } from '../../server/orders/fire';
import { addDays, dayKey } from '../../domain/time';
import { readOrder } from '../support/orders';
import { seededMenu } from '../support/shopMenu';
import { useServer } from '../support/harness';

/**
 * Issue 25, "the customer sees the chosen time everywhere: checkout, tracker, inbox": the notices of
 * an order for later (accepted, ready, rejected) name its chosen time, on Kuwait's clock, in the
 * customer's language, as the tracker writes it ('Sun, Nov 29, 07:00'). An order for as soon as
 * possible keeps its words (tests/server/payments-close.test.ts).
 */
const API = '/api/services/app';
const STORE = `${API}/Store`;
const INBOX = `${API}/Notifications/GetMyNotifications`;
const CUSTOMER_ID = 5;
const token: Record<string, string> = {};
let menu: Awaited<ReturnType<typeof seededMenu>>;
const server = useServer();
beforeAll(async () => {
  menu = await seededMenu(server);
  for (const who of ['branchuser', 'customer']) token[who] = await server.api.login(who);
});
afterEach(async () => { await server.database.db.update(t.users).set({ language: null }).where(eq(t.users.id, CUSTOMER_ID)); });

const pad = (n: number) => String(n).padStart(2, '0');
const EN_DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const EN_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const AR_DAYS = ['الأحد', 'الاثنين', 'الثلاثاء', 'الأربعاء', 'الخميس', 'الجمعة', 'السبت'];
const AR_MONTHS = ['يناير', 'فبراير', 'مارس', 'أبريل', 'مايو', 'يونيو', 'يوليو', 'أغسطس', 'سبتمبر', 'أكتوبر', 'نوفمبر', 'ديسمبر'];
/** The chosen time as written on Kuwait's clock (UTC+3 all year), worked out here by hand, not by the product's formatter. */
function kuwaitText(iso: string, language: 'en' | 'ar') {
  const k = new Date(Date.parse(iso) + 3 * 3600_000);
  const clock = `${pad(k.getUTCHours())}:${pad(k.getUTCMinutes())}`;
  return language === 'en'
    ? `${EN_DAYS[k.getUTCDay()]}, ${EN_MONTHS[k.getUTCMonth()]} ${k.getUTCDate()}, ${clock}`
    : `${AR_DAYS[k.getUTCDay()]}، ${k.getUTCDate()} ${AR_MONTHS[k.getUTCMonth()]}, ${clock}`;
}

/** The free pickup slots of tomorrow at branch 1, as the shop offers them. */
async function tomorrowsSlots(): Promise<string[]> {
  const res = await server.api.get(`${STORE}/GetOrderSlots`, { query: { branchId: 1, mode: 'pickup', day: addDays(dayKey(new Date()), 1) } });
  return (res.body.result.slots as { start: string; state: string }[]).filter((s) => s.state === 'free').map((s) => s.start);
}
async function placeFor(scheduledFor: string) {
  const res = await server.api.post(`${STORE}/SaveNewOrderVS1`, {
    token: token.customer, headers: { 'idempotency-key': randomUUID() },
    body: { brandId: 7, paymentSystem: 2, deliveryOptions: { branchId: 1, isPickup: true }, products: [{ productId: menu.product('Espresso'), quantity: 1 }], scheduledFor },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result as { orderId: number; orderNumber: string };
}
const setStatus = async (orderId: number, status: string, reason?: string) => {
  const res = await server.api.put(`${STORE}/UpdateOrderStatus`, { token: token.branchuser, body: { orderId, status, ...(reason ? { reason } : {}) } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};
const noticesOf = (orderId: number) => server.database.db.select({ title: t.notifications.title, text: t.notifications.text })
  .from(t.customerNotifications).innerJoin(t.notifications, eq(t.notifications.id, t.customerNotifications.notificationId))
  .where(and(eq(t.customerNotifications.userId, CUSTOMER_ID), eq(t.notifications.orderId, orderId))).orderBy(t.notifications.id);

/** An order for later fired at its fire time (the job runner's step), then accepted and made ready; another rejected before it fires. */
async function laterOrders(slots: string[]) {
  const made = await placeFor(slots[0]);
  const row = await readOrder(server, made.orderId);
  expect(row.status).toBe('scheduled');
  const [branch] = await server.database.db.select({ m: t.branches.preparationMinutes }).from(t.branches).where(eq(t.branches.id, 1));
  expect(await fireDueOrders({ db: server.database.db, events: server.events }, new Date(row.scheduledFor!.getTime() - branch.m * 60_000))).toContain(made.orderId);
  await setStatus(made.orderId, 'accepted');
  await setStatus(made.orderId, 'ready');
  const refused = await placeFor(slots[1]);
  await setStatus(refused.orderId, 'rejected', 'Closing early');
  return { made, refused };
}

describe("an order for later's notices name its chosen time", () => {
  it('in English: accepted, ready and rejected, and the bell lists them', async () => {
    const slots = (await tomorrowsSlots()).slice(0, 2);
    const { made, refused } = await laterOrders(slots);
    const [madeAt, refusedAt] = slots.map((s) => kuwaitText(s, 'en'));
    expect(await noticesOf(made.orderId)).toEqual([
      { title: `Order ${made.orderNumber}`, text: `Your order for ${madeAt} was accepted and is being prepared.` },
      { title: `Order ${made.orderNumber}`, text: `Your order for ${madeAt} is ready.` },
    ]);
    expect(await noticesOf(refused.orderId)).toEqual([
      { title: `Order ${refused.orderNumber}`, text: `Sorry, the branch could not take your order for ${refusedAt}: Closing early.` },
    ]);
    const inbox = await server.api.get(INBOX, { token: token.customer, query: { MaxResultCount: 50 } });
    expect((inbox.body.result.data as { text: string }[]).map((n) => n.text)).toContain(`Your order for ${madeAt} is ready.`);
  });

  it('in Arabic, the language the customer uses the shop in', async () => {
    expect((await server.api.get(INBOX, { token: token.customer, headers: { 'accept-language': 'ar-KW,ar;q=0.9' } })).status).toBe(200);
    const slots = (await tomorrowsSlots()).slice(2, 4);
    const { made, refused } = await laterOrders(slots);
    const [madeAt, refusedAt] = slots.map((s) => kuwaitText(s, 'ar'));
    expect((await noticesOf(made.orderId)).map((n) => n.text)).toEqual([
      `تم قبول طلبك لموعد ${madeAt} ويجري تحضيره.`,
      `طلبك لموعد ${madeAt} جاهز.`,
    ]);
    expect((await noticesOf(refused.orderId)).map((n) => n.text)).toEqual([`عذرًا، لم يتمكن الفرع من قبول طلبك لموعد ${refusedAt}: Closing early.`]);
  });
});
