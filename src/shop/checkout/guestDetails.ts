/**
 * The guest's name and phone at checkout, kept in this tab (sessionStorage) so they survive adding
 * a delivery address (the address pages and back) and a reload of /check-out; forgotten once the
 * order is placed, like the guest's address, and when the tab is closed.
 */
const KEY = 'shop.checkoutGuest';

export interface GuestDetails { name: string; phone: string }

export function keptGuest(): GuestDetails | null {
  try {
    const v = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as GuestDetails | null;
    return v && typeof v.name === 'string' && typeof v.phone === 'string' ? v : null;
  } catch {
    return null;
  }
}

export function keepGuest(details: GuestDetails) {
  try {
    if (details.name || details.phone) sessionStorage.setItem(KEY, JSON.stringify(details));
  } catch { /* storage unavailable (private mode): the details are simply not kept */ }
}

export function forgetGuest() {
  try { sessionStorage.removeItem(KEY); } catch { /* nothing kept */ }
}
