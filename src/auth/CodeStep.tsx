import { useState, type FormEvent } from 'react';
import { typedDigits } from '../../domain/digits';
import { t } from '../i18n';
import '../i18n/screens';
import '../shop/registration/registration.css';

/**
 * The step "We sent a code to …": the 6-digit code from the SMS, Verify, Resend code and Change
 * phone number. Registration's second step and sign-in with a code. Arabic-Indic and Persian digits
 * are digits (domain/digits.ts): an Arabic keyboard types them by default.
 */
export function CodeStep({ pending, error, info, phoneNumber, onSubmit, onResend, onChangePhone }: {
  pending: boolean; error: string | null; info: string | null; phoneNumber: string;
  onSubmit(code: string): void; onResend(): void; onChangePhone(): void;
}) {
  const [code, setCode] = useState('');
  const submit = (e: FormEvent) => { e.preventDefault(); onSubmit(code); };
  return (
    <form className="auth-form" onSubmit={submit} aria-busy={pending}>
      <p className="auth-subtitle reg-lead">{t('registration.sentTo')} <strong className="reg-phone"><bdi dir="ltr">{phoneNumber}</bdi></strong>.</p>
      <label>
        {t('registration.code')}
        <input name="code" dir="ltr" inputMode="numeric" autoComplete="one-time-code" value={code}
          onChange={(e) => setCode(typedDigits(e.target.value).slice(0, 6))} autoFocus />
      </label>
      {error && <p className="auth-error" role="alert">{error}</p>}
      {info && !error && <p className="reg-info" role="status">{info}</p>}
      <button type="submit" className="auth-submit" disabled={pending || !code}>{pending ? t('registration.checking') : t('registration.verify')}</button>
      <div className="reg-secondary">
        <button type="button" className="reg-link" onClick={onResend} disabled={pending}>{t('registration.resend')}</button>
        <button type="button" className="reg-link" onClick={onChangePhone} disabled={pending}>{t('registration.changePhone')}</button>
      </div>
    </form>
  );
}
