import { useMemo, useState, type FormEvent } from 'react';
import { Link, useSearch } from 'wouter';
import { useApolloClient } from '@apollo/client/react';
import { useActorRef, useSelector } from '@xstate/react';
import { useTitle } from '../lib/title';
import { useSessionRef } from '../lib/session';
import { PhoneInput } from '../shop/components/PhoneInput';
import { AuthCard } from './AuthCard';
import { CodeStep } from './CodeStep';
import { provideCodeSignIn } from './codeSignInPorts';
import { t, translateMessage, useShopLanguage } from '../i18n';
import '../i18n/screens';
import {
  selectError, selectInfo, selectIsPending, selectPhoneNumber, selectStep, type CodeSignInStep,
} from '../../machines/codeSignIn';

/**
 * /login_code: sign-in with a one-time code (machines/codeSignIn.ts). The session goes to the auth
 * session (auth.tokenReceived); AuthApp then sends the customer on (`?next=` or home).
 */
export function CodeSignInPage() {
  useShopLanguage();
  useTitle(translateMessage('Login'));
  const client = useApolloClient();
  const session = useSessionRef();
  const search = useSearch();
  const machine = useMemo(() => provideCodeSignIn(client, (s) => session.send({ type: 'auth.tokenReceived', session: s })), [client, session]);
  const ref = useActorRef(machine);
  return (
    <CodeSignInView
      step={useSelector(ref, selectStep)}
      pending={useSelector(ref, selectIsPending)}
      error={useSelector(ref, selectError)}
      info={useSelector(ref, selectInfo)}
      phoneNumber={useSelector(ref, selectPhoneNumber)}
      search={search}
      onSubmitPhone={(phoneNumber) => ref.send({ type: 'codeSignIn.submitPhone', phoneNumber })}
      onSubmitCode={(code) => ref.send({ type: 'codeSignIn.submitCode', code })}
      onResend={() => ref.send({ type: 'codeSignIn.resendCode' })}
      onChangePhone={() => ref.send({ type: 'codeSignIn.changePhone' })}
    />
  );
}

/** Presentational: the phone step, then the code step. */
export function CodeSignInView(props: {
  step: CodeSignInStep;
  pending: boolean;
  error: string | null;
  info: string | null;
  phoneNumber: string;
  /** The page's query (`?next=…`), kept on the way back to the password sign-in. */
  search: string;
  onSubmitPhone(phone: string): void;
  onSubmitCode(code: string): void;
  onResend(): void;
  onChangePhone(): void;
}) {
  const { step, pending } = props;
  const error = translateMessage(props.error) ?? null;
  const info = translateMessage(props.info) ?? null;
  return (
    <AuthCard title={t('signIn.codeTitle')} subtitle={step === 'phone' ? t('signIn.codeSubtitle') : undefined}>
      {step === 'phone' && <PhoneStep pending={pending} error={error} initial={props.phoneNumber} onSubmit={props.onSubmitPhone} />}
      {step === 'code' && (
        <CodeStep pending={pending} error={error} info={info} phoneNumber={props.phoneNumber}
          onSubmit={props.onSubmitCode} onResend={props.onResend} onChangePhone={props.onChangePhone} />
      )}
      {step === 'signedIn' && <p className="auth-subtitle" role="status">{t('signIn.signingIn')}</p>}
      <nav className="auth-links">
        <Link href={`/login${props.search ? `?${props.search}` : ''}`}>{t('signIn.withPassword')}</Link>
        <Link href="/registration">{t('signIn.create')}</Link>
        <Link href="/">{t('signIn.backToShop')}</Link>
      </nav>
    </AuthCard>
  );
}

function PhoneStep({ pending, error, initial, onSubmit }: { pending: boolean; error: string | null; initial: string; onSubmit(p: string): void }) {
  const [phone, setPhone] = useState(initial);
  const submit = (e: FormEvent) => { e.preventDefault(); onSubmit(phone); };
  return (
    <form className="auth-form" onSubmit={submit} aria-busy={pending}>
      <PhoneInput id="code-sign-in-phone" label={t('signIn.phone')} value={phone} onChange={setPhone} error={error} />
      <button type="submit" className="auth-submit" disabled={pending || !phone}>{pending ? t('signIn.sending') : t('signIn.sendCode')}</button>
    </form>
  );
}
