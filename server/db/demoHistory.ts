import { randomBytes } from 'node:crypto';
import { and, asc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { rowsOf, type Db } from './client';
import * as t from './schema';
import { sequence } from './demoScans';
import { DEMO_ACCOUNTS } from './seed';
import { GUEST_USER_ID } from '../../domain/constants';
import { filsToDecimal, toFils } from '../../domain/money';
import { NOT_ACCEPTED_IN_TIME, REASON_CHOICES, type DeliverySystem } from '../../machines/orderLifecycle';
import { orderNumberOf } from '../services/store/saveOrder';
import { addressSnapshot } from '../services/customerDeliveryAddress/addresses';
import { orderLedgerKey } from '../loyalty/ledger';
import { refreshStatistics } from '../services/statistic/rollup';

/**
 * The demo's history (issue 23, "A demo that shows the product"): six weeks of a business that
 * runs, written once on a new data directory by the product's start (server/start.ts
 * `demoHistory`, turned on by app/main.ts), never by the tests' seed, whose history stays empty.
 * - orders at the three demo branches across pick-up, drive-thru and delivery, KNET, card and
 *   cash, more at the weekend and at the morning and evening peaks: most closed (the cash
 *   collected as they close), some rejected with a reason (a few by the acceptance deadline),
 *   some no-shows, some refunded (online, cash handed back, one cash refund still owed), and a few
 *   of today still being made;
 * - the registered demo customers' points earned at closing and taken back at a refund, and
 *   wallet top-ups decided on /Request, all as ledger rows (the wallets are their sums, so the
 *   ledger's invariant holds); one wallet and one points request left pending;
 * - a points program at each branch, news for each brand, and a notification asked for by the
 *   brand manager, approved by the admin and sent to the brand's customers;
 * - the reward card scans are the seed's (server/db/demoScans.ts).
 * Rows are written as the lifecycle would have left them, in a few statements (not through every
 * lifecycle step: that would take the start from seconds to minutes), then the statistics rollup
 * is built so the first dashboard reads it. A fixed pseudo-random sequence: every install alike.
 */
export interface DemoHistory { orders: number; ledgerRows: number }

const DAYS = 42;
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** Orders per day at each branch on a weekday; Thursday to Saturday are busier (Kuwait's weekend). */
const DAILY_ORDERS: Record<number, number> = { 1: 9, 2: 5, 3: 4 };
const WEEKEND_FACTOR = 1.5;
/** Orders by Kuwait hour: the morning coffee and the evening peaks. */
const HOUR_WEIGHTS = [0, 0, 0, 0, 0, 0, 1, 4, 6, 5, 3, 2, 3, 3, 2, 2, 3, 4, 5, 6, 5, 4, 2, 1];
/** Points per KD of each branch's points program. */
const POINTS_PER_KD: Record<number, number> = { 1: 10, 2: 5, 3: 5 };
const KNET = 1, CASH = 2, CARD = 3;
const KUWAIT_OFFSET_MS = 3 * 60 * MINUTE;
const ADMIN = 1, COMPANY_ADMIN = 2, BRAND_MANAGER = 3, BRANCH_USER = 4;

type OrderRow = typeof t.orders.$inferInsert;

export async function seedDemoHistory(db: Db, now = new Date()): Promise<DemoHistory> {
  const result = await db.transaction(async (tx) => {
    const random = sequence(20261127);
    const pick = <T,>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
    const between = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
    const hours = HOUR_WEIGHTS.flatMap((w, h) => Array<number>(w).fill(h));

    const branchRows = await tx.select({ id: t.branches.id, brandId: t.branches.brandId }).from(t.branches).orderBy(asc(t.branches.id));
    const productRows = await tx.select({ id: t.products.id, brandId: t.products.brandId, name: t.products.name, price: t.products.price })
      .from(t.products).orderBy(asc(t.products.id));
    // The registered customers of each brand: those with a wallet there (the scan customers), and the demo customer at brand 7.
    const walletRows = await tx.select({ userId: t.customerWallets.userId, brandId: t.customerWallets.brandId }).from(t.customerWallets)
      .innerJoin(t.users, eq(t.users.id, t.customerWallets.userId)).where(and(eq(t.users.role, 'CUSTOMER'), eq(t.users.isGuest, false)));
    const customersOf = (brandId: number) => [...new Set(walletRows.filter((w) => w.brandId === brandId).map((w) => w.userId))];
    const areas = await tx.select({ id: t.deliveryAreas.id, parentId: t.deliveryAreas.parentId, name: t.deliveryAreas.name }).from(t.deliveryAreas)
      .where(isNotNull(t.deliveryAreas.parentId)).orderBy(asc(t.deliveryAreas.id)).limit(12);
    const regions = new Map((await tx.select({ id: t.deliveryAreas.id, name: t.deliveryAreas.name }).from(t.deliveryAreas)
      .where(isNull(t.deliveryAreas.parentId))).map((r) => [r.id, r.name]));
    const [{ code: currency }] = await tx.select({ code: t.currencies.code }).from(t.currencies).limit(1);

    const programs = await tx.insert(t.rewardPrograms).values(branchRows.map((b) => ({
      branchId: b.id, kind: 'points', name: b.brandId === 7 ? 'Mango Points' : 'Dune Points', pointsPerKd: String(POINTS_PER_KD[b.id] ?? 5),
      createdAt: new Date(now.getTime() - (DAYS + 10) * DAY),
    }))).returning({ branchId: t.rewardPrograms.branchId, name: t.rewardPrograms.name, pointsPerKd: t.rewardPrograms.pointsPerKd });

    // ── the orders ────────────────────────────────────────────────────────────
    type Planned = {
      order: Omit<OrderRow, 'id' | 'orderNumber'>; items: { productId: number; name: string; quantity: number; unitPrice: string; lineTotal: string }[];
      online: boolean; refund: null | { cause: 'rejected' | 'deadline' | 'refundRequest'; status: 'refunded' | 'owed'; at: Date; reason: string };
      /** When the order earned points: closed, not by a no-show (server/orders/points.ts closesSale). */
      closedAt: Date | null;
    };
    const planned: Planned[] = [];
    const todayStart = Math.floor((now.getTime() + KUWAIT_OFFSET_MS) / DAY) * DAY - KUWAIT_OFFSET_MS;
    for (let d = DAYS; d >= 0; d--) {
      const dayStart = todayStart - d * DAY;
      const weekday = new Date(dayStart + KUWAIT_OFFSET_MS).getUTCDay();
      for (const branch of branchRows) {
        const base = DAILY_ORDERS[branch.id] ?? 3;
        const n = Math.round(base * (weekday >= 4 ? WEEKEND_FACTOR : 1) * (0.7 + random() * 0.6));
        const products = productRows.filter((p) => p.brandId === branch.brandId);
        const customers = customersOf(branch.brandId);
        for (let i = 0; i < n; i++) {
          const createdAt = new Date(dayStart + pick(hours) * 60 * MINUTE + between(0, 59) * MINUTE + between(0, 59) * 1000);
          // Today's orders up to ten minutes ago (each accepted by now: none waits for the acceptance deadline); the last are still being made.
          if (createdAt.getTime() > now.getTime() - 10 * MINUTE) continue;
          planned.push(planOrder(createdAt, branch, products, customers, now));
        }
      }
    }

    function planOrder(createdAt: Date, branch: { id: number; brandId: number }, products: typeof productRows, customers: number[], at: Date): Planned {
      const mode: DeliverySystem = pick(['pickup', 'pickup', 'pickup', 'pickup', 'carService', 'carService', 'carService', 'delivery', 'delivery', 'delivery']);
      const paymentSystemId = pick([KNET, KNET, KNET, KNET, CARD, CARD, CASH, CASH, CASH, CASH]);
      const online = paymentSystemId !== CASH;
      const registered = customers.length > 0 && random() < 0.45;
      const userId = registered ? pick(customers) : GUEST_USER_ID;
      const guestNumber = between(1000, 9999);
      const items = Array.from({ length: between(1, 3) }, () => {
        const p = pick(products);
        const quantity = random() < 0.8 ? 1 : 2;
        return { productId: p.id, name: p.name, quantity, unitPrice: p.price, lineTotal: filsToDecimal(toFils(p.price) * quantity) };
      });
      const subtotal = items.reduce((s, i) => s + toFils(i.lineTotal), 0);
      const fee = mode === 'delivery' ? (subtotal >= 15_000 ? 0 : pick([500, 750, 1000])) : 0;
      const area = mode === 'delivery' ? pick(areas) : null;
      const acceptedAt = new Date(createdAt.getTime() + between(30, 360) * 1000);
      const readyAt = new Date(acceptedAt.getTime() + between(4, 16) * MINUTE);
      const doneAt = new Date(readyAt.getTime() + between(2, 20) * MINUTE);
      const inProgress = doneAt.getTime() > at.getTime();
      const roll = random();
      const outcome = inProgress ? 'open'
        : roll < 0.07 ? 'rejected'
          : roll < 0.11 && mode !== 'delivery' ? 'noShow'
            : roll < 0.14 && (online || paymentSystemId === CASH) ? 'refunded'
              : 'closed';
      const order: Planned['order'] = {
        brandId: branch.brandId, branchId: branch.id, userId, deliverySystem: mode, paymentSystemId,
        guestCustomerName: registered ? null : pick(['Ahmad', 'Mariam', 'Yousef', 'Sarah', 'Abdulaziz', 'Hessa', 'Jaber', 'Rawan', 'Meshari', 'Dalal']),
        guestPhoneNumber: registered ? null : `+9656${guestNumber}${String(between(0, 999)).padStart(3, '0')}`,
        subtotal: filsToDecimal(subtotal), tax: '0.000', deliveryFee: filsToDecimal(fee), discount: '0.000', total: filsToDecimal(subtotal + fee),
        deliveryAddress: area ? addressSnapshot({
          regionId: area.parentId!, region: regions.get(area.parentId!) ?? '', areaId: area.id, area: area.name,
          block: String(between(1, 12)), street: String(between(1, 40)), houseNo: String(between(1, 90)), latitude: 29.33, longitude: 48.0,
        }, null) : null,
        carDetails: mode === 'carService' ? `${pick(['White', 'Black', 'Silver', 'Grey'])} ${pick(['Toyota', 'Nissan', 'Lexus', 'GMC'])} ${pick(['SUV', 'Sedan'])}, plate ${between(10000, 99999)}` : null,
        ohash: randomBytes(24).toString('base64url'),
        createdAt, updatedAt: createdAt, isViewed: true,
        readyEstimateAt: new Date(createdAt.getTime() + 15 * MINUTE),
        status: 'closed', arrival: 'none', payment: online ? 'paid' : 'unpaid', refund: 'none', version: 0,
        paidAt: online ? new Date(createdAt.getTime() + between(20, 90) * 1000) : null,
      };
      const plan: Planned = { order, items, online, refund: null, closedAt: null };
      const at2 = (status: string, version: number, updatedAt: Date, extra: Partial<Planned['order']> = {}) =>
        Object.assign(order, { status, version, updatedAt, ...extra });
      switch (outcome) {
        case 'open': {
          // Accepted, some of them ready: the branch's board has work on it.
          const ready = readyAt.getTime() < at.getTime();
          at2(ready ? 'ready' : 'accepted', ready ? 2 : 1, ready ? readyAt : acceptedAt, { acceptedAt, readyAt: ready ? readyAt : null });
          break;
        }
        case 'rejected': {
          const late = random() < 0.25;
          const rejectedAt = new Date(createdAt.getTime() + (late ? 10 * MINUTE : between(1, 5) * MINUTE));
          at2('rejected', 1, rejectedAt, { statusReason: late ? NOT_ACCEPTED_IN_TIME : pick(REASON_CHOICES['order.reject']) });
          if (online) plan.refund = { cause: late ? 'deadline' : 'rejected', status: 'refunded', at: new Date(rejectedAt.getTime() + 2 * MINUTE), reason: order.statusReason! };
          break;
        }
        case 'noShow':
          at2('closed', 3, doneAt, { acceptedAt, readyAt, arrival: 'noShow', statusReason: pick(REASON_CHOICES['order.noShow']) });
          // A no-show earns nothing (server/orders/points.ts closesSale): no closedAt, so no points below.
          break;
        default: {
          at2('closed', 3, doneAt, { acceptedAt, readyAt, arrival: mode === 'carService' ? 'served' : 'none' });
          // Cash is collected as the order closes (issue 21).
          if (!online) Object.assign(order, { payment: 'paid', paidAt: doneAt });
          plan.closedAt = doneAt;
          if (outcome === 'refunded') {
            const refundAt = new Date(doneAt.getTime() + between(30, 240) * MINUTE);
            const owed = !online && at.getTime() - refundAt.getTime() < 3 * DAY;
            Object.assign(order, { refund: 'approved', version: 5, updatedAt: refundAt });
            plan.refund = { cause: 'refundRequest', status: owed ? 'owed' : 'refunded', at: refundAt, reason: pick(['Wrong drink made', 'Order arrived cold', 'Item missing from the bag', 'Charged twice by mistake']) };
          }
        }
      }
      return plan;
    }

    // Ids reserved first, so each order's number (B<branch>-<id>) is written with it.
    const ids = rowsOf<{ id: number }>(await tx.execute(sql`select nextval(pg_get_serial_sequence('orders', 'id'))::int as id from generate_series(1, ${planned.length})`)).map((r) => Number(r.id));
    planned.sort((a, b) => a.order.createdAt!.getTime() - b.order.createdAt!.getTime());
    const withIds = planned.map((p, i) => ({ ...p, id: ids[i], orderNumber: orderNumberOf(p.order.branchId, ids[i]) }));
    for (const chunk of chunks(withIds, 250)) {
      await tx.insert(t.orders).values(chunk.map((p) => ({ ...p.order, id: p.id, orderNumber: p.orderNumber })));
      await tx.insert(t.orderItems).values(chunk.flatMap((p) => p.items.map((i) => ({ ...i, orderId: p.id }))));
    }
    const paidOnline = withIds.filter((p) => p.online);
    const paymentIds = new Map<number, number>();
    for (const chunk of chunks(paidOnline, 500)) {
      const rows = await tx.insert(t.payments).values(chunk.map((p) => ({
        orderId: p.id, provider: 'sandbox', amount: p.order.total!, status: 'paid', providerRef: `demo-${p.orderNumber}`,
        paidAt: p.order.paidAt, createdAt: p.order.createdAt, updatedAt: p.order.paidAt!,
      }))).returning({ id: t.payments.id, orderId: t.payments.orderId });
      for (const r of rows) paymentIds.set(r.orderId, r.id);
    }
    // Refunds: the request and its approval (by someone else than who asked), then the money back.
    const refunded = withIds.filter((p) => p.refund);
    const staffAt = (brandId: number) => (brandId === 7 ? { asked: BRANCH_USER, decided: BRAND_MANAGER } : { asked: COMPANY_ADMIN, decided: ADMIN });
    const requestIds = new Map<number, number>();
    const asked = refunded.filter((p) => p.refund!.cause === 'refundRequest');
    if (asked.length) {
      const rows = await tx.insert(t.refundRequests).values(asked.map((p) => ({
        orderId: p.id, amount: p.order.total!, reason: p.refund!.reason, status: 'approved',
        requestedBy: staffAt(p.order.brandId).asked, approvedBy: staffAt(p.order.brandId).decided,
        createdAt: new Date(p.refund!.at.getTime() - 20 * MINUTE), approvedAt: p.refund!.at,
      }))).returning({ id: t.refundRequests.id, orderId: t.refundRequests.orderId });
      for (const r of rows) requestIds.set(r.orderId, r.id);
    }
    if (refunded.length) {
      await tx.insert(t.refunds).values(refunded.map((p) => {
        const r = p.refund!;
        const done = r.status === 'refunded';
        return {
          orderId: p.id, paymentId: paymentIds.get(p.id) ?? null, refundRequestId: requestIds.get(p.id) ?? null,
          provider: p.online ? 'sandbox' : 'cash', amount: p.order.total!, currency, reason: r.reason, cause: r.cause, status: r.status,
          providerRefundRef: p.online ? `demo-refund-${p.orderNumber}` : null, providerStatus: p.online ? 'refunded' : null, attempts: p.online ? 1 : 0,
          handedBackBy: !p.online && done ? staffAt(p.order.brandId).asked : null,
          createdAt: r.at, updatedAt: done ? new Date(r.at.getTime() + 3 * MINUTE) : r.at, refundedAt: done ? new Date(r.at.getTime() + 3 * MINUTE) : null,
        };
      }));
    }

    // ── the ledger: points earned at closing, taken back at a refund; wallet top-ups ──
    const ledger: (typeof t.walletLedger.$inferInsert)[] = [];
    const programOf = new Map(programs.map((p) => [p.branchId, p]));
    for (const p of withIds) {
      if (p.order.userId === GUEST_USER_ID || !p.closedAt) continue;
      const program = programOf.get(p.order.branchId);
      const points = program ? Math.floor((toFils(p.order.total!) * Number(program.pointsPerKd)) / 1000) : 0;
      if (points <= 0) continue;
      const row = { userId: p.order.userId, brandId: p.order.brandId, orderId: p.id, referenceType: 'order', referenceId: p.id, createdBy: null, account: 'points' };
      ledger.push({ ...row, amount: String(points), reason: `Points earned: ${program!.name} (order ${p.orderNumber})`, idempotencyKey: orderLedgerKey(p.id, 'points-earned'), createdAt: p.closedAt });
      if (p.order.refund === 'approved') {
        ledger.push({ ...row, amount: String(-points), reason: `Points taken back: order ${p.orderNumber} refunded`, idempotencyKey: orderLedgerKey(p.id, 'points-taken-back'), createdAt: p.refund!.at });
      }
    }
    // Wallet top-ups asked by the brand manager and approved by the company admin (/Request), for some of brand 7's customers.
    const topUps = customersOf(7).slice(0, 8).map((userId, i) => ({
      userId, brandId: 7, account: 'wallet', amount: filsToDecimal(pick([2000, 3000, 5000])), reason: pick(['Birthday gift', 'Apology for a late order', 'Loyal customer thank-you']),
      status: 'approved', requestedBy: BRAND_MANAGER, decidedBy: COMPANY_ADMIN,
      createdAt: new Date(now.getTime() - (30 - i * 3) * DAY), decidedAt: new Date(now.getTime() - (30 - i * 3) * DAY + 2 * 60 * MINUTE),
    }));
    const pending = [
      { userId: customersOf(7)[8] ?? DEMO_ACCOUNTS[4].id, brandId: 7, account: 'wallet', amount: '4.000', reason: 'Compensation for a missing item', status: 'pending', requestedBy: BRAND_MANAGER, createdAt: new Date(now.getTime() - 5 * 60 * MINUTE) },
      { userId: DEMO_ACCOUNTS[4].id, brandId: 7, account: 'points', amount: '50', reason: 'Points for a review', status: 'pending', requestedBy: BRAND_MANAGER, createdAt: new Date(now.getTime() - 3 * 60 * MINUTE) },
    ];
    const requests = await tx.insert(t.customerRequests).values([...topUps, ...pending]).returning({ id: t.customerRequests.id, status: t.customerRequests.status });
    topUps.forEach((r, i) => ledger.push({
      userId: r.userId, brandId: r.brandId, account: 'wallet', amount: r.amount, reason: `Request ${requests[i].id} approved: ${r.reason}`,
      referenceType: 'request', referenceId: requests[i].id, createdBy: r.decidedBy, idempotencyKey: `request:${requests[i].id}:approved`, createdAt: r.decidedAt,
    }));
    for (const chunk of chunks(ledger, 500)) await tx.insert(t.walletLedger).values(chunk);
    // Each wallet is the sum of its ledger rows (the ledger's invariant, server/loyalty/ledger.ts ledgerMismatches).
    await tx.execute(sql`
      insert into "customer_wallets" ("user_id", "brand_id")
      select distinct "user_id", "brand_id" from "wallet_ledger" on conflict do nothing`);
    await tx.execute(sql`
      update "customer_wallets" w set
        "points" = coalesce(s."points", 0), "balance" = coalesce(s."wallet", 0), "credit" = coalesce(s."credit", 0),
        "punches" = coalesce(s."punches", 0), "free_items" = coalesce(s."free_items", 0)
      from (select "user_id", "brand_id",
              sum("amount") filter (where "account" = 'points') as "points", sum("amount") filter (where "account" = 'wallet') as "wallet",
              sum("amount") filter (where "account" = 'credit') as "credit", sum("amount") filter (where "account" = 'punches') as "punches",
              sum("amount") filter (where "account" = 'freeItems') as "free_items"
            from "wallet_ledger" group by 1, 2) s
      where s."user_id" = w."user_id" and s."brand_id" = w."brand_id"`);

    // ── news and a sent notification ─────────────────────────────────────────
    await tx.insert(t.brandAdvertisements).values([
      { brandId: 7, title: 'Pistachio season is here', text: 'Our pistachio cookie is back, baked fresh every morning.', imageUrl: '/images/products/cookie.svg',
        startDate: new Date(now.getTime() - 10 * DAY), endDate: new Date(now.getTime() + 20 * DAY), createdAt: new Date(now.getTime() - 11 * DAY) },
      { brandId: 7, title: 'Cold brew, 18 hours in the making', text: 'Try it over ice this week.', imageUrl: '/images/products/coldbrew.svg',
        startDate: new Date(now.getTime() - 3 * DAY), endDate: new Date(now.getTime() + 11 * DAY), createdAt: new Date(now.getTime() - 4 * DAY) },
      { brandId: 8, title: 'Fresh sourdough every morning', text: 'Out of the oven at 7:00 in Kuwait City and Jabriya.', imageUrl: '/images/products/bread.svg',
        startDate: new Date(now.getTime() - 7 * DAY), endDate: new Date(now.getTime() + 23 * DAY), createdAt: new Date(now.getTime() - 8 * DAY) },
    ]);
    const audience = customersOf(7);
    const [request] = await tx.insert(t.notificationRequests).values({
      brandId: 7, title: 'Double points this weekend', text: 'Every order at Mango Coffee earns double points from Thursday to Saturday.',
      status: 'approved', requestedBy: BRAND_MANAGER, decidedBy: ADMIN,
      createdAt: new Date(now.getTime() - 9 * DAY), decidedAt: new Date(now.getTime() - 9 * DAY + 45 * MINUTE),
    }).returning({ id: t.notificationRequests.id, title: t.notificationRequests.title, text: t.notificationRequests.text });
    const [sent] = await tx.insert(t.notifications).values({
      brandId: 7, title: request.title, text: request.text, requestId: request.id, sentBy: ADMIN, recipients: audience.length,
      createdAt: new Date(now.getTime() - 9 * DAY + 45 * MINUTE),
    }).returning({ id: t.notifications.id });
    if (audience.length) {
      await tx.insert(t.customerNotifications).values(audience.map((userId, i) => ({
        notificationId: sent.id, userId, readAt: i % 3 === 0 ? null : new Date(now.getTime() - 8 * DAY),
      })));
    }
    return { orders: withIds.length, ledgerRows: ledger.length };
  });
  // The rollup built now, so the first dashboard, statistics or report reads it without building it.
  await refreshStatistics(db);
  return result;
}

function chunks<T>(xs: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += size) out.push(xs.slice(i, i + size));
  return out;
}

