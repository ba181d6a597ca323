import { afterAll, describe, expect, it } from 'vitest';
import { useState } from 'react';
import { createActor, fromPromise } from 'xstate';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { renderApp, resetBrowser } from '../support/renderApp';
import { useServerProcess } from '../support/harness';
import { PhoneInput } from '../../src/shop/components/PhoneInput';
import { codeSignInMachine, selectError, selectStep, signInCode } from '../../machines/codeSignIn';
import { parseCode } from '../../machines/registration';
import { asciiDigits, normalisePlate, typedDigits, typedInteger } from '../../domain/digits';
import { normalisePhone, phoneProblem } from '../../domain/phone';
import { PRODUCT_NAME } from '../../domain/constants';
import { REGISTRATION_TEXT } from '../../machines/registrationText';

/**
 * Issue 24, the shop's sign-in as a customer lives it: Arabic-Indic (٠-٩) and Persian (۰-۹) digits
 * are digits in every field a number is typed into, sign-in with a one-time code (the machine, and
 * the real view against a real server), and the sign-in card headed with the brand's name.
 */
const arabic = (s: string) => s.replace(/\d/g, (d) => String.fromCharCode(0x0660 + Number(d)));

describe('digits as typed (domain/digits.ts, domain/phone.ts)', () => {
  it('reads Arabic-Indic and Persian digits as ASCII digits', () => {
    expect(asciiDigits('٠١٢٣٤٥٦٧٨٩ ۰۱۲۳۴۵۶۷۸۹ x')).toBe('0123456789 0123456789 x');
    expect(typedDigits('٥٠٠ ٠١٢٣٥')).toBe('50001235');
    expect(typedInteger('١٢')).toBe(12);
    expect(normalisePlate(' ٢٣/٤٥٦٧٨ ')).toBe('23/45678');
    expect(normalisePhone('٥٠٠٠١٢٣٥')).toBe('+96550001235');
    expect(normalisePhone('50007773')).toBe('+96550007773');
    expect(phoneProblem('+٩٦٥٥٠٠٠١٢٣٥')).toBeNull();
    expect(parseCode('١٢٣٤٥٦')).toBe(123456);
    expect(signInCode('۱۲۳۴۵۶')).toBe('123456');
  });

  it('the phone input keeps a number typed in Arabic-Indic digits (it was left empty)', () => {
    let value = '';
    function Field() {
      const [phone, setPhone] = useState('');
      value = phone;
      return <PhoneInput id="p" label="Phone number" value={phone} onChange={setPhone} />;
    }
    render(<Field />);
    fireEvent.change(screen.getByLabelText('Phone number'), { target: { value: '٥٠٠٠١٢٣٥' } });
    expect(value).toBe('+96550001235');
    expect((screen.getByLabelText('Phone number') as HTMLInputElement).value).toBe('500 01235');
    cleanup();
  });
});

describe('sign-in with a code (machines/codeSignIn.ts)', () => {
  const sent: string[] = [];
  const machine = codeSignInMachine.provide({
    actors: {
      sendCode: fromPromise(async ({ input }: { input: { phoneNumber: string } }) => { sent.push(input.phoneNumber); return true; }),
      verifyCode: fromPromise(async ({ input }: { input: { phoneNumber: string; code: string } }) => {
        if (input.code !== '123456') throw new Error('The verification code is not correct.');
        return { accessToken: 'token', userId: 42 };
      }),
    },
  });

  it('takes the phone as typed, refuses a short code itself, and signs in with the code in Arabic-Indic digits', async () => {
    const signedIn: unknown[] = [];
    const actor = createActor(machine.provide({ actions: { signIn: (_, s) => { signedIn.push(s); } } })).start();
    actor.send({ type: 'codeSignIn.submitPhone', phoneNumber: 'abc' });
    expect(selectError(actor.getSnapshot())).toBe('Not a valid Phone Number');
    actor.send({ type: 'codeSignIn.submitPhone', phoneNumber: '٥٠٠٠٧٧٧٣' });
    await waitFor(() => expect(selectStep(actor.getSnapshot())).toBe('code'));
    expect(sent).toEqual(['+96550007773']);
    actor.send({ type: 'codeSignIn.submitCode', code: '١٢٣' });
    expect(selectError(actor.getSnapshot())).toBe(REGISTRATION_TEXT.invalidCode);
    actor.send({ type: 'codeSignIn.submitCode', code: '١٢٣٤٥٠' });
    await waitFor(() => expect(selectError(actor.getSnapshot())).toBe('The verification code is not correct.'));
    actor.send({ type: 'codeSignIn.resendCode' });
    await waitFor(() => expect(actor.getSnapshot().context.info).toBe(REGISTRATION_TEXT.codeResent));
    actor.send({ type: 'codeSignIn.submitCode', code: '١٢٣٤٥٦' });
    await waitFor(() => expect(selectStep(actor.getSnapshot())).toBe('signedIn'));
    expect(signedIn).toEqual([{ accessToken: 'token', userId: 42 }]);
  });

  it('goes back to the phone step keeping the phone', async () => {
    const actor = createActor(machine).start();
    actor.send({ type: 'codeSignIn.submitPhone', phoneNumber: '+96550007774' });
    await waitFor(() => expect(selectStep(actor.getSnapshot())).toBe('code'));
    actor.send({ type: 'codeSignIn.changePhone' });
    expect(selectStep(actor.getSnapshot())).toBe('phone');
    expect(actor.getSnapshot().context.phoneNumber).toBe('+96550007774');
  });
});

