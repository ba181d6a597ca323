/** Kuwait's governorates and the areas the demo brands deliver to, with centre points and a delivery fee (KD). */
export const KUWAIT_AREAS: { name: string; lat: number; lon: number; fee: string; areas: { name: string; lat: number; lon: number }[] }[] = [
  { name: 'Capital', lat: 29.3697, lon: 47.9783, fee: '0.500', areas: [
    { name: 'Kuwait City', lat: 29.3759, lon: 47.9774 }, { name: 'Sharq', lat: 29.3850, lon: 47.9950 },
    { name: 'Dasman', lat: 29.3910, lon: 48.0020 }, { name: 'Shuwaikh', lat: 29.3490, lon: 47.9380 },
    { name: 'Dasma', lat: 29.3650, lon: 48.0010 }, { name: 'Kaifan', lat: 29.3390, lon: 47.9530 },
    { name: 'Rawda', lat: 29.3290, lon: 47.9930 }, { name: 'Surra', lat: 29.3120, lon: 48.0000 },
  ] },
  { name: 'Hawalli', lat: 29.3330, lon: 48.0290, fee: '0.500', areas: [
    { name: 'Hawalli', lat: 29.3380, lon: 48.0290 }, { name: 'Salmiya', lat: 29.3339, lon: 48.0763 },
    { name: 'Jabriya', lat: 29.3219, lon: 48.0305 }, { name: 'Rumaithiya', lat: 29.3130, lon: 48.0750 },
    { name: 'Bayan', lat: 29.3030, lon: 48.0480 }, { name: 'Mishref', lat: 29.2750, lon: 48.0580 },
    { name: 'Salwa', lat: 29.2930, lon: 48.0780 },
  ] },
  { name: 'Farwaniya', lat: 29.2775, lon: 47.9588, fee: '0.750', areas: [
    { name: 'Farwaniya', lat: 29.2775, lon: 47.9588 }, { name: 'Khaitan', lat: 29.2870, lon: 47.9780 },
    { name: 'Jleeb Al-Shuyoukh', lat: 29.2600, lon: 47.9400 }, { name: 'Ardiya', lat: 29.2930, lon: 47.9100 },
    { name: 'Abdullah Al-Mubarak', lat: 29.2370, lon: 47.9000 },
  ] },
  { name: 'Mubarak Al-Kabeer', lat: 29.1870, lon: 48.0900, fee: '1.000', areas: [
    { name: 'Mubarak Al-Kabeer', lat: 29.1870, lon: 48.0600 }, { name: 'Qurain', lat: 29.2000, lon: 48.0800 },
    { name: 'Adan', lat: 29.2250, lon: 48.0600 }, { name: 'Messila', lat: 29.2550, lon: 48.0950 },
  ] },
  { name: 'Ahmadi', lat: 29.0769, lon: 48.0839, fee: '1.250', areas: [
    { name: 'Ahmadi', lat: 29.0769, lon: 48.0839 }, { name: 'Fintas', lat: 29.1740, lon: 48.1200 },
    { name: 'Mangaf', lat: 29.0960, lon: 48.1310 }, { name: 'Fahaheel', lat: 29.0820, lon: 48.1300 },
    { name: 'Abu Halifa', lat: 29.1280, lon: 48.1200 },
  ] },
  { name: 'Jahra', lat: 29.3375, lon: 47.6581, fee: '1.500', areas: [
    { name: 'Jahra', lat: 29.3375, lon: 47.6581 }, { name: 'Saad Al Abdullah', lat: 29.3150, lon: 47.6900 },
    { name: 'Qasr', lat: 29.3500, lon: 47.6900 },
  ] },
];
