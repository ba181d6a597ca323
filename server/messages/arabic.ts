import { CAR_TEXT, QUANTITY, TEXT } from '../../domain/constants';
import type { LanguageCode } from '../../domain/languages';
import { ApiError } from '../http/envelope';
import { ORDER_TEXT } from '../services/store/planOrder';
import { EMAIL_TAKEN, INVALID_EMAIL, NOT_VALIDATED, PHONE_TAKEN } from '../services/customer/registration';
import { CODE_TEXT } from '../services/verification/codes';
import { SMS_GUARD_TEXT } from '../limits/smsGuard';
import { CODE_NOT_SENT } from './smsSends';
import { INVALID_LOGIN } from '../services/tokenAuth/routes';
import { ORDER_TIME_TEXT } from '../orders/slots';

/**
 * The server's refusals in Arabic, for a request that asks for Arabic (Accept-Language). Scope
 * (docs/decisions.md "Shop languages"): what the shop's own calls refuse with — the order's
 * rules (ORDER_TEXT), sign-in and permission refusals, SPEC.md's messages the shop shows. Any
 * other message stays English. The English texts are not repeated here: each Arabic one is keyed
 * by its English source, and a counted message by the function that writes it.
 */
type Arabic<T> = { [K in keyof T]: T[K] extends string ? string : T[K] extends (...args: infer A) => string ? (...args: { [I in keyof A]: string }) => string : never };

const ORDER_AR: Arabic<typeof ORDER_TEXT> = {
  emptyCart: 'سلتك فارغة.',
  oneMode: 'يرجى اختيار واحد من: الاستلام من الفرع أو خدمة السيارة أو التوصيل.',
  branchNotOfBrand: 'هذا الفرع لا يتبع هذه العلامة التجارية.',
  brandClosed: 'هذه العلامة التجارية لا تستقبل طلبات الآن.',
  busy: 'الفرع مشغول الآن ولا يستقبل طلبات. يرجى المحاولة لاحقًا.',
  closed: 'الفرع مغلق للطلبات عبر الإنترنت الآن. يرجى الطلب خلال ساعات العمل.',
  paymentUnavailable: 'طريقة الدفع هذه غير متاحة لهذه العلامة التجارية.',
  notOnMenu: (id) => `المنتج رقم ${id} ليس في قائمة هذه العلامة التجارية.`,
  unavailable: (name) => `${name} غير متوفر في هذا الفرع الآن.`,
  soldOutUntil: (name, until) => `نفدت كمية ${name} في هذا الفرع حتى ${until}.`,
  notOfferedAt: (name) => `${name} غير متوفر في قائمة الطعام في وقت هذا الطلب.`,
  quantity: (name) => `يجب أن تكون كمية ${name} بين ${QUANTITY.cart.min} و${QUANTITY.cart.max}.`,
  notAnOption: (id, product) => `الإضافة رقم ${id} ليست خيارًا لـ ${product}.`,
  twice: (option, product) => `اخترت ${option} مرتين لـ ${product}.`,
  onlyOne: (group, product) => `يرجى اختيار ${group} واحد فقط لـ ${product}.`,
  required: (group, product) => `يرجى اختيار ${group} لـ ${product}.`,
  notRedeemable: (name) => `لا يمكن استبدال ${name} بالنقاط.`,
  additionRedeem: 'لا يمكن استبدال الإضافات بالنقاط.',
  guestRedeem: 'يرجى تسجيل الدخول لاستبدال النقاط.',
  notEnoughPoints: 'ليس لديك نقاط كافية لاستبدال هذه المنتجات.',
  noDiscount: 'هذا الخصم غير متاح لك.',
  noAddress: 'يرجى اختيار عنوان التوصيل.',
  addressIncomplete: 'ينقص هذا العنوان ما تطلبه العلامة التجارية للتوصيل. يرجى إكماله في عناوينك.',
  noCar: 'يرجى اختيار سيارتك لخدمة السيارة.',
  walletGuest: 'يرجى تسجيل الدخول للدفع من محفظتك.',
  walletNotEnough: 'رصيد محفظتك لا يكفي لهذا الطلب. يرجى اختيار طريقة دفع أخرى.',
};

/** The order's time and its slot (issue 25, server/orders/slots.ts). */
const ORDER_TIME_AR: Arabic<typeof ORDER_TIME_TEXT> = {
  tooSoon: (earliest) => `يرجى اختيار وقت من ${earliest} فصاعدًا: يحتاج الفرع هذا الوقت لتحضير الطلب.`,
  tooFar: 'يرجى اختيار وقت خلال الأيام السبعة القادمة.',
  closedThen: 'لا يستقبل الفرع طلبات عبر الإنترنت في ذلك الوقت. يرجى اختيار وقت ضمن ساعات عمله.',
  full: (next) => `هذا الوقت ممتلئ. أقرب وقت متاح هو ${next}.`,
  closed: (next) => `هذا الوقت مغلق للطلبات. أقرب وقت متاح هو ${next}.`,
  inProgress: (next) => `لدى الفرع طلبات كثيرة قيد التحضير الآن. أقرب وقت متاح هو ${next}.`,
  noneFree: 'هذا الوقت ممتلئ، ولا يوجد وقت متاح خلال الأيام السبعة القادمة.',
};

