import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { customerRequests } from '../../db/schema';
import { unprocessable } from '../../http/envelope';
import type { Caller } from '../../http/context';
import { aboveGrant, CEILINGS, KEY_REUSED, lockedBalance, MONEY_ACCOUNTS, type Account } from '../../loyalty/ledger';
import { can } from '../../../domain/permissions';
import { filsToDecimal, toFils } from '../../../domain/money';

/** A grant asked for through a direct adjustment call (server/services/customer/loyalty.ts). */
export interface AskedGrant {
  userId: number; brandId: number; account: Account; reason: string; createdBy: number | null;
  /** The adjustment's ledger key: the request keeps it, so a retry of the call asks once. */
  key: string;
  /** The call's field a refusal names. */
  grantField?: string;
}
/** What a direct adjustment call answers when its grant became a request: the balance as it was. */
export interface GrantRequested { applied: false; balance: number; requestId: number }

/**
 * The four-eyes rule for the direct adjustment calls (docs/decisions.md "Loyalty: four eyes"): in
 * the call's transaction, a grant (the change `to` asks for raises the balance) by a caller without
 * loyalty.grantDirect becomes a pending request of its kind for the difference, and nothing is
 * written to the ledger. Answers null when the change applies at once: for ADMIN, for a decrease
 * (it mints nothing) and for no change.
 */
export async function grantAsRequest(tx: Db | Tx, caller: Caller, g: AskedGrant, to: { add: number } | { set: number }): Promise<GrantRequested | null> {
  if (can(caller?.role, 'loyalty.grantDirect')) return null;
  const balance = await lockedBalance(tx, g.userId, g.brandId, g.account);
  const money = MONEY_ACCOUNTS.includes(g.account);
  const units = (n: number) => (money ? toFils(n) : Math.trunc(n));
  const increase = 'add' in to ? units(to.add) : units(to.set) - units(balance);
  if (increase <= 0) return null;
  if (increase > units(CEILINGS[g.account].grant)) throw aboveGrant(g.account, g.grantField);
  const amount = money ? filsToDecimal(increase) : String(increase);
  const [row] = await tx.insert(customerRequests).values({
    userId: g.userId, brandId: g.brandId, account: g.account, amount, reason: g.reason, requestedBy: g.createdBy, idempotencyKey: g.key,
  }).onConflictDoNothing({ target: customerRequests.idempotencyKey }).returning({ id: customerRequests.id });
  if (row) return { applied: false, balance, requestId: row.id };
  // The same call again (its key): the request it made already, unless it asks for something else.
  const [asked] = await tx.select().from(customerRequests).where(eq(customerRequests.idempotencyKey, g.key));
  if (Number(asked.amount) !== Number(amount) || asked.account !== g.account) throw unprocessable(KEY_REUSED);
  return { applied: false, balance, requestId: asked.id };
}
