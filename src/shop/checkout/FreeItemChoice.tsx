import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { selectFreeItem, type checkoutMachine } from '../../../machines/checkout';
import { t } from '../../i18n';
import '../../i18n/screens';

interface FreeItemChoiceProps {
  /** The customer's free items in this brand. */
  balance: number;
  /** The cart lines one unit of which may be taken free: index and product name. */
  lines: { index: number; name: string }[];
  chosen: number | null;
  disabled: boolean;
  onChoose(line: number | null): void;
}

/** The free-item choice at checkout (presentational): none, or one qualifying product of the cart. */
export function FreeItemChoiceView({ balance, lines, chosen, disabled, onChoose }: FreeItemChoiceProps) {
  if (balance < 1 || !lines.length) return null;
  return (
    <fieldset className="choice-list checkout__free-item" aria-describedby="free-item-balance">
      <legend>{t('freeItem.legend')}</legend>
      <p id="free-item-balance" className="shop-muted">
        {t('freeItem.balance', { count: balance })}
      </p>
      <label className={`choice${chosen === null ? ' is-chosen' : ''}`}>
        <input type="radio" name="free-item" checked={chosen === null} disabled={disabled} onChange={() => onChoose(null)} />
        <span>{t('freeItem.none')}</span>
      </label>
      {lines.map((l) => (
        <label key={l.index} className={`choice${chosen === l.index ? ' is-chosen' : ''}`}>
          <input type="radio" name="free-item" checked={chosen === l.index} disabled={disabled} onChange={() => onChoose(l.index)} />
          <span>{t('freeItem.one', { name: l.name })}</span>
        </label>
      ))}
    </fieldset>
  );
}

const sameChoice = (a: ReturnType<typeof selectFreeItem>, b: ReturnType<typeof selectFreeItem>) =>
  a.balance === b.balance && a.chosen === b.chosen && a.lines.join() === b.lines.join();

/** Binds the choice to the checkout machine: reads `selectFreeItem`, sends `checkout.freeItem`. */
export function FreeItemChoice({ checkout, names, disabled }: { checkout: ActorRefFrom<typeof checkoutMachine>; names: string[]; disabled: boolean }) {
  const free = useSelector(checkout, selectFreeItem, sameChoice);
  return (
    <FreeItemChoiceView balance={free.balance} chosen={free.chosen} disabled={disabled}
      lines={free.lines.map((index) => ({ index, name: names[index] ?? '' }))}
      onChoose={(line) => checkout.send({ type: 'checkout.freeItem', line })} />
  );
}
