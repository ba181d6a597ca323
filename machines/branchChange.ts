import { assign, fromPromise, setup } from 'xstate';
import { TIMINGS } from '../domain/constants';

/**
 * Picking the brand and branch the shop orders from (SPEC.md 2.1 "Brand and branch picker", 4 "Cart").
 *
 *   loadingBrands ──▶ ready.idle ──branch.pick──▶ ready.navigating ──(1000 ms)──▶ ready.idle  (goToProducts)
 *    (exactly one brand     │  └─(the cart holds items)──▶ ready.confirming
 *     with one branch: it   │        ├─branch.confirm──▶ clear the cart, select ──▶ ready.navigating
 *     is selected at once)  │        └─branch.cancel───▶ ready.idle (nothing changes)
 *
 * A pick of another branch clears the cart (it may hold products the new menu lacks); when the
 * cart holds items, the customer confirms that first in the dialog "You're about to change the
 * branch". Picking the branch already chosen changes nothing and still goes on to /products.
 *
 * Ports, bound by whoever runs the machine: actor `loadBrands`; guard `cartHoldsItems`; actions
 * `persistSelection` (brand, branch and the brand's currency), `clearCart` and `goToProducts`.
 */

export interface BranchSelection { brandId: number; branchId: number; currency: string }
/** The Branch and Brand of SPEC.md 3, as the picker shows them. */
export interface BranchSummary {
  id: number;
  name: string;
  logoUrl?: string | null;
  openTime?: string;
  closeTime?: string;
  branchAddress?: string;
  branchPhoneNumber?: string;
  isBusy?: boolean;
  /** Online ordering as the server enforces it (domain/schedule.ts): open now, and when that changes (ISO times). */
  isOpenForOrders?: boolean;
  opensAt?: string | null;
  closesAt?: string | null;
}
export interface BrandSummary { id: number; name: string; logoUrl?: string | null; currency: string; branches: BranchSummary[] }

export interface BranchChangeContext {
  selection: BranchSelection;
  brands: BrandSummary[];
  /** The pick waiting for the customer's confirmation. */
  pending: BranchSelection | null;
  error: string | null;
}

export type BranchChangeEvent =
  | { type: 'branch.pick'; brandId: number; branchId: number; currency: string }
  | { type: 'branch.confirm' }
  | { type: 'branch.cancel' }
  | { type: 'brands.reload' };

export interface BranchChangeInput { selection: BranchSelection }

type Pick = Extract<BranchChangeEvent, { type: 'branch.pick' }>;
const selectionOf = (e: Pick): BranchSelection => ({ brandId: e.brandId, branchId: e.branchId, currency: e.currency });

/** The one branch of the only brand, when that is all there is. */
export function onlyBranch(brands: BrandSummary[]): BranchSelection | null {
  if (brands.length !== 1 || brands[0].branches.length !== 1) return null;
  return { brandId: brands[0].id, branchId: brands[0].branches[0].id, currency: brands[0].currency };
}

/**
 * The selection once the brands are known: the only branch when there is just one; else the
 * stored one if that branch still belongs to that brand; else the first branch of the stored
 * brand, or of the first brand. No brands (not loaded): unchanged.
 */
export function settledSelection(current: BranchSelection, brands: BrandSummary[]): BranchSelection {
  const only = onlyBranch(brands);
  if (only) return only;
  if (!brands.length) return current;
  const brand = brands.find((b) => b.id === current.brandId && b.branches.length) ?? brands.find((b) => b.branches.length);
  if (!brand) return current;
  const branch = brand.branches.find((b) => b.id === current.branchId) ?? brand.branches[0];
  return { brandId: brand.id, branchId: branch.id, currency: brand.currency };
}
const sameSelection = (a: BranchSelection, b: BranchSelection) => a.brandId === b.brandId && a.branchId === b.branchId && a.currency === b.currency;

