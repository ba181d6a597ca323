import type { LanguageCode } from '../../domain/languages';
import { formatMoney } from '../../domain/money';
import { refundCardWords } from '../../domain/refundCard';

/**
 * The customer's inbox notifications about their refund (server/payments/refunds.ts), in the
 * language the brand's messages are written in (brands.default_language). The shop's tracker says
 * the same in the shop's own language (src/i18n: order.refund*).
 */
interface RefundText { orderNumber: string; amount: string; currency: string; method: string }

const KD_AR = 'د.ك';
const amountIn = (language: LanguageCode, amount: string, currency: string) =>
  formatMoney(amount, language === 'ar' && currency === 'KD' ? KD_AR : currency);

const TEXTS: Record<LanguageCode, Record<RefundNotice, (p: RefundText & { amountText: string }) => { title: string; text: string }>> = {
  en: {
    returning: (p) => ({ title: `Refund for order ${p.orderNumber}`, text: `${p.amountText} is being returned to ${refundCardWords(p.method, 'en')}.` }),
    returned: (p) => ({ title: `Refund for order ${p.orderNumber}`, text: `${p.amountText} was returned to ${refundCardWords(p.method, 'en')}.` }),
    owed: (p) => ({ title: `Refund for order ${p.orderNumber}`, text: `${p.amountText} will be returned to you at the branch.` }),
    handedBack: (p) => ({ title: `Refund for order ${p.orderNumber}`, text: `${p.amountText} was returned to you at the branch.` }),
  },
  ar: {
    returning: (p) => ({ title: `استرداد الطلب ${p.orderNumber}`, text: `يجري إرجاع ${p.amountText} إلى ${refundCardWords(p.method, 'ar')}.` }),
    returned: (p) => ({ title: `استرداد الطلب ${p.orderNumber}`, text: `تم إرجاع ${p.amountText} إلى ${refundCardWords(p.method, 'ar')}.` }),
    owed: (p) => ({ title: `استرداد الطلب ${p.orderNumber}`, text: `سيُعاد إليك ${p.amountText} في الفرع.` }),
    handedBack: (p) => ({ title: `استرداد الطلب ${p.orderNumber}`, text: `أُعيد إليك ${p.amountText} في الفرع.` }),
  },
};

/** returning / returned: on the way to the card, and back on it; owed / handedBack: cash at the branch, and handed back. */
export type RefundNotice = 'returning' | 'returned' | 'owed' | 'handedBack';

export const refundNoticeText = (notice: RefundNotice, language: LanguageCode, p: RefundText) =>
  TEXTS[language][notice]({ ...p, amountText: amountIn(language, p.amount, p.currency) });