describe('the real views against a real server', () => {
  const server = useServerProcess();
  afterAll(async () => { cleanup(); });

  const click = async (name: string) => {
    const button = await screen.findByRole('button', { name });
    await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(button);
  };
  const local = () => `6${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;

  it('registers with a phone and a code typed in Arabic-Indic digits (Verify stayed disabled)', async () => {
    resetBrowser();
    const digits = local();
    renderApp(server, '/registration');
    fireEvent.change(await screen.findByLabelText('Phone number'), { target: { value: arabic(digits) } });
    await click('Send code');
    await screen.findByLabelText('Verification code');
    const [code] = await server.smsCodes(`+965${digits}`, 'register');
    fireEvent.change(screen.getByLabelText('Verification code'), { target: { value: arabic(code) } });
    await click('Verify');
    expect(await screen.findByLabelText('Full name')).toBeTruthy();
  });

  it('signs a registered customer in with a code: the link under the password form, the phone and code in Arabic-Indic digits', async () => {
    resetBrowser();
    const digits = local();
    const phone = `+965${digits}`;
    await server.api.post('/api/services/app/Customer/RegistrateNewUnregisteredUser', { body: { phoneNumber: phone } });
    const [registerCode] = await server.smsCodes(phone, 'register');
    await server.api.post('/api/services/app/Customer/ValidateNewUnregisteredUser', { body: { phoneNumber: phone, validationCode: Number(registerCode) } });
    const done = await server.api.post('/api/services/app/Customer/RegistrateUserFromMobileAppByPhone', { body: { phoneNumber: phone, fullName: 'Code Customer', password: 'secret-1' } });
    expect(done.status).toBe(200);

    renderApp(server, '/login?next=/profile');
    fireEvent.click(await screen.findByRole('link', { name: 'Sign in with a code' }));
    await waitFor(() => expect(window.location.pathname).toBe('/login_code'));
    fireEvent.change(await screen.findByLabelText('Phone number'), { target: { value: arabic(digits) } });
    await click('Send code');
    const codeField = await screen.findByLabelText('Verification code');
    expect(screen.getByText(phone)).toBeTruthy();
    const [code] = await server.smsCodes(phone, 'signIn');
    expect(code).toMatch(/^\d{6}$/);
    fireEvent.change(codeField, { target: { value: arabic(code) } });
    expect((codeField as HTMLInputElement).value).toBe(code);
    await click('Verify');
    await waitFor(() => expect(window.location.pathname).toBe('/profile'), { timeout: 15_000 });
    expect(localStorage.getItem('role')).toBe('CUSTOMER');
  });

  it('an unregistered phone reaches the code step as a registered one does, and no code is sent to it', async () => {
    resetBrowser();
    const digits = local();
    renderApp(server, '/login_code');
    fireEvent.change(await screen.findByLabelText('Phone number'), { target: { value: digits } });
    await click('Send code');
    expect(await screen.findByLabelText('Verification code')).toBeTruthy();
    expect(await server.smsCodes(`+965${digits}`)).toEqual([]);
  });

  it("heads sign-in and registration with the shop's brand (its default, or the one the customer chose), not the platform's", async () => {
    resetBrowser();
    renderApp(server, '/login');
    await waitFor(() => expect(screen.getByTestId('auth-brand').textContent).toBe('Mango Coffee'));
    expect(screen.queryByText(PRODUCT_NAME)).toBeNull();
    resetBrowser();
    localStorage.setItem('shopSelection', JSON.stringify({ brandId: 8, branchId: 2, currency: 'KWD' }));
    renderApp(server, '/registration');
    await waitFor(() => expect(screen.getByTestId('auth-brand').textContent).toBe('Dune Bakery'));
    expect(screen.queryByText(PRODUCT_NAME)).toBeNull();
  });
});
