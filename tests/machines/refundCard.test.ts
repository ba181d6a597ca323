import { describe, expect, it } from 'vitest';
import { refundCardWords } from '../../domain/refundCard';

/** Issue 21: the customer reads "your KNET card", never "your KNET (MyFatoorah) card" or "your Card card". */
describe('refundCardWords', () => {
  it.each([
    ['KNET', 'your KNET card', 'بطاقة كي نت', 'كي نت'],
    ['KNET (MyFatoorah)', 'your KNET card', 'بطاقة كي نت', 'كي نت (ماي فاتورة)'],
    ['Tap Card', 'your Tap card', 'بطاقة تاب', 'بطاقة تاب'],
    ['Card (MyFatoorah)', 'your card', 'بطاقتك', 'بطاقة (ماي فاتورة)'],
    ['Card (Tap)', 'your card', 'بطاقتك', 'بطاقة (تاب)'],
  ])('%s → %s', (en, enWords, arWords, ar) => {
    expect(refundCardWords(en, 'en')).toBe(enWords);
    expect(refundCardWords(ar, 'ar')).toBe(arWords);
  });
});
