import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMachine } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { startServerProcess, type ServerProcess } from '../support/serverProcess';
import { renderApp, resetBrowser } from '../support/renderApp';
import { registrationMachine, REGISTRATION_TEXT } from '../../machines/registration';
import { EMAIL_TAKEN, PHONE_TAKEN } from '../../server/services/customer/registration';

/**
 * Registration as the user lives it (SPEC.md 4: three steps). Each event is a real action in the
 * real registration view against a real server; codes are read from the server's SMS outbox.
 * The model's events stand for the outcomes of the machine's actors (sendCode, validateCode,
 * completeRegistration): accepted, refused, or refused with 429 after too many tries.
 */
const model = createTestModel(createMachine({
  id: 'registrationModel',
  initial: 'phone',
  states: {
    phone: { on: { SUBMIT_TAKEN_PHONE: 'phoneRefused', SUBMIT_PHONE: 'code' } },
    phoneRefused: { on: { SUBMIT_PHONE: 'code' } },
    code: { on: { WRONG_CODE: 'codeRefused', RESEND: 'codeResent', RIGHT_CODE: 'details', CHANGE_PHONE: 'phoneAgain' } },
    phoneAgain: { on: { SUBMIT_PHONE: 'code' } },
    codeRefused: { on: { RIGHT_CODE: 'details', WRONG_CODE_UNTIL_LOCKED: 'locked' } },
    locked: { on: { RESEND: 'codeResent' } },
    codeResent: { on: { RIGHT_CODE: 'details', RESEND_UNTIL_LIMIT: 'resendRefused' } },
    resendRefused: {},
    details: { on: { SUBMIT_TAKEN_EMAIL: 'detailsRefused', COMPLETE: 'registered' } },
    detailsRefused: { on: { COMPLETE: 'registered' } },
    registered: {},
  },
}));

const TOO_MANY_WRONG = 'Too many wrong codes. Please request a new code.';
const TOO_MANY_SENT = 'Too many codes were requested. Please try again in 10 minutes.';
const WRONG_CODE = 'The verification code is not correct.';

let server: ServerProcess;
beforeAll(async () => { server = await startServerProcess(); });
afterAll(async () => { cleanup(); await server?.close(); });

const path = () => window.location.pathname;
const alertText = async (text: string) => {
  await waitFor(() => expect(screen.getAllByRole('alert').map((a) => a.textContent)).toContain(text));
};
const click = async (name: string) => {
  const button = await screen.findByRole('button', { name });
  await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
  fireEvent.click(button);
};
const idle = () => waitFor(() => expect(document.querySelector('form[aria-busy="true"]')).toBeNull());

/** One customer-to-be per path: a fresh phone, so paths do not share outbox rows or accounts. */
function newCustomer() {
  const local = `6${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
  return { local, phone: `+965${local}`, fullName: `Model ${local}`, email: `${local}@model.test` };
}
type Customer = ReturnType<typeof newCustomer>;

async function submitPhone(local: string) {
  fireEvent.change(await screen.findByLabelText('Phone number'), { target: { value: local } });
  await click('Send code');
  await idle();
}

async function latestCode(c: Customer) {
  const [code] = await server.smsCodes(c.phone, 'register');
  expect(code).toMatch(/^\d{6}$/);
  return code;
}
const wrongOf = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

async function submitCode(code: string) {
  fireEvent.change(await screen.findByLabelText('Verification code'), { target: { value: code } });
  await click('Verify');
  await idle();
}

async function submitDetails(c: Customer, email: string) {
  fireEvent.change(await screen.findByLabelText('Full name'), { target: { value: c.fullName } });
  fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: email } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret-123' } });
  await click('Create account');
}

const heading = (name: string) => screen.findByRole('heading', { name });

describe('registration (model-based, real view, real server)', () => {
  const paths = model.getShortestPaths();

  it('covers every state of the model', () => {
    const reached = new Set(paths.flatMap((p) => [p.state.value, ...p.steps.map((s) => s.state.value)] as string[]));
    expect([...reached].sort()).toEqual([
      'code', 'codeRefused', 'codeResent', 'details', 'detailsRefused', 'locked', 'phone', 'phoneAgain', 'phoneRefused', 'registered', 'resendRefused',
    ]);
    // The real machine has the three steps the model stands for, and the registered end.
    expect(Object.keys(registrationMachine.config.states!)).toEqual(['phone', 'code', 'details', 'registered']);
  });

  for (const p of paths) {
    it(p.description, async () => {
      resetBrowser();
      renderApp(server, '/registration');
      const c = newCustomer();
      await p.test({
        states: {
          phone: async () => {
            await heading('Create an account');
            expect(screen.getByRole('button', { name: 'Send code' })).toBeTruthy();
            expect(path()).toBe('/registration');
            expect(localStorage.getItem('token')).toBeNull();
          },
          phoneRefused: async () => {
            await alertText(PHONE_TAKEN);
            await heading('Create an account');
          },
          phoneAgain: async () => {
            await heading('Create an account');
            expect((screen.getByLabelText('Phone number') as HTMLInputElement).value.replace(/\D/g, '')).toBe(c.local);
          },
          code: async () => {
            await heading('Verify your phone');
            expect(screen.getByText(c.phone)).toBeTruthy();
          },
          codeRefused: async () => {
            await alertText(WRONG_CODE);
            await heading('Verify your phone');
          },
          locked: () => alertText(TOO_MANY_WRONG),
          codeResent: async () => {
            expect((await screen.findByRole('status')).textContent).toBe(REGISTRATION_TEXT.codeResent);
            expect(await server.smsCodes(c.phone, 'register')).toHaveLength(2);
          },
          resendRefused: async () => {
            await alertText(TOO_MANY_SENT);
            await heading('Verify your phone');
          },
          details: async () => {
            await heading('Your details');
            expect(screen.getByRole('button', { name: 'Create account' })).toBeTruthy();
          },
          detailsRefused: async () => {
            await alertText(EMAIL_TAKEN);
            await heading('Your details');
            expect(localStorage.getItem('token')).toBeNull();
          },
          registered: async () => {
            await waitFor(() => expect(path()).toBe('/profile'));
            await waitFor(() => expect(screen.getByTestId('profile-name').textContent).toBe(c.fullName));
            expect(localStorage.getItem('token')).toMatch(/^ey/);
            expect(localStorage.getItem('role')).toBe('CUSTOMER');
            // The new account signs in with its phone and password.
            expect(await server.api.login(c.phone, 'secret-123')).toMatch(/^ey/);
          },
        },
        events: {
          SUBMIT_PHONE: () => submitPhone(c.local),
          SUBMIT_TAKEN_PHONE: () => submitPhone('50000001'),
          CHANGE_PHONE: () => click('Change phone number'),
          WRONG_CODE: async () => submitCode(wrongOf(await latestCode(c))),
          RIGHT_CODE: async () => submitCode(await latestCode(c)),
          // Five wrong tries are counted; the sixth is refused with 429.
          WRONG_CODE_UNTIL_LOCKED: async () => {
            const wrong = wrongOf(await latestCode(c));
            for (let i = 0; i < 5; i++) await submitCode(wrong);
          },
          RESEND: async () => { await click('Resend code'); await idle(); },
          // Five codes per phone within the window; the sixth send is refused with 429.
          RESEND_UNTIL_LIMIT: async () => {
            for (let i = 0; i < 4; i++) { await click('Resend code'); await idle(); }
          },
          SUBMIT_TAKEN_EMAIL: () => submitDetails(c, 'customer@brewops.test'),
          COMPLETE: () => submitDetails(c, c.email),
        },
      });
    });
  }
});
