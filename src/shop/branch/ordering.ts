import { useEffect, useState } from 'react';
import { useSelector } from '@xstate/react';
import { localDayAndMinutes } from '../../../domain/schedule';
import { selectBrands, type BranchSummary } from '../../../machines/branchChange';
import { dateTime, t } from '../../i18n';
import { useBranchChange, useShop } from '../shopContext';

/**
 * Whether a branch takes online orders, as the shop shows it (issue 24). The server answers it with
 * the branch (isOpenForOrders, opensAt, closesAt: domain/schedule.ts orderingStatus, the rule the
 * order check refuses by); the shop only moves it on when the time it named has come.
 */
export interface BranchOrdering {
  /** Unknown (an older answer without the fields) counts as open: the order check still decides. */
  open: boolean;
  /** When a closed branch opens (ISO), if known. */
  opensAt: string | null;
  /** When an open branch closes (ISO), if known. */
  closesAt: string | null;
}

export function orderingAt(branch: BranchSummary | undefined, now = Date.now()): BranchOrdering {
  const opensAt = branch?.opensAt ?? null, closesAt = branch?.closesAt ?? null;
  if (!branch || branch.isOpenForOrders === undefined) return { open: true, opensAt: null, closesAt: null };
  if (branch.isOpenForOrders) {
    return closesAt && now >= Date.parse(closesAt) ? { open: false, opensAt: null, closesAt: null } : { open: true, opensAt: null, closesAt };
  }
  return opensAt && now >= Date.parse(opensAt) ? { open: true, opensAt: null, closesAt: null } : { open: false, opensAt, closesAt: null };
}

/** A time of the branch's clock (Kuwait, whatever the browser's zone): '20:00', or 'Sun 20:00' when not today there. */
export function branchClock(iso: string, now = Date.now()): string {
  const at = new Date(iso);
  const sameDay = localDayAndMinutes(at).dayOfWeek === localDayAndMinutes(new Date(now)).dayOfWeek && at.getTime() - now < 24 * 3600_000;
  return dateTime(at, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', ...(sameDay ? {} : { weekday: 'short' }) });
}

/** 'Closed · opens 20:00', 'Open · until 23:00', or just 'Closed' / 'Open' when the change is not known. */
export function orderingText(o: BranchOrdering, now = Date.now()): string {
  if (o.open) return o.closesAt ? t('hours.openUntil', { time: branchClock(o.closesAt, now) }) : t('hours.open');
  return o.opensAt ? t('hours.closedOpens', { time: branchClock(o.opensAt, now) }) : t('hours.closed');
}

/** The next moment the shown state changes by itself, or null. */
const nextChange = (o: BranchOrdering) => Date.parse((o.open ? o.closesAt : o.opensAt) ?? '') || null;

/** A branch's ordering now, kept current: the view renders again when the time it names comes. */
export function useOrdering(branch: BranchSummary | undefined): BranchOrdering {
  const [now, setNow] = useState(() => Date.now());
  const ordering = orderingAt(branch, now);
  const change = nextChange(ordering);
  useEffect(() => {
    if (!change) return;
    // setTimeout holds at most 2^31 - 1 ms; the server names changes within a week.
    const id = setTimeout(() => setNow(Date.now()), Math.min(Math.max(change - Date.now(), 0) + 500, 2 ** 31 - 1));
    return () => clearTimeout(id);
  }, [change]);
  return ordering;
}

/** The chosen branch as the picker knows it (the brands the shop loaded once). */
export function useChosenBranch(): BranchSummary | undefined {
  const shop = useShop();
  const brands = useSelector(useBranchChange(), selectBrands);
  return brands.find((b) => b.id === shop.brandId)?.branches.find((b) => b.id === shop.branchId);
}

/**
 * Asks the server again when the chosen branch opens or closes, so the next change (its closing,
 * its next opening) is known too. Mounted once, by the shop.
 */
export function OrderingRefresh() {
  const branch = useChosenBranch();
  const change = branch ? nextChange(orderingAt(branch, Number.NEGATIVE_INFINITY)) : null;
  const branchChange = useBranchChange();
  useEffect(() => {
    if (!change) return;
    // A time already past (the clocks disagree) is asked about once a minute, not in a loop.
    const wait = change - Date.now() > 0 ? change - Date.now() + 1000 : 60_000;
    const id = setTimeout(() => branchChange.send({ type: 'brands.reload' }), Math.min(wait, 2 ** 31 - 1));
    return () => clearTimeout(id);
  }, [change, branchChange]);
  return null;
}