const FIXED_AR: Record<string, string> = {
  'Current user did not login to the application!': 'لم يسجّل المستخدم الحالي الدخول إلى التطبيق!',
  'Required permissions are not granted.': 'الصلاحيات المطلوبة غير ممنوحة.',
  [TEXT.authFailed]: 'فشل التحقق من الهوية',
  [INVALID_LOGIN]: 'اسم المستخدم أو كلمة المرور غير صحيحة',
  [TEXT.genericError]: 'عذرًا! حدث خطأ ما',
  [TEXT.validationError]: 'خطأ في البيانات',
  [TEXT.resetUnknownPhone]: 'عذرًا، لا يوجد مستخدم بهذا الرقم',
  [TEXT.guest.phoneRequired]: 'يرجى إدخال رقم الهاتف',
  [TEXT.guest.nameRequired]: 'يرجى إدخال اسم العميل',
  [TEXT.guest.invalidNumber]: 'يرجى إدخال رقم صحيح',
  [TEXT.guest.invalidPhone]: 'رقم الهاتف غير صالح',
  [TEXT.address.region]: 'المنطقة مطلوبة',
  [TEXT.address.area]: 'المنطقة السكنية مطلوبة',
  [TEXT.address.block]: 'رقم القطعة مطلوب',
  [TEXT.address.street]: 'رقم الشارع مطلوب',
  [TEXT.address.house]: 'رقم المنزل مطلوب',
  // Registration, the SMS code, the profile and the cars of /profile.
  [PHONE_TAKEN]: 'رقم الهاتف هذا مسجّل بالفعل. يرجى تسجيل الدخول.',
  [EMAIL_TAKEN]: 'عنوان البريد الإلكتروني هذا مسجّل بالفعل.',
  [NOT_VALIDATED]: 'يرجى التحقق من رقم هاتفك برمز الرسالة النصية أولًا.',
  [INVALID_EMAIL]: 'يرجى إدخال عنوان بريد إلكتروني صحيح.',
  [CODE_TEXT.expired]: 'انتهت صلاحية رمز التحقق أو سبق استخدامه. يرجى طلب رمز جديد.',
  [CODE_TEXT.wrong]: 'رمز التحقق غير صحيح.',
  [CODE_TEXT.tooManyWrong]: 'محاولات خاطئة كثيرة. يرجى طلب رمز جديد.',
  [CODE_NOT_SENT]: 'تعذّر إرسال الرمز برسالة نصية. يرجى المحاولة بعد بضع دقائق.',
  [SMS_GUARD_TEXT.country]: 'لا يمكن إرسال الرموز برسالة نصية إلى أرقام هذه الدولة.',
  [SMS_GUARD_TEXT.cooldown]: 'أُرسل رمز إلى هذا الرقم للتو. يرجى الانتظار قبل طلب رمز آخر.',
  [SMS_GUARD_TEXT.paused]: 'لا يمكن إرسال الرموز برسالة نصية الآن. يرجى المحاولة لاحقًا.',
  'Please log in to change your details.': 'يرجى تسجيل الدخول لتغيير بياناتك.',
  'Please log in to save a car.': 'يرجى تسجيل الدخول لحفظ سيارة.',
  [CAR_TEXT.brand]: 'يرجى اختيار نوع السيارة.',
  [CAR_TEXT.type]: 'يرجى اختيار فئة السيارة.',
  [CAR_TEXT.color]: 'يرجى اختيار لون السيارة.',
  [CAR_TEXT.plate]: 'يرجى إدخال رقم اللوحة.',
};

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A counted English message as a pattern: the function is called with markers, and what it
 * writes around them must match literally. A function whose arguments cannot be markers (a time)
 * gets a pattern from its text before and after the argument it formats.
 */
function patternOf(write: (...args: never[]) => string, arity: number): RegExp | null {
  const markers = Array.from({ length: arity }, (_, i) => `\u0001${i}\u0002`);
  let probe: string;
  try {
    probe = (write as (...a: unknown[]) => string)(...markers);
  } catch {
    return null;
  }
  let source = escape(probe);
  for (const m of markers) source = source.replace(escape(m), '(.+?)');
  return new RegExp(`^${source}$`, 's');
}

type Texts = Record<string, string | ((...args: never[]) => string)>;
const COUNTED = ([[ORDER_TEXT, ORDER_AR], [ORDER_TIME_TEXT, ORDER_TIME_AR]] as [Texts, Texts][]).flatMap(([texts, arabics]) => Object.keys(texts).map((key) => [key, texts[key], arabics[key]] as const)).flatMap(([key, english, arabic]) => {
  if (typeof english === 'string') {
    FIXED_AR[english] = arabic as string;
    return [];
  }
  const pattern = key === 'soldOutUntil'
    // Its second argument is a Date written as Kuwait time: match that part loosely.
    ? new RegExp(`^(.+?)${escape(' is sold out at this branch until ')}(.+)\\.$`, 's')
    : patternOf(english, english.length);
  return pattern ? [{ pattern, arabic: arabic as (...a: string[]) => string }] : [];
});

/**
 * One message in the asked language; a message without an Arabic version stays as it is. The
 * names a counted message carries are put in Arabic from `names` (English → Arabic) when given.
 */
export function translateServerMessage(message: string, language: LanguageCode, names: Record<string, string> = {}): string {
  if (language !== 'ar') return message;
  const fixed = FIXED_AR[message];
  if (fixed) return fixed;
  for (const { pattern, arabic } of COUNTED) {
    const m = pattern.exec(message);
    if (m) return arabic(...m.slice(1).map((arg) => names[arg] ?? arg));
  }
  return message;
}

/** An error with its message, details and validation messages in the asked language. */
export function translateError(error: ApiError, language: LanguageCode): ApiError {
  if (language !== 'ar') return error;
  const t = (s: string) => s.split('\n').map((line) => translateServerMessage(line, language, error.arabicNames)).join('\n');
  const translated = new ApiError(
    error.status, t(error.message),
    error.validationErrors?.map((v) => ({ ...v, message: t(v.message) })) ?? null,
    error.details === null ? null : t(error.details),
  );
  translated.retryAfterSeconds = error.retryAfterSeconds;
  return translated;
}
