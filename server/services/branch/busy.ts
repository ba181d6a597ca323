import { Type, type Static } from 'typebox';
import { and, eq, isNotNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { branches } from '../../db/schema';
import { badRequest, forbidden, notFound, Obj } from '../../http/envelope';
import { Nullable } from '../../http/nullable';
import { route } from '../../http/routes';
import type { Caller } from '../../http/context';

/** The announced extra waits a branch can pick (minutes); and how long busy mode may last at most. */
export const BUSY_DELAYS = [15, 30, 45, 60] as const;
export const BUSY_MAX_MINUTES = 12 * 60;

export const BusyMode = Obj('BranchBusyMode', {
  branchId: Type.Integer(),
  /** No new orders while true. */
  isBusy: Type.Boolean(),
  busyUntil: Nullable(Type.String({ format: 'date-time' })),
  /** Minutes added to the usual wait; 0 when none is announced. */
  delayMinutes: Type.Integer(),
  delayUntil: Nullable(Type.String({ format: 'date-time' })),
});
export type BusyMode = Static<typeof BusyMode>;

const busyColumns = {
  branchId: branches.id, isBusy: branches.isBusy, busyUntil: branches.busyUntil,
  delayMinutes: branches.delayMinutes, delayUntil: branches.delayUntil,
};
type BusyRow = { branchId: number; isBusy: boolean; busyUntil: Date | null; delayMinutes: number; delayUntil: Date | null };

/**
 * What a branch's busy mode is now. The stored flags are switched off by the timed work
 * (endExpiredBusyModes) within a few seconds of their end; reading them through here is exact
 * to the second even before that.
 */
export function busyModeOf(row: BusyRow, now = new Date()): BusyMode {
  const busy = row.isBusy && (!row.busyUntil || row.busyUntil > now);
  const delayed = row.delayMinutes > 0 && !!row.delayUntil && row.delayUntil > now;
  return {
    branchId: row.branchId,
    isBusy: busy,
    busyUntil: busy && row.busyUntil ? row.busyUntil.toISOString() : null,
    delayMinutes: delayed ? row.delayMinutes : 0,
    delayUntil: delayed ? row.delayUntil!.toISOString() : null,
  };
}

async function readBusyMode(db: Db, branchId: number) {
  const [row] = await db.select(busyColumns).from(branches).where(eq(branches.id, branchId));
  if (!row) throw notFound('Branch');
  return busyModeOf(row);
}

/**
 * Switches off every busy flag and announced delay whose time is up. One UPDATE per kind, so any
 * number of processes may run it at once: a row already switched off no longer matches.
 * Returns the ids of the branches it changed.
 */
export async function endExpiredBusyModes(db: Db): Promise<number[]> {
  const busyEnded = await db.update(branches).set({ isBusy: false, busyUntil: null })
    .where(and(isNotNull(branches.busyUntil), lte(branches.busyUntil, sql`now()`))).returning({ id: branches.id });
  const delayEnded = await db.update(branches).set({ delayMinutes: 0, delayUntil: null })
    .where(or(and(isNotNull(branches.delayUntil), lte(branches.delayUntil, sql`now()`)), and(eq(branches.delayMinutes, 0), isNotNull(branches.delayUntil))))
    .returning({ id: branches.id });
  return [...new Set([...busyEnded, ...delayEnded].map((r) => r.id))];
}

const ownBranch = (caller: Caller): number => {
  if (!caller?.branchId) throw forbidden('You are not assigned to a branch.');
  return caller.branchId;
};

const UpdateBusyModeInput = Obj('UpdateBusyModeInput', {
  isBusy: Type.Boolean({ description: 'No new orders until it ends.' }),
  delayMinutes: Type.Integer({ description: `An extra wait to announce: 0 (none) or one of ${BUSY_DELAYS.join(', ')}.` }),
  forMinutes: Type.Optional(Type.Integer({ description: `How long the mode lasts (1–${BUSY_MAX_MINUTES} minutes); then it switches itself off. Required when busy or a delay is set.` })),
});

/**
 * Busy mode (issue 11): besides busy (no new orders), a branch announces a longer wait, and both
 * switch themselves off at a time the operator picks. GetBusyMode is public, as the shop shows
 * the wait before checkout; UpdateBusyMode is the branch user's, on their own branch ('branch.busy').
 */
export const busyModeRoutes = () => [
  route({
    method: 'GET',
    name: 'GetBusyMode',
    access: 'public',
    summary: "A branch's busy mode now: busy (no new orders) and the announced extra wait, each with the time it ends.",
    query: Obj('GetBusyModeQuery', { branchId: Type.Integer({ minimum: 1 }) }),
    result: BusyMode,
    handler: ({ query, ctx }) => readBusyMode(ctx.db, query.branchId),
  }),
  route({
    method: 'PUT',
    name: 'UpdateBusyMode',
    access: 'branch.busy',
    summary: "Sets the caller's branch busy and/or announces an extra wait, for forMinutes; both off: isBusy false and delayMinutes 0.",
    body: UpdateBusyModeInput,
    result: BusyMode,
    async handler({ body, caller, ctx }) {
      const branchId = ownBranch(caller);
      const on = body.isBusy || body.delayMinutes > 0;
      const problems = [];
      if (body.delayMinutes !== 0 && !(BUSY_DELAYS as readonly number[]).includes(body.delayMinutes)) {
        problems.push({ message: `delayMinutes: must be 0 or one of ${BUSY_DELAYS.join(', ')}`, members: ['delayMinutes'] });
      }
      if (on && (body.forMinutes === undefined || body.forMinutes < 1 || body.forMinutes > BUSY_MAX_MINUTES)) {
        problems.push({ message: `forMinutes: pick when it ends, 1 to ${BUSY_MAX_MINUTES} minutes from now`, members: ['forMinutes'] });
      }
      if (problems.length) throw badRequest(problems.map((p) => p.message).join('; '), problems);
      const until = on ? sql`now() + make_interval(mins => ${body.forMinutes!})` : null;
      const updated = await ctx.db.update(branches).set({
        isBusy: body.isBusy, busyUntil: body.isBusy ? until : null,
        delayMinutes: body.delayMinutes, delayUntil: body.delayMinutes > 0 ? until : null,
      }).where(eq(branches.id, branchId)).returning(busyColumns);
      if (!updated.length) throw notFound('Branch');
      return busyModeOf(updated[0]);
    },
  }),
];
