import { Type, type TInteger, type TNumber } from 'typebox';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { rowsOf, type Db, type Tx } from '../db/client';
import { customerWallets, walletLedger } from '../db/schema';
import { badRequest, unprocessable } from '../http/envelope';
import { filsToDecimal, LOYALTY_CEILINGS, toFils } from '../../domain/money';

/**
 * The loyalty ledger (docs/decisions.md "Loyalty"). Every change of a customer's balances is one
 * append-only row of `wallet_ledger` (a trigger refuses UPDATE and DELETE); `customer_wallets`
 * caches the sum per customer, brand and account, changed in the same transaction by a
 * conditional update that cannot go below zero (and a CHECK constraint behind it). Each row has a
 * unique idempotency key, so a retried change is applied once.
 */
export const ACCOUNTS = ['wallet', 'credit', 'points', 'punches', 'freeItems'] as const;
export type Account = (typeof ACCOUNTS)[number];
/** Money accounts hold KD with 3 decimals; the others count whole points, punches and items. */
export const MONEY_ACCOUNTS: readonly Account[] = ['wallet', 'credit'];
export type ReferenceType = 'order' | 'request' | 'adjustment' | 'opening';

const ACCOUNT_LABEL: Record<Account, string> = {
  wallet: 'wallet balance', credit: 'credit balance', points: 'points', punches: 'punches', freeItems: 'free items',
};

const cachedColumn = (account: Account): PgColumn => ({
  wallet: customerWallets.balance, credit: customerWallets.credit, points: customerWallets.points,
  punches: customerWallets.punches, freeItems: customerWallets.freeItems,
})[account];

export const notEnough = (account: Account) => `The customer does not have enough ${ACCOUNT_LABEL[account]} for this.`;

/** The per-grant and per-balance ceilings of every account (domain/money.ts). */
export const CEILINGS: Record<Account, { grant: number; balance: number }> = LOYALTY_CEILINGS;

/**
 * The schema of a request field holding an amount of `account`, up to its `limit` ceiling: money
 * a JSON number in KD with at most 3 decimals, the counts whole numbers. Bodies are not coerced
 * (server/http/lazySchemas.ts), so `"250"`, `true` or `null` are a 400 naming the field.
 */
export function amountSchema(account: Account | readonly Account[], limit: 'grant' | 'balance', opts: { minimum: number; description: string }): TNumber | TInteger {
  // A field shared by several accounts (a request's) takes the widest; the ledger checks each account's own.
  const accounts: readonly Account[] = typeof account === 'string' ? [account] : account;
  const maximum = Math.max(...accounts.map((a) => CEILINGS[a][limit]));
  return accounts.every((a) => MONEY_ACCOUNTS.includes(a))
    ? Type.Number({ ...opts, maximum, multipleOf: 0.001 })
    : Type.Integer({ ...opts, maximum });
}
const shown = (account: Account, n: number) => (MONEY_ACCOUNTS.includes(account) ? `${filsToDecimal(toFils(n))} KD` : String(n));
const fieldRefusal = (message: string, field?: string) => badRequest(message, field ? [{ message, members: [field] }] : null);
export const aboveCeiling = (account: Account, field?: string) =>
  fieldRefusal(`${field ? `${field}: ` : ''}The customer's ${ACCOUNT_LABEL[account]} cannot go above ${shown(account, CEILINGS[account].balance)}.`, field);
export const aboveGrant = (account: Account, field?: string) =>
  fieldRefusal(`${field ? `${field}: ` : ''}One grant of ${ACCOUNT_LABEL[account]} cannot be more than ${shown(account, CEILINGS[account].grant)}.`, field);
export const KEY_REUSED = 'This idempotency key was already used for a different change. Please use a new key for a new change.';

export interface LedgerEntry {
  userId: number;
  brandId: number;
  account: Account;
  /** Signed: positive adds to the balance, negative takes from it. */
  amount: number;
  reason: string;
  reference: { type: ReferenceType; id: number | null };
  /** The user who made the change; null for the system (an order's lifecycle). */
  createdBy: number | null;
  /** Unique over the whole ledger: a second change with the same key changes nothing. */
  key: string;
  /** The 400's message when the balance is too low (default: notEnough(account)). */
  refusal?: string;
  /**
   * What the caller asked for, when the key is the client's (an adjustment's `idempotencyKey`):
   * the key used again for another change is a 422 (KEY_REUSED) and writes nothing.
   */
  fingerprint?: string;
  /** A staff grant: a positive amount is limited per grant (CEILINGS), and a refusal names this request field. */
  grantField?: string;
}

/** The ledger key of an order's own change: each step of an order's life is applied once. */
export const orderLedgerKey = (orderId: number, step: string) => `order:${orderId}:${step}`;

export interface Posted { applied: boolean; balance: number }

const stored = (account: Account, amount: number) =>
  MONEY_ACCOUNTS.includes(account) ? filsToDecimal(toFils(amount)) : String(Math.trunc(amount));

/** The customer's cached balance of one account, locking the wallet row until the transaction ends. */
export async function lockedBalance(tx: Db | Tx, userId: number, brandId: number, account: Account): Promise<number> {
  await tx.insert(customerWallets).values({ userId, brandId }).onConflictDoNothing();
  const col = cachedColumn(account);
  const [row] = await tx.select({ value: col }).from(customerWallets)
    .where(and(eq(customerWallets.userId, userId), eq(customerWallets.brandId, brandId))).for('update');
  return Number(row?.value ?? 0);
}

/**
 * Appends one ledger row and moves the cached balance by its amount, in the caller's transaction.
 * A change that would take the balance below zero is a 400 (the caller's transaction is then
 * rolled back, so nothing is written). A key already in the ledger changes nothing. A zero amount
 * writes nothing.
 */
