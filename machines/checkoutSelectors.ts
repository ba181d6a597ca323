import { canTakeFreeItem, canUseWallet, rewardsView } from './checkoutRewards';
import { guestNameError, guestPhoneError } from './checkoutRequest';
import type { CheckoutContext, CheckoutEvent } from './checkoutTypes';

// The checkout machine's selectors (machines/checkout.ts re-exports them): views read these, never state paths.

type Snapshot = { context: CheckoutContext; hasTag(t: 'pending'): boolean; can(e: CheckoutEvent): boolean; matches(v: 'loadFailed' | 'editing' | 'leftForLocation'): boolean };

/** The submit button's enabled state: exactly what the guard `canSubmit` allows now. */
export const selectCanSubmit = (s: Snapshot) => s.can({ type: 'checkout.submit' });
export const selectIsPending = (s: Snapshot) => s.hasTag('pending');
export const selectMode = (s: Snapshot) => s.context.mode;
export const selectPaymentMethods = (s: Snapshot) => s.context.paymentMethods;
export const selectPaymentMethodId = (s: Snapshot) => s.context.paymentMethodId;
export const selectGuest = (s: Snapshot) => ({
  isGuest: s.context.isGuest,
  name: s.context.guestName,
  phone: s.context.guestPhone,
  nameError: s.context.touched.name ? guestNameError(s.context.guestName) : null,
  phoneError: s.context.touched.phone ? guestPhoneError(s.context.guestPhone) : null,
});
export const selectAddresses = (s: Snapshot) => s.context.addresses;
export const selectAddressId = (s: Snapshot) => s.context.addressId;
export const selectCar = (s: Snapshot) => ({ carId: s.context.carId, carDetails: s.context.carDetails });
export const selectError = (s: Snapshot) => s.context.error;
/** The free-item choice: the balance, the cart lines (indexes) one of which may be taken free, and the chosen one. */
export const selectFreeItem = (s: Snapshot) => ({
  balance: s.context.freeItems,
  lines: s.context.lines.flatMap((_, i) => (canTakeFreeItem(s.context, i) ? [i] : [])),
  chosen: s.context.freeItemLine,
});
/** Points: the balance, what the chosen lines spend, and each line that may be paid with them. */
export const selectRewards = (s: Snapshot) => rewardsView(s.context);
export const selectSoldOut = (s: Snapshot) => s.context.soldOut;
export const selectLoadFailed = (s: Snapshot) => s.matches('loadFailed');
export const selectIsEditing = (s: Snapshot) => s.matches('editing');
/** Sent to the location picker: the page shown again at /check-out sends `checkout.returned`. */
export const selectLeftForLocation = (s: Snapshot) => s.matches('leftForLocation');
/** The wallet: its balance, whether it may pay (a registered customer holding some), and whether it pays. */
export const selectWallet = (s: Snapshot) => ({ balance: s.context.walletBalance, offered: canUseWallet(s.context), chosen: s.context.payWithWallet });
/** When the order is for, and the next free time the server offered after a full one (ISO), if any. */
export const selectWhen = (s: Snapshot) => s.context.when;
export const selectNextTime = (s: Snapshot) => s.context.nextTime;
