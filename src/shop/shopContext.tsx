import { createContext, useContext, useState, type ReactNode } from 'react';
import { DEFAULT_BRAND_ID, DEFAULT_BRANCH_ID, CURRENCY_CODE } from '../../domain/constants';
import { storage, KEYS } from '../lib/storage';

/** The shop's chosen brand and branch (SPEC.md 3: brand 7 and branch 1 by default), kept in the browser. */
export interface ShopSelection { brandId: number; branchId: number; currency: string }

interface ShopContextValue extends ShopSelection {
  select(selection: ShopSelection): void;
}

const Ctx = createContext<ShopContextValue | null>(null);

export function ShopProvider({ children }: { children: ReactNode }) {
  const [selection, setSelection] = useState<ShopSelection>(() => ({
    brandId: Number(storage.get(KEYS.brandId)) || DEFAULT_BRAND_ID,
    branchId: Number(storage.get(KEYS.branchId)) || DEFAULT_BRANCH_ID,
    currency: storage.get(KEYS.currency) || CURRENCY_CODE,
  }));
  const select = (next: ShopSelection) => {
    storage.set(KEYS.brandId, next.brandId);
    storage.set(KEYS.branchId, next.branchId);
    storage.set(KEYS.currency, next.currency);
    setSelection(next);
  };
  return <Ctx.Provider value={{ ...selection, select }}>{children}</Ctx.Provider>;
}

export function useShop() {
  const ctx = useContext(Ctx);
  if (!ctx) throw new Error('useShop outside ShopProvider');
  return ctx;
}
