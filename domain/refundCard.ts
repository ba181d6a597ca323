import type { LanguageCode } from './languages';

/**
 * Where a refund goes, in the customer's words: "your KNET card", "your Tap card", "your card".
 * A payment method's name carries its gateway in brackets ("KNET (MyFatoorah)") and sometimes the
 * word card ("Tap Card", "Card (Tap)"); the customer knows the card, not the gateway. One rule
 * for the shop's tracker and the server's inbox notices (issue 21).
 */
export function refundCardWords(methodName: string, language: LanguageCode): string {
  // An order paid from the wallet (payment method 8, 'Wallet' / 'المحفظة') is given back to the wallet.
  if (methodName === 'Wallet' || methodName === 'المحفظة') return language === 'ar' ? 'محفظتك' : 'your wallet';
  const bare = methodName.replace(/\s*\([^)]*\)\s*/g, ' ').trim();
  if (language === 'ar') {
    const brand = bare.replace(/^بطاقة\s*/, '').trim();
    return brand ? `بطاقة ${brand}` : 'بطاقتك';
  }
  const brand = bare.replace(/\s*\bcard\b\s*/i, ' ').trim();
  return brand ? `your ${brand} card` : 'your card';
}
