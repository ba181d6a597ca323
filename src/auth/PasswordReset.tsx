import { useState, type FormEvent } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { useMutation, useApolloClient } from '@apollo/client/react';
import { graphql } from '../gql';
import { useTitle } from '../lib/title';
import { errorMessage } from '../lib/errors';
import { notify } from '../lib/notify';
import { TEXT } from '../../domain/constants';
import { phoneProblem } from '../../domain/phone';
import { typedDigits } from '../../domain/digits';
import { PhoneInput } from '../shop/components/PhoneInput';
import { AuthCard } from './AuthCard';
import { t, translateMessage, useShopLanguage } from '../i18n';
import '../i18n/screens';

const SendResetCode = graphql(`
  query SendPasswordResetCode($phoneNumber: String!) {
    TokenAuth_SendPasswordResetCodeBySms(phoneNumber: $phoneNumber)
  }
`);

const ResetPassword = graphql(`
  mutation ResetPasswordBySmsCode($input: ResetPasswordBySmsCodeInput_Input) {
    TokenAuth_ResetPasswordBySmsCode(input: $input)
  }
`);

export function ForgotPasswordPage() {
  useShopLanguage();
  useTitle(translateMessage('Forgot Password'));
  const client = useApolloClient();
  const [, navigate] = useLocation();
  const [phone, setPhone] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    // The phone input gives E.164 with the chosen country code (Kuwait by default, SPEC.md 5).
    if (phoneProblem(phone)) return setError(TEXT.guest.invalidPhone);
    const phoneNumber = phone;
    setPending(true);
    setError(null);
    try {
      const res = await client.query({ query: SendResetCode, variables: { phoneNumber }, fetchPolicy: 'network-only', context: { silent: true } });
      if (res.data?.TokenAuth_SendPasswordResetCodeBySms) navigate(`/reset_password?phone=${encodeURIComponent(phoneNumber)}`);
      else setError(TEXT.resetUnknownPhone);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setPending(false);
    }
  };
  return (
    <AuthCard title={t('signIn.forgotTitle')} subtitle={t('signIn.forgotSubtitle')}>
      <form className="auth-form" onSubmit={submit}>
        <PhoneInput id="forgot-phone" label={t('signIn.phone')} value={phone} onChange={(p) => { setPhone(p); setError(null); }} error={translateMessage(error)} />
        <button className="auth-submit" disabled={pending || !phone}>{pending ? t('signIn.sending') : t('signIn.sendCode')}</button>
      </form>
      <nav className="auth-links"><Link href="/login">{t('signIn.backToSignIn')}</Link></nav>
    </AuthCard>
  );
}

export function ResetPasswordPage() {
  useShopLanguage();
  useTitle(translateMessage('Reset Password'));
  const phoneNumber = new URLSearchParams(useSearch()).get('phone');
  const [, navigate] = useLocation();
  const [code, setCode] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [reset, { loading }] = useMutation(ResetPassword, { context: { silent: true } });
  // Without a phone to reset there is nothing to do here.
  if (!phoneNumber) {
    navigate('/forgot_password', { replace: true });
    return null;
  }
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      const res = await reset({ variables: { input: { phoneNumber, code, newPassword } } });
      if (!res.data?.TokenAuth_ResetPasswordBySmsCode) return setError(TEXT.resetUnknownPhone);
      notify('success', t('signIn.changed'), t('signIn.changedText'));
      navigate('/login');
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  return (
    <AuthCard title={t('signIn.resetTitle')} subtitle={<>{t('signIn.resetSubtitle')} <bdi dir="ltr">{phoneNumber}</bdi>.</>}>
      <form className="auth-form" onSubmit={submit}>
        <label>{t('signIn.code')}<input dir="ltr" name="code" inputMode="numeric" autoComplete="one-time-code" maxLength={6} value={code} onChange={(e) => setCode(typedDigits(e.target.value).slice(0, 6))} required /></label>
        <label>{t('signIn.newPassword')}<input name="newPassword" type="password" autoComplete="new-password" minLength={6} value={newPassword} onChange={(e) => setNewPassword(e.target.value)} required /></label>
        {error && <p className="auth-error" role="alert">{translateMessage(error)}</p>}
        <button className="auth-submit" disabled={loading || code.length !== 6 || newPassword.length < 6}>{loading ? t('signIn.saving') : t('signIn.change')}</button>
      </form>
      <nav className="auth-links"><Link href="/forgot_password">{t('signIn.newCode')}</Link></nav>
    </AuthCard>
  );
}
