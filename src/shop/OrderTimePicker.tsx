import { graphql } from '../gql';
import { useGatewayQuery } from '../lib/gateway';
import { t } from '../i18n';
import { orderClock, orderDay } from './orderTimeText';
import { dayStart } from '../../domain/time';
import type { DeliveryMode } from '../../machines/checkout';
import { ASAP, freeSlots, laterAt, laterOn, orderDays, type OrderSlot, type OrderWhen } from '../../machines/orderWhen';

/** The order's "When" (issue 25), on the menu and at checkout. A day's slots for a mode (Store/GetOrderSlots, issue 25): only those from now + the branch's preparation time. */
export const CheckoutOrderSlots = graphql(`
  query CheckoutOrderSlots($branchId: Int!, $mode: String!, $day: String) {
    Store_GetOrderSlots(branchId: $branchId, mode: $mode, day: $day) { day slots { start end state taken left } }
  }
`);

/** A day of the picker: 'Today', 'Tomorrow', then 'Mon 30 Nov'. */
function dayLabel(day: string, index: number) {
  if (index === 0) return t('when.today');
  if (index === 1) return t('when.tomorrow');
  return orderDay(dayStart(day));
}

/**
 * The checkout's "When" (presentational): as soon as possible, or later on a day at one of its free
 * slots (`slots`, null while they load). `onChange` gets the next OrderWhen (machines/orderWhen.ts).
 */
export function OrderTimeChoiceView({ when, days, slots, disabled, onChange }: {
  when: OrderWhen; days: string[]; slots: OrderSlot[] | null; disabled: boolean; onChange(when: OrderWhen): void;
}) {
  const free = slots ? freeSlots(slots) : [];
  return (
    <section className="shop-card" aria-labelledby="when-title">
      <h2 id="when-title" className="shop-card__title">{t('when.title')}</h2>
      <div className="segmented" role="radiogroup" aria-labelledby="when-title">
        <label className={`segmented__option${!when.later ? ' is-chosen' : ''}`}>
          <input type="radio" name="when" checked={!when.later} disabled={disabled} onChange={() => onChange(ASAP)} />
          <strong>{t('when.asap')}</strong>
        </label>
        <label className={`segmented__option${when.later ? ' is-chosen' : ''}`}>
          <input type="radio" name="when" checked={when.later} disabled={disabled} onChange={() => onChange(laterOn(days[0]!))} />
          <strong>{t('when.later')}</strong>
        </label>
      </div>
      {when.later && (
        <div className="checkout__when">
          <div className="field">
            <label htmlFor="when-day">{t('when.day')}</label>
            <select id="when-day" value={when.day ?? days[0]} disabled={disabled} onChange={(e) => onChange(laterOn(e.target.value))}>
              {days.map((d, i) => <option key={d} value={d}>{dayLabel(d, i)}</option>)}
            </select>
          </div>
          <div className="field">
            <label htmlFor="when-time">{t('when.time')}</label>
            <select id="when-time" value={when.scheduledFor ?? ''} disabled={disabled || !free.length}
              onChange={(e) => onChange(e.target.value ? laterAt(e.target.value) : laterOn(when.day ?? days[0]!))}>
              <option value="">{slots === null ? t('when.loading') : free.length ? t('when.choose') : t('when.none')}</option>
              {free.map((s) => <option key={s.start} value={new Date(s.start).toISOString()}>{orderClock(s.start)}</option>)}
            </select>
          </div>
        </div>
      )}
    </section>
  );
}

/** The choice with the day's slots read for a branch and mode (the menu's and the checkout's). */
export function OrderTimeChoiceOf({ when, branchId, mode, disabled, onChange }: {
  when: OrderWhen; branchId: number; mode: DeliveryMode; disabled: boolean; onChange(when: OrderWhen): void;
}) {
  const days = orderDays(new Date());
  const day = when.day ?? days[0]!;
  const read = useGatewayQuery(CheckoutOrderSlots, { variables: { branchId, mode, day }, skip: !when.later, fetchPolicy: 'network-only', context: { silent: true } });
  const slots = read.data ? (read.data.Store_GetOrderSlots?.slots ?? []).filter((s): s is OrderSlot => !!s) : read.error ? [] : null;
  return <OrderTimeChoiceView when={when} days={days} slots={slots} disabled={disabled} onChange={onChange} />;
}

