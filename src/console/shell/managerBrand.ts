import { useSyncExternalStore } from 'react';
import { KEYS, storage } from '../../lib/storage';

/**
 * The brand a brand manager works in (SPEC.md 3: "The brand of a brand-manager user also persists
 * locally"). Chosen in the top bar or on /select_brand, kept in `managerBrandId` (login sets their
 * default brand, logout clears it), and sent as the `brandId` filter of the lists that take one: a
 * filter within the manager's scope, never a widening (the server decides the scope).
 */
const listeners = new Set<() => void>();

export const managerBrand = {
  get: (): number | null => Number(storage.get(KEYS.managerBrandId)) || null,
  choose(brandId: number) {
    storage.set(KEYS.managerBrandId, brandId);
    listeners.forEach((l) => l());
  },
  subscribe(listener: () => void) {
    listeners.add(listener);
    // another tab's choice
    const onStorage = (e: StorageEvent) => { if (e.key === KEYS.managerBrandId) listener(); };
    window.addEventListener('storage', onStorage);
    return () => { listeners.delete(listener); window.removeEventListener('storage', onStorage); };
  },
};

/** The brand manager's chosen brand id, re-rendering on every change. */
export const useManagerBrand = (): number | null => useSyncExternalStore(managerBrand.subscribe, managerBrand.get, () => null);
