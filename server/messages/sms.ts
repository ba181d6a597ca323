import type { LanguageCode } from '../../domain/languages';

/**
 * The texts of the SMS a customer receives, in the language of the request that asked for it
 * (Accept-Language: the shop sends its own). The English stays as it always was; the Arabic keeps
 * the code in Latin digits, as the customer types it.
 */
/** What a one-time code is for (server/services/verification/codes.ts); each has its SMS text. */
export type CodePurpose = 'register' | 'reset' | 'signIn';

const CODE_SMS: Record<LanguageCode, Record<CodePurpose, (code: string) => string>> = {
  en: {
    register: (code) => `Your verification code is ${code}`,
    reset: (code) => `Your verification code is ${code}`,
    signIn: (code) => `Your sign-in code is ${code}`,
  },
  ar: {
    register: (code) => `رمز التحقق لتسجيل حسابك هو ${code}`,
    reset: (code) => `رمز التحقق لإعادة تعيين كلمة المرور هو ${code}`,
    signIn: (code) => `رمز الدخول إلى حسابك هو ${code}`,
  },
};

/** Every purpose a code is sent for (a test keeps each text within one SMS segment). */
export const CODE_SMS_PURPOSES = Object.keys(CODE_SMS.en) as CodePurpose[];

export const codeSmsText = (code: string, purpose: CodePurpose, language: LanguageCode): string => CODE_SMS[language][purpose](code);
