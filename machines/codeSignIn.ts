import { assign, fromPromise, setup } from 'xstate';
import { isValidPhone, normalisePhone } from '../domain/phone';
import { typedDigits } from '../domain/digits';
import { TEXT } from '../domain/constants';
import { REGISTRATION_TEXT } from './registrationText';

/**
 * Sign-in with a one-time code (issue 24), the way Kuwaiti apps sign customers in: the phone, then
 * the 6-digit code sent to it by SMS; no password.
 *
 *   phone ──codeSignIn.submitPhone──▶ sendingCode ──▶ code
 *   code  ──codeSignIn.submitCode───▶ verifying ──▶ signedIn (final: signIn(session))
 *   code  ──codeSignIn.resendCode───▶ resendingCode ──▶ code (info 'A new code was sent by SMS.')
 *   code  ──codeSignIn.changePhone──▶ phone
 *
 * The phone is read as typed (domain/phone.ts: 8 local digits are +965, Arabic-Indic digits are
 * digits) and the code too (domain/digits.ts). The server answers a phone without an account as
 * it answers a registered one, so the machine never says which it is.
 *
 * Ports, bound by whoever runs the machine: actors `sendCode` (TokenAuth/SendSignInCodeBySms, also
 * used to resend) and `verifyCode` (TokenAuth/AuthenticateBySmsCode, answers a session); action
 * `signIn` receives that session. Actors reject with an Error whose message is what the user should read.
 * Its messages are the registration's (machines/registrationText.ts), already in the Arabic catalogue.
 */

export interface CodeSignInSession { accessToken: string; userId: number }

export interface CodeSignInContext {
  phoneNumber: string;
  error: string | null;
  info: string | null;
  session: CodeSignInSession | null;
}

export type CodeSignInEvent =
  | { type: 'codeSignIn.submitPhone'; phoneNumber: string }
  | { type: 'codeSignIn.submitCode'; code: string }
  | { type: 'codeSignIn.resendCode' }
  | { type: 'codeSignIn.changePhone' };

/** The code as typed ('١٢٣٤٥٦' too): its 6 ASCII digits, or null. */
export function signInCode(typed: string): string | null {
  const code = typedDigits(typed);
  return /^\d{6}$/.test(code) ? code : null;
}

export const codeSignInMachine = setup({
  types: {
    context: {} as CodeSignInContext,
    events: {} as CodeSignInEvent,
    tags: {} as 'pending' | 'phoneStep' | 'codeStep' | 'signedIn',
  },
  actors: {
    sendCode: fromPromise<boolean, { phoneNumber: string }>(async () => {
      throw new Error('sendCode is not bound');
    }),
    verifyCode: fromPromise<CodeSignInSession, { phoneNumber: string; code: string }>(async () => {
      throw new Error('verifyCode is not bound');
    }),
  },
  actions: {
    signIn: (_, _session: CodeSignInSession) => {},
    showProblem: assign((_, params: { message: string }) => ({ error: params.message, info: null })),
    showFailure: assign(({ event }) => ({
      error: ((event as { error?: { message?: string } }).error?.message) || TEXT.genericError,
      info: null,
    })),
  },
  guards: {
    isPhoneValid: ({ event }) => event.type === 'codeSignIn.submitPhone' && isValidPhone(event.phoneNumber),
    isCodeComplete: ({ event }) => event.type === 'codeSignIn.submitCode' && signInCode(event.code) !== null,
  },
}).createMachine({
  id: 'codeSignIn',
  context: { phoneNumber: '', error: null, info: null, session: null },
  initial: 'phone',
  states: {
    phone: {
      tags: ['phoneStep'],
      initial: 'editing',
      states: {
        editing: {
          on: {
            'codeSignIn.submitPhone': [
              {
                guard: 'isPhoneValid',
                target: 'sendingCode',
                actions: assign({ phoneNumber: ({ event }) => normalisePhone(event.phoneNumber)!, error: null, info: null }),
              },
              { actions: { type: 'showProblem', params: { message: TEXT.guest.invalidPhone } } },
            ],
          },
        },
        sendingCode: {
          tags: ['pending'],
          invoke: {
            src: 'sendCode',
            input: ({ context }) => ({ phoneNumber: context.phoneNumber }),
            onDone: { target: '#codeSignIn.code' },
            onError: { target: 'editing', actions: 'showFailure' },
          },
        },
      },
    },
    code: {
      tags: ['codeStep'],
      initial: 'editing',
      states: {
        editing: {
          on: {
            'codeSignIn.submitCode': [
              { guard: 'isCodeComplete', target: 'verifying', actions: assign({ error: null, info: null }) },
              { actions: { type: 'showProblem', params: { message: REGISTRATION_TEXT.invalidCode } } },
            ],
            'codeSignIn.resendCode': { target: 'resendingCode', actions: assign({ error: null, info: null }) },
            'codeSignIn.changePhone': { target: '#codeSignIn.phone', actions: assign({ error: null, info: null }) },
          },
        },
        verifying: {
          tags: ['pending'],
          invoke: {
            src: 'verifyCode',
            input: ({ context, event }) => ({
              phoneNumber: context.phoneNumber,
              code: signInCode((event as Extract<CodeSignInEvent, { type: 'codeSignIn.submitCode' }>).code)!,
            }),
            onDone: { target: '#codeSignIn.signedIn', actions: assign({ session: ({ event }) => event.output }) },
            onError: { target: 'editing', actions: 'showFailure' },
          },
        },
        resendingCode: {
          tags: ['pending'],
          invoke: {
            src: 'sendCode',
            input: ({ context }) => ({ phoneNumber: context.phoneNumber }),
            onDone: { target: 'editing', actions: assign({ info: REGISTRATION_TEXT.codeResent }) },
            onError: { target: 'editing', actions: 'showFailure' },
          },
        },
      },
    },
    signedIn: {
      tags: ['signedIn'],
      type: 'final',
      entry: { type: 'signIn', params: ({ context }) => context.session! },
    },
  },
});

type Snapshot = { context: CodeSignInContext; hasTag(tag: 'pending' | 'phoneStep' | 'codeStep' | 'signedIn'): boolean };

/** Selectors: the view reads these, never state paths. */
export type CodeSignInStep = 'phone' | 'code' | 'signedIn';
export const selectStep = (s: Snapshot): CodeSignInStep => (s.hasTag('signedIn') ? 'signedIn' : s.hasTag('codeStep') ? 'code' : 'phone');
export const selectIsPending = (s: Snapshot) => s.hasTag('pending');
export const selectError = (s: Snapshot) => s.context.error;
export const selectInfo = (s: Snapshot) => s.context.info;
export const selectPhoneNumber = (s: Snapshot) => s.context.phoneNumber;
