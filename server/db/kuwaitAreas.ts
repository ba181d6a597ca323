/** Kuwait's governorates and the areas the demo brands deliver to, with their Arabic names, centre points and a delivery fee (KD). */
export const KUWAIT_AREAS: { name: string; nameAr: string; lat: number; lon: number; fee: string; areas: { name: string; nameAr: string; lat: number; lon: number }[] }[] = [
  { name: 'Capital', nameAr: 'العاصمة', lat: 29.3697, lon: 47.9783, fee: '0.500', areas: [
    { name: 'Kuwait City', nameAr: 'مدينة الكويت', lat: 29.3759, lon: 47.9774 }, { name: 'Sharq', nameAr: 'شرق', lat: 29.3850, lon: 47.9950 },
    { name: 'Dasman', nameAr: 'دسمان', lat: 29.3910, lon: 48.0020 }, { name: 'Shuwaikh', nameAr: 'الشويخ', lat: 29.3490, lon: 47.9380 },
    { name: 'Dasma', nameAr: 'الدسمة', lat: 29.3650, lon: 48.0010 }, { name: 'Kaifan', nameAr: 'كيفان', lat: 29.3390, lon: 47.9530 },
    { name: 'Rawda', nameAr: 'الروضة', lat: 29.3290, lon: 47.9930 }, { name: 'Surra', nameAr: 'السرة', lat: 29.3120, lon: 48.0000 },
  ] },
  { name: 'Hawalli', nameAr: 'حولي', lat: 29.3330, lon: 48.0290, fee: '0.500', areas: [
    { name: 'Hawalli', nameAr: 'حولي', lat: 29.3380, lon: 48.0290 }, { name: 'Salmiya', nameAr: 'السالمية', lat: 29.3339, lon: 48.0763 },
    { name: 'Jabriya', nameAr: 'الجابرية', lat: 29.3219, lon: 48.0305 }, { name: 'Rumaithiya', nameAr: 'الرميثية', lat: 29.3130, lon: 48.0750 },
    { name: 'Bayan', nameAr: 'بيان', lat: 29.3030, lon: 48.0480 }, { name: 'Mishref', nameAr: 'مشرف', lat: 29.2750, lon: 48.0580 },
    { name: 'Salwa', nameAr: 'سلوى', lat: 29.2930, lon: 48.0780 },
  ] },
  { name: 'Farwaniya', nameAr: 'الفروانية', lat: 29.2775, lon: 47.9588, fee: '0.750', areas: [
    { name: 'Farwaniya', nameAr: 'الفروانية', lat: 29.2775, lon: 47.9588 }, { name: 'Khaitan', nameAr: 'خيطان', lat: 29.2870, lon: 47.9780 },
    { name: 'Jleeb Al-Shuyoukh', nameAr: 'جليب الشيوخ', lat: 29.2600, lon: 47.9400 }, { name: 'Ardiya', nameAr: 'العارضية', lat: 29.2930, lon: 47.9100 },
    { name: 'Abdullah Al-Mubarak', nameAr: 'عبدالله المبارك', lat: 29.2370, lon: 47.9000 },
  ] },
  { name: 'Mubarak Al-Kabeer', nameAr: 'مبارك الكبير', lat: 29.1870, lon: 48.0900, fee: '1.000', areas: [
    { name: 'Mubarak Al-Kabeer', nameAr: 'مبارك الكبير', lat: 29.1870, lon: 48.0600 }, { name: 'Qurain', nameAr: 'القرين', lat: 29.2000, lon: 48.0800 },
    { name: 'Adan', nameAr: 'العدان', lat: 29.2250, lon: 48.0600 }, { name: 'Messila', nameAr: 'المسيلة', lat: 29.2550, lon: 48.0950 },
  ] },
  { name: 'Ahmadi', nameAr: 'الأحمدي', lat: 29.0769, lon: 48.0839, fee: '1.250', areas: [
    { name: 'Ahmadi', nameAr: 'الأحمدي', lat: 29.0769, lon: 48.0839 }, { name: 'Fintas', nameAr: 'الفنطاس', lat: 29.1740, lon: 48.1200 },
    { name: 'Mangaf', nameAr: 'المنقف', lat: 29.0960, lon: 48.1310 }, { name: 'Fahaheel', nameAr: 'الفحيحيل', lat: 29.0820, lon: 48.1300 },
    { name: 'Abu Halifa', nameAr: 'أبو حليفة', lat: 29.1280, lon: 48.1200 },
  ] },
  { name: 'Jahra', nameAr: 'الجهراء', lat: 29.3375, lon: 47.6581, fee: '1.500', areas: [
    { name: 'Jahra', nameAr: 'الجهراء', lat: 29.3375, lon: 47.6581 }, { name: 'Saad Al Abdullah', nameAr: 'سعد العبدالله', lat: 29.3150, lon: 47.6900 },
    { name: 'Qasr', nameAr: 'القصر', lat: 29.3500, lon: 47.6900 },
  ] },
];