export async function postToLedger(tx: Db | Tx, e: LedgerEntry): Promise<Posted> {
  if (!ACCOUNTS.includes(e.account)) throw badRequest(`Unknown account ${e.account}.`);
  // The wallet row lock orders concurrent changes of one customer: a retry with the same key
  // waits for the first to commit and then finds its row.
  const before = await lockedBalance(tx, e.userId, e.brandId, e.account);
  if (e.fingerprint !== undefined && (await keyUse(tx, [e.key], e.fingerprint)) === 'replay') return { applied: false, balance: before };
  const amount = stored(e.account, e.amount);
  if (Number(amount) === 0) return { applied: false, balance: before };
  if (e.grantField !== undefined && Number(amount) > CEILINGS[e.account].grant) throw aboveGrant(e.account, e.grantField);
  const [row] = await tx.insert(walletLedger).values({
    userId: e.userId, brandId: e.brandId, account: e.account, amount, reason: e.reason,
    referenceType: e.reference.type, referenceId: e.reference.id,
    orderId: e.reference.type === 'order' ? e.reference.id : null,
    createdBy: e.createdBy, idempotencyKey: e.key, keyFingerprint: e.fingerprint ?? null,
  }).onConflictDoNothing({ target: walletLedger.idempotencyKey }).returning({ id: walletLedger.id });
  if (!row) return { applied: false, balance: before };
  const col = cachedColumn(e.account);
  // Never below zero, never above the account's ceiling: the column cannot overflow (a 400, not a 500).
  const [updated] = await tx.update(customerWallets)
    .set({ [colKey(e.account)]: sql`${col} + ${amount}` })
    .where(and(eq(customerWallets.userId, e.userId), eq(customerWallets.brandId, e.brandId),
      sql`${col} + ${amount} >= 0`, sql`${col} + ${amount} <= ${CEILINGS[e.account].balance}`))
    .returning({ value: col });
  if (!updated) throw Number(amount) < 0 ? badRequest(e.refusal ?? notEnough(e.account)) : aboveCeiling(e.account, e.grantField);
  return { applied: true, balance: Number(updated.value) };
}

/**
 * Whether a client's key was used before, read under the wallet row lock (lockedBalance) so that
 * parallel retries see each other: 'new' (unused) or 'replay' (the same change again: write
 * nothing). The key used for a different change (another fingerprint) is a 422, as an order's
 * Idempotency-Key with another body is (server/services/store/saveOrder.ts). Rows written before
 * fingerprints were kept count as the same change.
 */
export async function keyUse(tx: Db | Tx, keys: string[], fingerprint: string): Promise<'new' | 'replay'> {
  const rows = await tx.select({ fingerprint: walletLedger.keyFingerprint }).from(walletLedger).where(inArray(walletLedger.idempotencyKey, keys));
  if (!rows.length) return 'new';
  if (rows.some((r) => r.fingerprint !== null && r.fingerprint !== fingerprint)) throw unprocessable(KEY_REUSED);
  return 'replay';
}

const colKey = (account: Account) => (account === 'wallet' ? 'balance' : account) as 'balance' | 'credit' | 'points' | 'punches' | 'freeItems';

/**
 * "Set" calls (UpdateCustomerWalletBalance and the like): the difference between the wanted
 * balance and the cached one is written as one ledger row with the reason given.
 */
export async function setBalance(tx: Db | Tx, e: Omit<LedgerEntry, 'amount'> & { balance: number }): Promise<Posted> {
  const current = await lockedBalance(tx, e.userId, e.brandId, e.account);
  const diff = MONEY_ACCOUNTS.includes(e.account) ? (toFils(e.balance) - toFils(current)) / 1000 : Math.trunc(e.balance) - current;
  return postToLedger(tx, { ...e, amount: diff });
}

/** Whether a key is already in the ledger (a retried change). */
export async function ledgerHasKey(db: Db | Tx, key: string): Promise<boolean> {
  const [row] = await db.select({ id: walletLedger.id }).from(walletLedger).where(eq(walletLedger.idempotencyKey, key)).limit(1);
  return !!row;
}

export interface LedgerMismatch { userId: number; brandId: number; account: string; cached: number; ledger: number }

/**
 * The ledger's invariant over the whole database: for every customer, brand and account, the sum
 * of the ledger rows equals the cached balance. Answers the pairs where it does not (none, always).
 */
export async function ledgerMismatches(db: Db | Tx): Promise<LedgerMismatch[]> {
  const result = await db.execute(sql`
    with cached as (
      select w.user_id, w.brand_id, a.account, a.value
      from customer_wallets w
      cross join lateral (values ('wallet', w.balance::numeric), ('credit', w.credit::numeric), ('points', w.points::numeric),
        ('punches', w.punches::numeric), ('freeItems', w.free_items::numeric)) as a(account, value)
    ), sums as (
      select user_id, brand_id, account, sum(amount) as value from wallet_ledger group by user_id, brand_id, account
    )
    select coalesce(c.user_id, s.user_id) as "userId", coalesce(c.brand_id, s.brand_id) as "brandId",
      coalesce(c.account, s.account) as account, coalesce(c.value, 0) as cached, coalesce(s.value, 0) as ledger
    from cached c full outer join sums s on s.user_id = c.user_id and s.brand_id = c.brand_id and s.account = c.account
    where coalesce(c.value, 0) <> coalesce(s.value, 0)`);
  return rowsOf<Record<string, unknown>>(result).map((r) => ({ userId: Number(r.userId), brandId: Number(r.brandId), account: String(r.account), cached: Number(r.cached), ledger: Number(r.ledger) }));
}
