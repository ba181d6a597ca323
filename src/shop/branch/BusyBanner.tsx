import { graphql } from '../../gql';
import { dateTime, t } from '../../i18n';
import { useShop } from '../shopContext';
import './busyBanner.css';
import { useGatewayQuery } from '../../lib/gateway';

export const BranchBusyMode = graphql(`
  query BranchBusyMode($branchId: Int!) {
    Branch_GetBusyMode(branchId: $branchId) { branchId isBusy busyUntil delayMinutes delayUntil }
  }
`);

/** How often the shop looks again: busy mode is set for a quarter of an hour or more, and ends by itself. */
const REFRESH_MS = 60_000;
/** Times come as the gateway's DateTime scalar (an ISO string). */
const time = (iso: unknown) => dateTime(String(iso), { timeStyle: 'short' });
const ends = (iso: unknown) => Date.parse(String(iso));

/**
 * A page-wide banner when the chosen branch is busy (no new orders) or has announced a longer
 * wait (issue 11), with the time it ends: the customer learns it before checkout, not after.
 */
export function BusyBanner() {
  const { branchId } = useShop();
  const { data } = useGatewayQuery(BranchBusyMode, {
    variables: { branchId },
    skip: !branchId,
    pollInterval: REFRESH_MS,
    fetchPolicy: 'cache-and-network',
    context: { silent: true },
  });
  const mode = data?.Branch_GetBusyMode;
  // A mode that ended since the last look is not shown.
  const now = Date.now();
  const busy = mode?.isBusy && (!mode.busyUntil || ends(mode.busyUntil) > now);
  const delayed = !!mode && mode.delayMinutes > 0 && !!mode.delayUntil && ends(mode.delayUntil) > now;
  if (!mode || (!busy && !delayed)) return null;
  return (
    <div className="busy-banner" role="status" data-testid="busy-banner">
      {busy
        ? (mode.busyUntil ? t('busy.until', { time: time(mode.busyUntil) }) : t('busy.now'))
        : <>{t('busy.delayBefore')}<strong>{t('busy.delayMinutes', { count: mode.delayMinutes })}</strong>{t('busy.delayAfter', { time: time(mode.delayUntil) })}</>}
    </div>
  );
}
