/**
 * What the customer spends at checkout besides money (docs/decisions.md "Checkout: spending
 * rewards"), kept out of machines/checkout.ts: points on a cart line (`isRedeem`: the product's
 * own price is paid with its `redeemPoints` × quantity) and one free item (`redeemItem`: one unit
 * of a product of the branch's purchases collection). A line is paid one way only. The server
 * prices and spends both (planOrder, the ledger); these rules only keep the choices within the
 * balances the checkout read, so the customer is never offered more points than they have.
 */

export interface RewardLine { productId: number; quantity: number; optionIds: number[] }

/** The balances and the products they may pay for, as read when the checkout opens (0 and empty for the guest). */
export interface RewardOptions {
  /** The customer's points in the brand. */
  points: number;
  /** Points that pay for one unit of a product, by product id; a product absent cannot be redeemed. */
  redeemPoints: Record<number, number>;
  /** The customer's free items in the brand. */
  freeItems: number;
  /** The products a free item may be taken as at the branch (its active purchases collection's). */
  freeItemProducts: number[];
}

export interface RewardChoice {
  /** The cart lines (indexes) paid with points. */
  pointsLines: number[];
  /** The cart line (index) one unit of which is taken as a free item, or null. */
  freeItemLine: number | null;
}

type Rewards = RewardOptions & RewardChoice & { lines: RewardLine[] };

/** The points a cart line costs when paid with points (null: it cannot be). */
export const linePoints = (c: Pick<Rewards, 'lines' | 'redeemPoints'>, line: number): number | null => {
  const l = c.lines[line];
  const each = l ? c.redeemPoints[l.productId] : undefined;
  return l && each !== undefined ? each * l.quantity : null;
};

/** The points the chosen lines spend. */
export const pointsSpent = (c: Pick<Rewards, 'lines' | 'redeemPoints' | 'pointsLines'>) =>
  c.pointsLines.reduce((sum, i) => sum + (linePoints(c, i) ?? 0), 0);

/** Paying `line` with points keeps the spend within the balance, and the line is not the free item's. */
export const canSpendPoints = (c: Rewards, line: number) => {
  const cost = linePoints(c, line);
  return cost !== null && c.freeItemLine !== line && !c.pointsLines.includes(line) && pointsSpent(c) + cost <= c.points;
};

/** No free item (null), or a qualifying line not paid with points while the customer has a free item. */
export const canTakeFreeItem = (c: Rewards, line: number | null) =>
  line === null || (c.freeItems > 0 && c.freeItemProducts.includes(c.lines[line]?.productId ?? -1) && !c.pointsLines.includes(line));

/** The order request's products (SPEC.md 3): the free item is one unit on its own line, the rest of that line is paid. */
export function orderProductsOf(c: Rewards) {
  return c.lines.flatMap((l, index) => {
    const line = {
      productId: l.productId, quantity: l.quantity, isRedeem: c.pointsLines.includes(index), redeemItem: false,
      additions: l.optionIds.map((additionId) => ({ additionId, quantity: 1 })),
    };
    if (index !== c.freeItemLine) return [line];
    const free = { ...line, quantity: 1, redeemItem: true };
    return l.quantity > 1 ? [free, { ...line, quantity: l.quantity - 1 }] : [free];
  });
}

/** What the summary shows of the rewards: balances, the lines that may use each, and the choices. */
export function rewardsView(c: Rewards) {
  return {
    points: c.points,
    spent: pointsSpent(c),
    /** Lines that can be paid with points, with their cost; `chosen` when paid so, `allowed` when choosing it stays within the balance. */
    pointsLines: c.points > 0
      ? c.lines.flatMap((_, i) => {
        const cost = linePoints(c, i);
        return cost === null ? [] : [{ index: i, cost, chosen: c.pointsLines.includes(i), allowed: canSpendPoints(c, i) }];
      })
      : [],
  };
}

/** The wallet may pay for a registered customer who holds some balance; the server checks it covers the total. */
export const canUseWallet = (c: { isGuest: boolean; walletBalance: number }) => !c.isGuest && c.walletBalance > 0;
