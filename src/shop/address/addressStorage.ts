import { KEYS, storage } from '../../lib/storage';
import type { AddressValues, SavedAddress } from '../../../machines/addressForm';

/**
 * Where the shop keeps addresses in the browser (SPEC.md 3 "latest address, address id"; 9 "an
 * unauthenticated customer's temporary address gets id 10"). See docs/decisions.md "Delivery
 * addresses in the shop".
 *
 * - latestAddress / addressId (localStorage): the address last saved or chosen, which checkout
 *   offers for delivery. A guest's (or a visitor's) address is never stored on the server: it is
 *   kept here as the temporary address, id TEMP_ADDRESS_ID, with `temporary: true`, and sent with
 *   the order as customerDeliveryAddress.
 * - the draft (sessionStorage): the area picked on /select-location and anything typed on
 *   /address-details, for the address being added (id 0) or edited (its id), until it is saved.
 */

export type StoredAddress = SavedAddress & { temporary?: boolean };

export function rememberAddress(address: SavedAddress, temporary: boolean) {
  storage.setJson(KEYS.latestAddress, { ...address, temporary: temporary || undefined });
  storage.set(KEYS.addressId, address.id);
}

export function latestAddress(): StoredAddress | null {
  const a = storage.getJson<StoredAddress | null>(KEYS.latestAddress, null);
  return a && typeof a.id === 'number' ? a : null;
}

/** Forgets the stored address (after a guest's order, or when that address was deleted). */
export function forgetAddress(id?: number) {
  const current = latestAddress();
  if (id === undefined || current?.id === id) storage.remove(KEYS.latestAddress, KEYS.addressId);
}

/** The address fields of an order request (SPEC.md 3): a saved address by id, or the temporary one inline. */
export function deliveryAddressForOrder(): { deliveryAddressId: number | null; customerDeliveryAddress: AddressValues | null } {
  const a = latestAddress();
  if (!a) return { deliveryAddressId: null, customerDeliveryAddress: null };
  if (a.temporary) {
    const { id: _id, temporary: _t, ...fields } = a;
    return { deliveryAddressId: null, customerDeliveryAddress: fields };
  }
  return { deliveryAddressId: a.id, customerDeliveryAddress: null };
}

const DRAFT_KEY = 'addressDraft';
interface Draft { forId: number; values: Partial<AddressValues> }

function readDraft(): Draft | null {
  try {
    const raw = sessionStorage.getItem(DRAFT_KEY);
    return raw ? (JSON.parse(raw) as Draft) : null;
  } catch {
    return null;
  }
}

/** The draft of the address `forId` (0: new), if there is one. */
export function draftFor(forId: number): Partial<AddressValues> | undefined {
  const d = readDraft();
  return d && d.forId === forId ? d.values : undefined;
}

/** Adds values to the draft of `forId`, starting a new draft when it was for another address. */
export function updateDraft(forId: number, values: Partial<AddressValues>) {
  const current = draftFor(forId) ?? {};
  try {
    sessionStorage.setItem(DRAFT_KEY, JSON.stringify({ forId, values: { ...current, ...values } }));
  } catch { /* storage blocked: the picked area is lost, the form asks for it again */ }
}

export function clearDraft() {
  try { sessionStorage.removeItem(DRAFT_KEY); } catch { /* nothing kept */ }
}
