import { TEXT } from '../domain/constants';

/** Client-side messages of the registration (the spec has none for these steps beyond the phone's). */
export const REGISTRATION_TEXT = {
  invalidPhone: TEXT.guest.invalidPhone,
  invalidCode: 'Please enter the code from the SMS (digits only).',
  nameRequired: TEXT.guest.nameRequired,
  invalidEmail: 'Please enter a valid e-mail address.',
  shortPassword: 'The password must have at least 6 characters.',
  codeResent: 'A new code was sent by SMS.',
} as const;
