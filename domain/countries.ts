/**
 * The countries of the phone input (SPEC.md 5), served by Country/GetCountriesDictionary.
 * Calling codes exactly as SPEC.md lists them (it gives 123 for Afghanistan).
 */
export const COUNTRIES = [
  { id: 1, name: 'Kuwait', isoCode: 'KW', phoneCode: '965', isDefault: true },
  { id: 2, name: 'Lebanon', isoCode: 'LB', phoneCode: '961', isDefault: false },
  { id: 3, name: 'Bahrain', isoCode: 'BH', phoneCode: '973', isDefault: false },
  { id: 4, name: 'Afghanistan', isoCode: 'AF', phoneCode: '123', isDefault: false },
] as const;