export const branchChangeMachine = setup({
  types: {
    context: {} as BranchChangeContext,
    events: {} as BranchChangeEvent,
    input: {} as BranchChangeInput,
    tags: {} as 'pending',
  },
  actors: {
    loadBrands: fromPromise<BrandSummary[]>(async () => {
      throw new Error('loadBrands is not bound');
    }),
  },
  actions: {
    persistSelection: (_, _params: BranchSelection) => {},
    clearCart: () => {},
    goToProducts: () => {},
    select: assign((_, params: BranchSelection) => ({ selection: params, pending: null })),
  },
  guards: {
    /** Bound by the app: whether the cart holds any item (they all belong to the current branch). */
    cartHoldsItems: () => false,
    isCurrentBranch: ({ context, event }) => event.type === 'branch.pick' && event.branchId === context.selection.branchId,
    branchMoves: (_, p: { current: BranchSelection; brands: BrandSummary[] }) => settledSelection(p.current, p.brands).branchId !== p.current.branchId,
    selectionMoves: (_, p: { current: BranchSelection; brands: BrandSummary[] }) => !sameSelection(p.current, settledSelection(p.current, p.brands)),
  },
  delays: {
    branchPickNavigate: TIMINGS.branchPickNavigateMs,
  },
}).createMachine({
  id: 'branchChange',
  context: ({ input }) => ({ selection: input.selection, brands: [], pending: null, error: null }),
  initial: 'loadingBrands',
  states: {
    loadingBrands: {
      tags: ['pending'],
      invoke: {
        src: 'loadBrands',
        onDone: [
          {
            // Exactly one brand with one branch: it is selected automatically. A stored branch that
            // no longer exists, or not in the stored brand, is replaced, and its cart goes with it.
            guard: { type: 'branchMoves', params: ({ context, event }) => ({ current: context.selection, brands: event.output }) },
            target: 'ready',
            actions: [
              assign({ brands: ({ event }) => event.output, error: null }),
              'clearCart',
              { type: 'select', params: ({ context }) => settledSelection(context.selection, context.brands) },
              { type: 'persistSelection', params: ({ context }) => context.selection },
            ],
          },
          {
            // Same branch, fresher details (the brand's currency).
            guard: { type: 'selectionMoves', params: ({ context, event }) => ({ current: context.selection, brands: event.output }) },
            target: 'ready',
            actions: [
              assign({ brands: ({ event }) => event.output, error: null }),
              { type: 'select', params: ({ context }) => settledSelection(context.selection, context.brands) },
              { type: 'persistSelection', params: ({ context }) => context.selection },
            ],
          },
          { target: 'ready', actions: assign({ brands: ({ event }) => event.output, error: null }) },
        ],
        onError: { target: 'ready', actions: assign({ error: ({ event }) => (event.error as Error)?.message ?? 'The brands could not be loaded.' }) },
      },
    },
    ready: {
      initial: 'idle',
      on: {
        'brands.reload': { target: 'loadingBrands' },
        'branch.pick': [
          // The branch already chosen: nothing changes, go on to its products.
          { guard: 'isCurrentBranch', target: '.navigating', reenter: true, actions: { type: 'persistSelection', params: ({ context }) => context.selection } },
          { guard: 'cartHoldsItems', target: '.confirming', actions: assign({ pending: ({ event }) => selectionOf(event) }) },
          {
            target: '.navigating',
            reenter: true,
            actions: [
              'clearCart',
              { type: 'select', params: ({ event }) => selectionOf(event) },
              { type: 'persistSelection', params: ({ context }) => context.selection },
            ],
          },
        ],
      },
      states: {
        idle: {},
        confirming: {
          on: {
            'branch.confirm': {
              target: 'navigating',
              actions: [
                'clearCart',
                { type: 'select', params: ({ context }) => context.pending! },
                { type: 'persistSelection', params: ({ context }) => context.selection },
              ],
            },
            'branch.cancel': { target: 'idle', actions: assign({ pending: null }) },
          },
        },
        navigating: {
          after: { branchPickNavigate: { target: 'idle', actions: 'goToProducts' } },
        },
      },
    },
  },
});

type Snapshot = { context: BranchChangeContext; hasTag(t: 'pending'): boolean; matches(v: { ready: 'confirming' }): boolean };

/** Selectors: views read these, never state paths. */
export const selectSelection = (s: Snapshot) => s.context.selection;
export const selectBrands = (s: Snapshot) => s.context.brands;
export const selectBrandsPending = (s: Snapshot) => s.hasTag('pending');
export const selectBrandsError = (s: Snapshot) => s.context.error;
/** The dialog "You're about to change the branch" is open. */
export const selectIsConfirming = (s: Snapshot) => s.matches({ ready: 'confirming' });
export const selectPendingPick = (s: Snapshot) => s.context.pending;
