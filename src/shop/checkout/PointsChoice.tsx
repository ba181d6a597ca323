import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { selectRewards, type checkoutMachine } from '../../../machines/checkout';
import { t } from '../../i18n';
import '../../i18n/screens';

type Rewards = ReturnType<typeof selectRewards>;

/**
 * Pay with points at checkout (presentational): each cart line whose product has redeem points,
 * with what it costs; a line can be chosen only while the points held cover it (machines/checkoutRewards.ts).
 */
export function PointsChoiceView({ rewards, names, disabled, onChoose }: { rewards: Rewards; names: string[]; disabled: boolean; onChoose(line: number, spend: boolean): void }) {
  if (!rewards.pointsLines.length) return null;
  return (
    <fieldset className="choice-list checkout__points" aria-describedby="points-balance">
      <legend>{t('rewards.legend')}</legend>
      <p id="points-balance" className="shop-muted">{t('rewards.balance', { count: rewards.points })}</p>
      {rewards.pointsLines.map((l) => (
        <label key={l.index} className={`choice${l.chosen ? ' is-chosen' : ''}`}>
          <input type="checkbox" checked={l.chosen} disabled={disabled || (!l.chosen && !l.allowed)}
            onChange={(e) => onChoose(l.index, e.target.checked)} />
          <span>{t('rewards.line', { name: names[l.index] ?? '', count: l.cost })}</span>
        </label>
      ))}
    </fieldset>
  );
}

const same = (a: Rewards, b: Rewards) => JSON.stringify(a) === JSON.stringify(b);

/** Binds the choice to the checkout machine: reads `selectRewards`, sends `checkout.points`. */
export function PointsChoice({ checkout, names, disabled }: { checkout: ActorRefFrom<typeof checkoutMachine>; names: string[]; disabled: boolean }) {
  const rewards = useSelector(checkout, selectRewards, same);
  return <PointsChoiceView rewards={rewards} names={names} disabled={disabled} onChoose={(line, spend) => checkout.send({ type: 'checkout.points', line, spend })} />;
}
