import { t } from '../../i18n';

/** A − n + stepper that keeps the quantity within [min, max] (SPEC.md 5 "Quantity"). */
export function QuantityStepper({ value, min, max, onChange, label, size = 'normal' }: {
  value: number;
  min: number;
  max: number;
  onChange(next: number): void;
  /** What is counted, for screen readers: "Quantity of Cappuccino". */
  label: string;
  size?: 'normal' | 'small';
}) {
  return (
    <div className={`stepper stepper--${size}`} role="group" aria-label={label}>
      <button type="button" aria-label={t('product.decrease')} disabled={value <= min} onClick={() => onChange(Math.max(min, value - 1))}>−</button>
      <output aria-live="polite" aria-label={t('product.quantity')}>{value}</output>
      <button type="button" aria-label={t('product.increase')} disabled={value >= max} onClick={() => onChange(Math.min(max, value + 1))}>+</button>
    </div>
  );
}
