import { CAR_TEXT, CARD_PAYMENT_LABEL, TEXT } from '../../domain/constants';
import { REGISTRATION_TEXT } from '../../machines/registrationText';

/**
 * Arabic for messages that reach the shop as English text: SPEC.md's verbatim messages, which the
 * machines produce (their English stays exactly as SPEC.md writes it), and the machines' own.
 */
export const arMessages: Record<string, string> = {
  [TEXT.guest.phoneRequired]: 'يرجى إدخال رقم الهاتف',
  [TEXT.guest.nameRequired]: 'يرجى إدخال اسم العميل',
  [TEXT.guest.invalidNumber]: 'يرجى إدخال رقم صحيح',
  [TEXT.guest.invalidPhone]: 'رقم الهاتف غير صالح',
  [TEXT.genericError]: 'عذرًا! حدث خطأ ما',
  [TEXT.errorTitle]: 'خطأ',
  [TEXT.authFailed]: 'فشل التحقق من الهوية',
  [TEXT.offline]: 'أنت غير متصل بالإنترنت.',
  [TEXT.transactionSuccess]: 'تمت العملية بنجاح',
  [TEXT.validationError]: 'خطأ في البيانات',
  [TEXT.changeBranchTitle]: 'أنت على وشك تغيير الفرع',
  [TEXT.resetUnknownPhone]: 'عذرًا، لا يوجد مستخدم بهذا الرقم',
  [TEXT.addressAdded]: 'تمت إضافة عنوانك بنجاح',
  [TEXT.addressUpdated]: 'تم تحديث عنوانك بنجاح',
  [TEXT.address.region]: 'المنطقة مطلوبة',
  [TEXT.address.area]: 'المنطقة السكنية مطلوبة',
  [TEXT.address.block]: 'رقم القطعة مطلوب',
  [TEXT.address.street]: 'رقم الشارع مطلوب',
  [TEXT.address.house]: 'رقم المنزل مطلوب',
  'The brands could not be loaded.': 'تعذّر تحميل العلامات التجارية.',
  // The shop's page titles (src/routes.ts).
  Menu: 'القائمة',
  'Select Location': 'اختر الموقع',
  'Address Details': 'تفاصيل العنوان',
  'Branch Details': 'تفاصيل الفرع',
  Product: 'المنتج',
  'Review Order': 'مراجعة الطلب',
  Cart: 'السلة',
  Checkout: 'الدفع',
  'Order Placed': 'تم تقديم الطلب',
  'Track Order': 'تتبّع الطلب',
  'Previous Orders': 'الطلبات السابقة',
  Profile: 'حسابي',
  'Your cars could not be loaded.': 'تعذّر تحميل سياراتك.',
  Registration: 'التسجيل',
  // The sign-in pages' titles (src/routes.ts AUTH_ROUTES).
  Login: 'تسجيل الدخول',
  'Forgot Password': 'نسيت كلمة المرور',
  'Reset Password': 'إعادة تعيين كلمة المرور',
  // A page whose code failed to load (src/common/RouteErrorBoundary.tsx).
  'This page could not be loaded': 'تعذّر تحميل هذه الصفحة',
  'Something went wrong on this page': 'حدث خطأ ما في هذه الصفحة',
  'Please check your connection and try again.': 'يرجى التحقق من اتصالك والمحاولة مرة أخرى.',
  'Please try again. If it happens again, reload the page.': 'يرجى المحاولة مرة أخرى. إذا تكرر ذلك، أعد تحميل الصفحة.',
  Retry: 'إعادة المحاولة',
  // Notifications' titles (src/lib/notify, the machines' notices).
  Success: 'تم بنجاح',
  Warning: 'تنبيه',
  [CARD_PAYMENT_LABEL]: 'فيزا/ماستركارد',
  // The machines' own messages (registration, the profile's car form).
  [REGISTRATION_TEXT.invalidCode]: 'يرجى إدخال الرمز الوارد في الرسالة النصية (أرقام فقط).',
  [REGISTRATION_TEXT.invalidEmail]: 'يرجى إدخال عنوان بريد إلكتروني صحيح.',
  [REGISTRATION_TEXT.shortPassword]: 'يجب أن تتكون كلمة المرور من 6 أحرف على الأقل.',
  [REGISTRATION_TEXT.codeResent]: 'تم إرسال رمز جديد برسالة نصية.',
  [CAR_TEXT.brand]: 'يرجى اختيار الشركة المصنّعة للسيارة.',
  [CAR_TEXT.type]: 'يرجى اختيار فئة السيارة.',
  [CAR_TEXT.color]: 'يرجى اختيار لون السيارة.',
  [CAR_TEXT.plate]: 'يرجى إدخال رقم اللوحة.',
};
