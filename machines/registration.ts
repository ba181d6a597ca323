import { assign, fromPromise, setup } from 'xstate';
import { isValidPhone, normalisePhone } from '../domain/phone';
import { TEXT } from '../domain/constants';
import { asciiDigits } from '../domain/digits';
import { REGISTRATION_TEXT } from './registrationText';

/**
 * Registration by phone in three steps (SPEC.md 4 "Registration"):
 *
 *   phone ──registration.submitPhone──▶ sendingCode ──▶ code            (step 2 flag)
 *   code  ──registration.submitCode───▶ validatingCode ──▶ details       (step 3 flag)
 *   code  ──registration.resendCode───▶ resendingCode ──▶ code
 *   details ──registration.submitDetails──▶ completing ──▶ registered    (registered flag)
 *
 * Each step keeps its own error (the server's message, e.g. the 429 after too many codes or
 * wrong tries). The code is parsed as an integer (SPEC.md 5) before it is sent.
 *
 * Ports, bound by whoever runs the machine: actors `sendCode` (RegistrateNewUnregisteredUser,
 * also used to resend), `validateCode` (ValidateNewUnregisteredUser) and `completeRegistration`
 * (RegistrateUserFromMobileAppByPhone, answers a session); action `signIn` receives that session.
 * Actors reject with an Error whose message is what the user should read.
 */

export interface RegistrationSession { accessToken: string; userId: number }
export interface RegistrationDetails { fullName: string; email: string; password: string }

export interface RegistrationContext {
  phoneNumber: string;
  /** The code as typed; sent as an integer. */
  code: string;
  error: string | null;
  /** A short confirmation after a resend. */
  info: string | null;
  session: RegistrationSession | null;
}

export type RegistrationEvent =
  | { type: 'registration.submitPhone'; phoneNumber: string }
  | { type: 'registration.submitCode'; code: string }
  | { type: 'registration.resendCode' }
  | { type: 'registration.changePhone' }
  | { type: 'registration.submitDetails'; details: RegistrationDetails };

// Client-side messages, in a module of their own so the shop's Arabic catalogue can key them without the machine.
export { REGISTRATION_TEXT };

export const MIN_PASSWORD_LENGTH = 6;

/** SPEC.md 5: the validation code is parsed as an integer ('١٢٣٤٥٦' too); null when it is not one. */
export function parseCode(code: string): number | null {
  const trimmed = asciiDigits(code).trim();
  return /^\d{1,6}$/.test(trimmed) ? Number.parseInt(trimmed, 10) : null;
}

/** The first problem with the details form, or null when it can be sent. */
export function detailsProblem(d: RegistrationDetails): string | null {
  if (!d.fullName.trim()) return REGISTRATION_TEXT.nameRequired;
  if (d.email.trim() && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(d.email.trim())) return REGISTRATION_TEXT.invalidEmail;
  if (d.password.length < MIN_PASSWORD_LENGTH) return REGISTRATION_TEXT.shortPassword;
  return null;
}


