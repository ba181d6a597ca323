import { t } from '../../i18n';
import { useState } from 'react';
import { COUNTRIES } from '../../../domain/countries';
import { typedDigits } from '../../../domain/digits';

/** SPEC.md 5: Kuwait first (the default), then Lebanon and Bahrain; Israel is never offered. */
const PREFERRED = ['KW', 'LB', 'BH'];
const IGNORED = ['IL'];
export const PHONE_COUNTRIES = [
  ...PREFERRED.map((iso) => COUNTRIES.find((c) => c.isoCode === iso)!).filter(Boolean),
  ...COUNTRIES.filter((c) => !PREFERRED.includes(c.isoCode) && !IGNORED.includes(c.isoCode)),
];
const DEFAULT_CODE = (COUNTRIES.find((c) => c.isDefault) ?? COUNTRIES[0]).phoneCode;
/** 3 digits, 5 digits and an optional final digit after the country code. */
const MAX_LOCAL_DIGITS = 9;

/** Splits '+96550000001' into its country code and local digits; null when no supported code starts it. */
export function splitPhone(value: string): { code: string; local: string } | null {
  const digits = typedDigits(value);
  const country = PHONE_COUNTRIES.find((c) => digits.startsWith(c.phoneCode));
  return country ? { code: country.phoneCode, local: digits.slice(country.phoneCode.length) } : null;
}

/** The mask: '500 00001' (and '500 000012' with the optional digit). */
export const formatLocal = (local: string) => (local.length > 3 ? `${local.slice(0, 3)} ${local.slice(3)}` : local);

export interface PhoneInputProps {
  /** The phone as E.164, e.g. '+96550000001', or '' when nothing is typed. */
  value: string;
  onChange(e164: string): void;
  onBlur?(): void;
  error?: string | null;
  id: string;
  label: string;
}

/**
 * The shop's phone field (SPEC.md 5): a country code select (KW +965 by default) and the number,
 * masked as '+' + 3-digit code + 3 digits + 5 digits + an optional digit. It only shapes what is
 * typed; validity is the caller's, with domain/phone.ts (`phoneProblem`, `isValidPhone`).
 */
export function PhoneInput({ value, onChange, onBlur, error, id, label }: PhoneInputProps) {
  const parsed = splitPhone(value);
  const [chosenCode, setChosenCode] = useState(parsed?.code ?? DEFAULT_CODE);
  const code = parsed?.code ?? chosenCode;
  const local = parsed?.local ?? typedDigits(value);
  const emit = (nextCode: string, nextLocal: string) => onChange(nextLocal ? `+${nextCode}${nextLocal}` : '');

  const onType = (raw: string) => {
    // Arabic-Indic and Persian digits are digits (an Arabic keyboard types them by default).
    const digits = typedDigits(raw);
    // A whole international number typed or pasted: take its country code from it.
    const whole = (raw.trim().startsWith('+') || digits.length > MAX_LOCAL_DIGITS) ? splitPhone(digits) : null;
    if (whole) {
      setChosenCode(whole.code);
      emit(whole.code, whole.local.slice(0, MAX_LOCAL_DIGITS));
    } else emit(code, digits.slice(0, MAX_LOCAL_DIGITS));
  };
  const errorId = `${id}-error`;
  return (
    <div className={`field phone-input${error ? ' has-error' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {/* A phone number reads left to right in Arabic too. */}
      <div className="phone-input__row" dir="ltr">
        <select
          aria-label={t('checkout.countryCode')}
          value={code}
          onChange={(e) => { setChosenCode(e.target.value); emit(e.target.value, local); }}
        >
          {PHONE_COUNTRIES.map((c) => <option key={c.isoCode} value={c.phoneCode}>{c.isoCode} +{c.phoneCode}</option>)}
        </select>
        <span className="phone-input__prefix" aria-hidden="true">+{code}</span>
        <input
          id={id}
          type="tel"
          inputMode="numeric"
          autoComplete="tel-national"
          placeholder="500 00000"
          value={formatLocal(local)}
          onChange={(e) => onType(e.target.value)}
          onBlur={onBlur}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        />
      </div>
      {error && <p className="field__error" id={errorId} role="alert">{error}</p>}
    </div>
  );
}
