import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { fromPromise } from 'xstate';
import { navigate } from 'wouter/use-browser-location';
import { DEFAULT_BRAND_ID, DEFAULT_BRANCH_ID, CURRENCY_CODE } from '../../domain/constants';
import { branchChangeMachine, selectSelection, type BranchSelection, type BrandSummary } from '../../machines/branchChange';
import { cartMachine, selectCartCount, selectCartItems, selectCartTotal, selectIsCartEmpty, type CartItem } from '../../machines/cart';
import { graphql } from '../gql';
import type { ShopBrandsQuery } from '../gql/graphql';
import { errorMessage } from '../lib/errors';
import { useGateway } from '../lib/gateway';
import { storage, KEYS } from '../lib/storage';

export const ShopBrands = graphql(`
  query ShopBrands {
    Brand_GetBrandsForMangoCustomer {
      id name logoUrl currency currencyDecimals
      branches { id brandId name logoUrl openTime closeTime branchAddress branchPhoneNumber isBusy isOpenForOrders opensAt closesAt }
    }
  }
`);

export type Brand = NonNullable<NonNullable<ShopBrandsQuery['Brand_GetBrandsForMangoCustomer']>[number]>;
export type Branch = NonNullable<Brand['branches'][number]>;

/** The shop's chosen brand and branch (SPEC.md 3: brand 7 and branch 1 by default), kept in the browser. */
export type ShopSelection = BranchSelection;

/** The stored choice: the shop's own copy first (login overwrites `branchId`), then the spec's keys. */
export function storedSelection(): ShopSelection {
  const own = storage.getJson<Partial<ShopSelection>>(KEYS.shopSelection, {});
  if (own.brandId && own.branchId) return { brandId: own.brandId, branchId: own.branchId, currency: own.currency || CURRENCY_CODE };
  return {
    brandId: Number(storage.get(KEYS.brandId)) || DEFAULT_BRAND_ID,
    branchId: Number(storage.get(KEYS.branchId)) || DEFAULT_BRANCH_ID,
    currency: storage.get(KEYS.currency) || CURRENCY_CODE,
  };
}

function persistSelection(s: ShopSelection) {
  storage.setJson(KEYS.shopSelection, s);
  storage.set(KEYS.brandId, s.brandId);
  storage.set(KEYS.branchId, s.branchId);
  storage.set(KEYS.currency, s.currency);
}

/** The review screen's notes for the order (SPEC.md 2.1 /product-review). */
export interface OrderNotes { remarks: string; promotionCode: string }
const NO_NOTES: OrderNotes = { remarks: '', promotionCode: '' };

type CartRef = ReturnType<typeof useActorRef<typeof cartMachine>>;
type BranchRef = ReturnType<typeof useActorRef<typeof branchChangeMachine>>;

interface ShopContextValue {
  cart: CartRef;
  branch: BranchRef;
  notes: OrderNotes;
  setNotes(notes: OrderNotes): void;
}

const Ctx = createContext<ShopContextValue | null>(null);

/**
 * Runs the shop's cart and branch change machines for every shop screen and binds their ports:
 * the cart and the choice live in localStorage, brands come from the gateway, and a branch
 * change clears the cart.
 */
export function ShopProvider({ children }: { children: ReactNode }) {
  const gateway = useGateway();
  const cart = useActorRef(
    useMemo(() => cartMachine.provide({ actions: { persist: (_, { items }) => storage.setJson(KEYS.cart, items) } }), []),
    { input: { items: storage.getJson<CartItem[]>(KEYS.cart, []) } },
  );
  const branchMachine = useMemo(() => branchChangeMachine.provide({
    actors: {
      loadBrands: fromPromise(async (): Promise<BrandSummary[]> => {
        try {
          const data = await gateway.query(ShopBrands, {}, { silent: true });
          return (data?.Brand_GetBrandsForMangoCustomer ?? []).filter((b): b is Brand => !!b)
            .map((b) => ({ ...b, branches: b.branches.filter((br): br is Branch => !!br) }));
        } catch (e) {
          throw new Error(errorMessage(e, 'The brands could not be loaded.'));
        }
      }),
    },
    guards: { cartHoldsItems: () => !selectIsCartEmpty(cart.getSnapshot()) },
    actions: {
      persistSelection: (_, s) => persistSelection(s),
      clearCart: () => cart.send({ type: 'cart.clear' }),
      goToProducts: () => { if (window.location.pathname !== '/products') navigate('/products'); },
    },
  }), [gateway, cart]);
  const branch = useActorRef(branchMachine, { input: { selection: storedSelection() } });

  const [notes, setNotesState] = useState<OrderNotes>(() => ({ ...NO_NOTES, ...storage.getJson<Partial<OrderNotes>>(KEYS.orderNotes, {}) }));
  const setNotes = useCallback((next: OrderNotes) => {
    setNotesState(next);
    storage.setJson(KEYS.orderNotes, next);
  }, []);

  const value = useMemo(() => ({ cart, branch, notes, setNotes }), [cart, branch, notes, setNotes]);
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

function useShopContext() {
  const ctx = useContext(Ctx);
  if (!ctx) throw new Error('useShop outside ShopProvider');
  return ctx;
}

/** The chosen brand, branch and currency. */
export function useShop(): ShopSelection {
  return useSelector(useShopContext().branch, selectSelection);
}

export function useBranchChange() {
  return useShopContext().branch;
}

/** The cart as the screens use it. */
export function useCart() {
  const { cart } = useShopContext();
  return {
    send: cart.send,
    items: useSelector(cart, selectCartItems),
    count: useSelector(cart, selectCartCount),
    total: useSelector(cart, selectCartTotal),
    isEmpty: useSelector(cart, selectIsCartEmpty),
  };
}

export function useOrderNotes() {
  const { notes, setNotes } = useShopContext();
  return { notes, setNotes, clearNotes: () => setNotes(NO_NOTES) };
}
