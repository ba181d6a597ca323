import { joinList, t } from '../../i18n';
import '../../i18n/screens';

/** Digits only (Latin, Arabic-Indic or Persian), as a street is often given in Kuwait. */
const NUMBER_ONLY = /^[0-9\u0660-\u0669\u06F0-\u06F9]+$/;

/** A street as the customer reads it: a bare number is 'Street 12' / 'شارع 12'; a name stays as typed. */
export const streetText = (street: string) => {
  const s = street.trim();
  return NUMBER_ONLY.test(s) ? t('addressText.street', { street: s }) : s;
};

/** An address's block, street and house ('Block 3, Street 12, House 7'), as every shop screen shows it. */
export const addressLine = (a: { block: string; street: string; house_no: string }) =>
  t('profile.addressLine', { block: a.block, street: streetText(a.street), house: a.house_no });

/** The area and the address line ('Bayan, Block 3, Street 12, House 7'): checkout's choice of address. */
export const addressLabel = (a: { area: string; block: string; street: string; house_no: string }) => joinList([a.area, addressLine(a)]);
