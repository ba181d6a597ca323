import { afterAll, beforeAll, expect } from 'vitest';
import { assign } from 'xstate';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { startServerProcess, type ServerProcess } from '../support/serverProcess';
import { renderApp, resetBrowser } from '../support/renderApp';
import { registrationMachine, type RegistrationContext } from '../../machines/registration';
import { describeModel, type ModelPath } from '../support/describeModel';
import { EMAIL_TAKEN, PHONE_TAKEN } from '../../server/services/customer/registration';

/**
 * Registration as the user lives it (SPEC.md 4: three steps), generated from the real
 * registration machine (machines/registration.ts). Each user event of the machine is a real
 * action in the real registration view against a real server; codes are read from the server's
 * SMS outbox. The machine's actors (sendCode, validateCode, completeRegistration) answer as the
 * server does: accepted, or refused with the server's message (a taken phone or e-mail, a wrong
 * code, a 429 after too many tries); the user action before each answer is chosen to make the
 * server give it. Each editing state checks the heading, the message and the note the view shows.
 */
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

interface Walk { c: Customer; sent: number; wrong: number; typed: string }
type Step = { event: Record<string, unknown>; next?: { key: string; event: Record<string, unknown> } };
type Snap = { context: RegistrationContext };
const errorOf = (step: Step) => (step.next?.key.endsWith('.error') ? (step.next.event.error as Error).message : null);

const registrationModel = {
  machine: registrationMachine,
  // Valid input only: the view's own checks are the form's business, not the server's.
  events: [
    { type: 'registration.submitPhone', phoneNumber: '+96560000000' },
    { type: 'registration.submitCode', code: '123456' },
    { type: 'registration.submitDetails', details: { fullName: 'Model', email: 'model@model.test', password: 'secret-123' } },
  ],
  answers: {
    sendCode: { done: [true], error: (s: { matches(v: unknown): boolean }) => [new Error(s.matches({ phone: 'sendingCode' }) ? PHONE_TAKEN : TOO_MANY_SENT)] },
    validateCode: { done: [true], error: [new Error(WRONG_CODE), new Error(TOO_MANY_WRONG)] },
    completeRegistration: { done: [{ accessToken: 'token', userId: 9 }], error: [new Error(EMAIL_TAKEN)] },
  },
  serialize: (s: { value: unknown; context: RegistrationContext }) => [s.value, s.context.error, s.context.info, !!s.context.phoneNumber],
  start: (): Walk => { resetBrowser(); renderApp(server, '/registration'); return { c: newCustomer(), sent: 0, wrong: 0, typed: '' }; },
  steps: {
    // A taken phone when the server is to refuse it.
    'registration.submitPhone': async (w: Walk, step: Step) => {
      w.typed = errorOf(step) === PHONE_TAKEN ? '50000001' : w.c.local;
      await submitPhone(w.typed);
      if (w.typed === w.c.local) w.sent++;
    },
    'registration.changePhone': () => click('Change phone number'),
    // A wrong code while the server is to refuse it: five wrong tries are counted, the sixth is refused with 429.
    'registration.submitCode': async (w: Walk, step: Step) => {
      const code = await latestCode(w.c);
      const error = errorOf(step);
      if (!error) return submitCode(code);
      do { await submitCode(wrongOf(code)); w.wrong++; } while (error === TOO_MANY_WRONG && w.wrong < 6);
    },
    // Five codes per phone within the window; the sixth send is refused with 429.
    'registration.resendCode': async (w: Walk, step: Step) => {
      do { await click('Resend code'); await idle(); w.sent++; } while (errorOf(step) === TOO_MANY_SENT && w.sent < 6);
    },
    'registration.submitDetails': (w: Walk, step: Step) => submitDetails(w.c, errorOf(step) === EMAIL_TAKEN ? 'customer@brewops.test' : w.c.email),
    // The server's answers: the action before each made the server give it.
    'sendCode.done': idle, 'sendCode.error': idle,
    'validateCode.done': idle, 'validateCode.error': idle,
    'completeRegistration.done': idle, 'completeRegistration.error': idle,
  },
  states: {
    'phone.editing': async (w: Walk, s: Snap) => {
      await heading('Create an account');
      expect(screen.getByRole('button', { name: 'Send code' })).toBeTruthy();
      expect(path()).toBe('/registration');
      expect(localStorage.getItem('token')).toBeNull();
      if (s.context.error) await alertText(s.context.error);
      // Refused, or back from the code step: the phone the customer typed is still there.
      if (s.context.phoneNumber) expect((screen.getByLabelText('Phone number') as HTMLInputElement).value.replace(/\D/g, '')).toBe(w.typed);
    },
    'code.editing': async (w: Walk, s: Snap) => {
      await heading('Verify your phone');
      expect(screen.getByText(w.c.phone)).toBeTruthy();
      if (s.context.error) await alertText(s.context.error);
      if (s.context.info) {
        expect((await screen.findByRole('status')).textContent).toBe(s.context.info);
        expect(await server.smsCodes(w.c.phone, 'register')).toHaveLength(w.sent);
      } else expect(screen.queryByRole('status')).toBeNull();
    },
    'details.editing': async (_: Walk, s: Snap) => {
      await heading('Your details');
      expect(screen.getByRole('button', { name: 'Create account' })).toBeTruthy();
      if (s.context.error) await alertText(s.context.error);
      expect(localStorage.getItem('token')).toBeNull();
    },
    registered: async (w: Walk) => {
      await waitFor(() => expect(path()).toBe('/profile'));
      await waitFor(() => expect(screen.getByTestId('profile-name').textContent).toBe(w.c.fullName));
      expect(localStorage.getItem('token')).toMatch(/^ey/);
      expect(localStorage.getItem('role')).toBe('CUSTOMER');
      // The new account signs in with its phone and password.
      expect(await server.api.login(w.c.phone, 'secret-123')).toMatch(/^ey/);
    },
  },
};

describeModel('registration (model-based on the real machine, real view, real server)', {
  ...registrationModel,
  minPaths: 6,
  broken: [{
    // A machine that replaces the server's message with its own words: the view shows the server's.
    name: 'a machine that does not keep the server\'s message',
    spec: {
      machine: registrationMachine.provide({ actions: { showFailure: assign({ error: () => 'Something else', info: null }) } }),
    },
    pick: (p: ModelPath) => p.steps.some((s) => s.event.type.startsWith('xstate.error.actor')),
    failsWith: /Something else|expected/,
  }],
} as never);