export const registrationMachine = setup({
  types: {
    context: {} as RegistrationContext,
    events: {} as RegistrationEvent,
    tags: {} as 'pending' | 'step1' | 'step2' | 'step3' | 'registered',
  },
  actors: {
    sendCode: fromPromise<boolean, { phoneNumber: string }>(async () => {
      throw new Error('sendCode is not bound');
    }),
    validateCode: fromPromise<boolean, { phoneNumber: string; validationCode: number }>(async () => {
      throw new Error('validateCode is not bound');
    }),
    completeRegistration: fromPromise<RegistrationSession, RegistrationDetails & { phoneNumber: string }>(async () => {
      throw new Error('completeRegistration is not bound');
    }),
  },
  actions: {
    signIn: (_, _session: RegistrationSession) => {},
    /** A step's own problem, found before anything is sent. */
    showProblem: assign((_, params: { message: string }) => ({ error: params.message, info: null })),
    /** The message a failed actor carries. */
    showFailure: assign(({ event }) => ({
      error: ((event as { error?: { message?: string } }).error?.message) || TEXT.genericError,
      info: null,
    })),
  },
  guards: {
    isPhoneValid: ({ event }) => event.type === 'registration.submitPhone' && isValidPhone(event.phoneNumber),
    isCodeInteger: ({ event }) => event.type === 'registration.submitCode' && parseCode(event.code) !== null,
    areDetailsValid: ({ event }) => event.type === 'registration.submitDetails' && detailsProblem(event.details) === null,
  },
}).createMachine({
  id: 'registration',
  context: { phoneNumber: '', code: '', error: null, info: null, session: null },
  initial: 'phone',
  states: {
    phone: {
      tags: ['step1'],
      initial: 'editing',
      states: {
        editing: {
          on: {
            'registration.submitPhone': [
              {
                guard: 'isPhoneValid',
                target: 'sendingCode',
                actions: assign({ phoneNumber: ({ event }) => normalisePhone(event.phoneNumber)!, error: null, info: null }),
              },
              { actions: { type: 'showProblem', params: { message: REGISTRATION_TEXT.invalidPhone } } },
            ],
          },
        },
        sendingCode: {
          tags: ['pending'],
          invoke: {
            src: 'sendCode',
            input: ({ context }) => ({ phoneNumber: context.phoneNumber }),
            onDone: { target: '#registration.code' },
            onError: { target: 'editing', actions: 'showFailure' },
          },
        },
      },
    },
    code: {
      tags: ['step2'],
      initial: 'editing',
      states: {
        editing: {
          on: {
            'registration.submitCode': [
              { guard: 'isCodeInteger', target: 'validatingCode', actions: assign({ code: ({ event }) => event.code.trim(), error: null, info: null }) },
              { actions: { type: 'showProblem', params: { message: REGISTRATION_TEXT.invalidCode } } },
            ],
            'registration.resendCode': { target: 'resendingCode', actions: assign({ error: null, info: null }) },
            'registration.changePhone': { target: '#registration.phone', actions: assign({ code: '', error: null, info: null }) },
          },
        },
        validatingCode: {
          tags: ['pending'],
          invoke: {
            src: 'validateCode',
            input: ({ context }) => ({ phoneNumber: context.phoneNumber, validationCode: parseCode(context.code)! }),
            onDone: { target: '#registration.details' },
            onError: { target: 'editing', actions: 'showFailure' },
          },
        },
        resendingCode: {
          tags: ['pending'],
          invoke: {
            src: 'sendCode',
            input: ({ context }) => ({ phoneNumber: context.phoneNumber }),
            onDone: { target: 'editing', actions: assign({ info: REGISTRATION_TEXT.codeResent, code: '' }) },
            onError: { target: 'editing', actions: 'showFailure' },
          },
        },
      },
    },
    details: {
      tags: ['step3'],
      initial: 'editing',
      states: {
        editing: {
          on: {
            'registration.submitDetails': [
              { guard: 'areDetailsValid', target: 'completing', actions: assign({ error: null }) },
              { actions: assign({ error: ({ event }) => detailsProblem(event.details) }) },
            ],
          },
        },
        completing: {
          tags: ['pending'],
          invoke: {
            src: 'completeRegistration',
            input: ({ context, event }) => ({
              phoneNumber: context.phoneNumber,
              ...(event as Extract<RegistrationEvent, { type: 'registration.submitDetails' }>).details,
            }),
            onDone: { target: '#registration.registered', actions: assign({ session: ({ event }) => event.output }) },
            onError: { target: 'editing', actions: 'showFailure' },
          },
        },
      },
    },
    registered: {
      tags: ['registered'],
      type: 'final',
      entry: { type: 'signIn', params: ({ context }) => context.session! },
    },
  },
});

type Snapshot = { context: RegistrationContext; hasTag(tag: 'pending' | 'step1' | 'step2' | 'step3' | 'registered'): boolean };

/** Selectors: the view reads these, never state paths. */
export type RegistrationStep = 'phone' | 'code' | 'details' | 'registered';
export const selectStep = (s: Snapshot): RegistrationStep =>
  s.hasTag('registered') ? 'registered' : s.hasTag('step3') ? 'details' : s.hasTag('step2') ? 'code' : 'phone';
export const selectIsPending = (s: Snapshot) => s.hasTag('pending');
export const selectError = (s: Snapshot) => s.context.error;
export const selectInfo = (s: Snapshot) => s.context.info;
export const selectPhoneNumber = (s: Snapshot) => s.context.phoneNumber;
