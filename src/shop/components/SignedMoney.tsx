import { money } from '../../i18n';

/**
 * An amount added or taken off: '+0.200 KD' / '+0.200 د.ك', '−0.500 KD'. The sign and the number
 * sit in a left-to-right isolate, so right-to-left text keeps the sign beside the number instead of
 * moving it to the number's other side ('0.200+ د.ك'). Markup, not control characters: the text
 * reads (and is matched, and read aloud) as the plain '+0.200 د.ك'.
 */
export function SignedMoney({ amount, currency }: { amount: number; currency: string }) {
  const [number, ...unit] = money(Math.abs(amount), currency).split(' ');
  return <><bdi dir="ltr">{`${amount < 0 ? '−' : '+'}${number}`}</bdi>{unit.length ? ` ${unit.join(' ')}` : ''}</>;
}
