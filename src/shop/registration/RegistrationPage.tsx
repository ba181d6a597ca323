import './registration.css';
import { useMemo, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { useApolloClient } from '@apollo/client/react';
import { useActorRef, useSelector } from '@xstate/react';
import { AuthCard } from '../../auth/AuthCard';
import { useTitle } from '../../lib/title';
import { useSessionRef } from '../../lib/session';
import { PhoneInput } from '../components/PhoneInput';
import { CodeStep } from '../../auth/CodeStep';
import { provideRegistration } from './registrationPorts';
import { t, translateMessage, useShopLanguage, type TextKey } from '../../i18n';
import '../../i18n/screens';
import {
  selectError, selectInfo, selectIsPending, selectPhoneNumber, selectStep,
  type RegistrationDetails, type RegistrationStep,
} from '../../../machines/registration';

/**
 * /registration: the three steps of machines/registration.ts. On completion the new session is
 * handed to the auth session (auth.tokenReceived) and the customer lands on /profile.
 */
export default function RegistrationPage() {
  // Registration is the shop's: it speaks the shop's language, unlike the sign-in pages around it.
  useShopLanguage();
  useTitle(translateMessage('Registration'));
  const client = useApolloClient();
  const session = useSessionRef();
  const [, navigate] = useLocation();
  const machine = useMemo(() => provideRegistration(client, (s) => {
    session.send({ type: 'auth.tokenReceived', session: s });
    navigate('/profile', { replace: true });
  }), [client, session, navigate]);
  const ref = useActorRef(machine);
  const step = useSelector(ref, selectStep);
  const pending = useSelector(ref, selectIsPending);
  const error = useSelector(ref, selectError);
  const info = useSelector(ref, selectInfo);
  const phoneNumber = useSelector(ref, selectPhoneNumber);
  return (
    <RegistrationView
      step={step}
      pending={pending}
      error={error}
      info={info}
      phoneNumber={phoneNumber}
      onSubmitPhone={(p) => ref.send({ type: 'registration.submitPhone', phoneNumber: p })}
      onSubmitCode={(code) => ref.send({ type: 'registration.submitCode', code })}
      onResend={() => ref.send({ type: 'registration.resendCode' })}
      onChangePhone={() => ref.send({ type: 'registration.changePhone' })}
      onSubmitDetails={(details) => ref.send({ type: 'registration.submitDetails', details })}
    />
  );
}

const STEP_TITLES: Record<RegistrationStep, { title: TextKey; number: number }> = {
  phone: { title: 'registration.phoneTitle', number: 1 },
  code: { title: 'registration.codeTitle', number: 2 },
  details: { title: 'registration.detailsTitle', number: 3 },
  registered: { title: 'registration.registeredTitle', number: 3 },
};

/** Presentational: the registration card for one step. */
export function RegistrationView(props: {
  step: RegistrationStep;
  pending: boolean;
  error: string | null;
  info: string | null;
  phoneNumber: string;
  onSubmitPhone(phone: string): void;
  onSubmitCode(code: string): void;
  onResend(): void;
  onChangePhone(): void;
  onSubmitDetails(details: RegistrationDetails): void;
}) {
  const { step, pending, phoneNumber } = props;
  // The machine's and the server's messages arrive as English unless the server answered in Arabic.
  const error = translateMessage(props.error) ?? null;
  const info = translateMessage(props.info) ?? null;
  const { title, number } = STEP_TITLES[step];
  return (
    <AuthCard title={t(title)}>
      <ol className="reg-steps" aria-label={t('registration.step', { n: number })}>
        {[1, 2, 3].map((n) => <li key={n} className={n <= number ? 'is-done' : ''} aria-current={n === number ? 'step' : undefined} />)}
      </ol>
      {step === 'phone' && <PhoneStep key="phone" pending={pending} error={error} initial={phoneNumber} onSubmit={props.onSubmitPhone} />}
      {step === 'code' && (
        <CodeStep key="code" pending={pending} error={error} info={info} phoneNumber={phoneNumber}
          onSubmit={props.onSubmitCode} onResend={props.onResend} onChangePhone={props.onChangePhone} />
      )}
      {step === 'details' && <DetailsStep key="details" pending={pending} error={error} onSubmit={props.onSubmitDetails} />}
      {step === 'registered' && <p className="auth-subtitle" role="status">{t('registration.ready')}</p>}
      {step !== 'registered' && (
        <nav className="auth-links">
          <span>{t('registration.haveAccount')} <Link href="/login">{t('registration.signIn')}</Link></span>
          <Link href="/">{t('registration.backToShop')}</Link>
        </nav>
      )}
    </AuthCard>
  );
}

function Alert({ error }: { error: string | null }) {
  return error ? <p className="auth-error" role="alert">{error}</p> : null;
}

/** The phone's problem shows under the field (PhoneInput), so there is no separate alert here. */
function PhoneStep({ pending, error, initial, onSubmit }: { pending: boolean; error: string | null; initial: string; onSubmit(p: string): void }) {
  const [phone, setPhone] = useState(initial);
  const submit = (e: FormEvent) => { e.preventDefault(); onSubmit(phone); };
  return (
    <form className="auth-form" onSubmit={submit} aria-busy={pending}>
      <p className="auth-subtitle reg-lead">{t('registration.phoneLead')}</p>
      <PhoneInput id="reg-phone" label={t('registration.phone')} value={phone} onChange={setPhone} error={error} />
      <button type="submit" className="auth-submit" disabled={pending || !phone}>{pending ? t('registration.sending') : t('registration.sendCode')}</button>
    </form>
  );
}

function DetailsStep({ pending, error, onSubmit }: { pending: boolean; error: string | null; onSubmit(d: RegistrationDetails): void }) {
  const [details, setDetails] = useState<RegistrationDetails>({ fullName: '', email: '', password: '' });
  const set = (field: keyof RegistrationDetails) => (e: { target: { value: string } }) => setDetails((d) => ({ ...d, [field]: e.target.value }));
  const submit = (e: FormEvent) => { e.preventDefault(); onSubmit(details); };
  return (
    <form className="auth-form" onSubmit={submit} aria-busy={pending}>
      <p className="auth-subtitle reg-lead">{t('registration.detailsLead')}</p>
      <label>{t('registration.fullName')}<input name="fullName" autoComplete="name" value={details.fullName} onChange={set('fullName')} autoFocus /></label>
      <label>{t('registration.email')}<input name="email" type="email" autoComplete="email" value={details.email} onChange={set('email')} /></label>
      <label>{t('registration.password')}<input name="password" type="password" autoComplete="new-password" value={details.password} onChange={set('password')} /></label>
      <Alert error={error} />
      <button type="submit" className="auth-submit" disabled={pending || !details.fullName.trim() || !details.password}>
        {pending ? t('registration.creating') : t('registration.create')}
      </button>
    </form>
  );
}
