import { assign, fromPromise, setup } from 'xstate';
import { arabicNameError } from '../domain/arabicName';
import { moneyDecimal } from '../domain/money';
import { emptyGroup, groupError, groupInput, priceError, toDraft, type GroupDraft } from './groupDrafts';

/**
 * The product form of /store (src/console/menu/ProductForm.tsx): load, edit, check, save.
 *
 *   loading ──(new product)──▶ editing ◀──(product loaded)── loading ──(failed)──▶ loadFailed
 *   editing ──product.save (problems)──▶ editing, tried: the first problem shows
 *   editing ──product.save (none)──▶ saving ──▶ saved (final; `saved` action) | editing + the server's message
 *   editing ──product.image (a saved product)──▶ changingImage ──▶ editing (the image is set or removed at once)
 *
 * The plain fields are the console's config of the product's declaration
 * (src/console/menu/productConfig.ts): each is typed as text and read back by its kind, so a field
 * added there is loaded, checked and saved here without a change.
 *
 * Ports: actors `loadProduct` (the product as the form reads it), `saveProduct` (create or
 * update; rejects with the server's message), `changeImage` (a saved product's image set or
 * removed; answers its request); action `saved` (the name saved).
 */

/**
 * How a plain field is typed and read back: text as typed, text trimmed, an Arabic name (trimmed,
 * domain/arabicName.ts), a price in KD (3 decimals), a whole number from `min` to `max` (empty: none).
 * `required`: the message when it is left empty.
 */
export interface PlainField {
  name: string;
  label: string;
  kind: 'text' | 'trimmed' | 'arabicName' | 'money' | 'integer';
  required?: string;
  min?: number;
  max?: number;
}

export const IMAGE_FIELDS = ['productImage', 'productSecondImage', 'productThirdImage'] as const;

export interface ProductDraft {
  values: Record<string, string>;
  subtypeId: number;
  images: (string | null)[];
  groups: GroupDraft[];
  additionGroupIds: number[];
}

/** The product as the form reads it (the gateway's MenuProductForm). */
export type LoadedProduct = Record<string, unknown> & {
  subtypeId: number; optionGroups?: (Parameters<typeof toDraft>[0] | null)[] | null; additionGroupIds?: (number | null)[] | null;
};

const typed = (f: PlainField, v: unknown) => (v === null || v === undefined ? '' : f.kind === 'money' ? moneyDecimal(v as number) : String(v));
const read = (f: PlainField, v: string) => {
  if (f.kind === 'money') return Number(v);
  if (f.kind === 'integer') return v.trim() === '' ? null : Number(v.trim());
  return f.kind === 'text' ? v : v.trim();
};
/** A field's problem in words; null when it can be sent. */
export function fieldError(f: PlainField, v: string): string | null {
  if (f.required && !v.trim()) return f.required;
  if (f.kind === 'arabicName') return arabicNameError(v);
  if (f.kind === 'money') return priceError(v);
  if (f.kind === 'integer' && v.trim() !== '') {
    const n = Number(v.trim());
    const [min, max] = [f.min ?? 0, f.max ?? Number.MAX_SAFE_INTEGER];
    if (!/^\d+$/.test(v.trim()) || n < min || n > max) return `${f.label}: a whole number from ${min} to ${max}, or empty.`;
  }
  return null;
}

export const emptyDraft = (fields: readonly PlainField[], subtypeId: number): ProductDraft => ({
  values: Object.fromEntries(fields.map((f) => [f.name, ''])), subtypeId, images: [null, null, null], groups: [], additionGroupIds: [],
});
export const draftOf = (fields: readonly PlainField[], p: LoadedProduct): ProductDraft => ({
  values: Object.fromEntries(fields.map((f) => [f.name, typed(f, p[f.name])])),
  subtypeId: p.subtypeId, images: IMAGE_FIELDS.map((f) => (p[f] as string | null | undefined) ?? null),
  groups: (p.optionGroups ?? []).filter((g): g is NonNullable<typeof g> => !!g).map((g) => toDraft({ ...g, subItems: g.subItems ?? [] })),
  additionGroupIds: (p.additionGroupIds ?? []).filter((x): x is number => x != null),
});
/** Every problem of the draft, the fields' in their order, then the groups'. */
export const problemsOf = (fields: readonly PlainField[], d: ProductDraft) => [
  ...fields.map((f) => fieldError(f, d.values[f.name] ?? '')),
  ...d.groups.map(groupError),
].filter((x): x is string => !!x);
/** The body of CreateProducts / UpdateProduct (a new product's images go with it). */
export const inputOf = (fields: readonly PlainField[], d: ProductDraft, isNew: boolean) => ({
  ...Object.fromEntries(fields.map((f) => [f.name, read(f, d.values[f.name] ?? '')])),
  subtypeId: d.subtypeId, optionGroups: d.groups.map(groupInput), additionGroupIds: d.additionGroupIds,
  ...(isNew && Object.fromEntries(IMAGE_FIELDS.map((f, i) => [f, d.images[i]]))),
});

export interface ProductFormInput { productId: number | null; subtypeId: number; fields: readonly PlainField[] }
export interface ProductFormContext extends ProductFormInput {
  draft: ProductDraft | null;
  /** The saved product's name as loaded (the form's title). */
  savedName: string | null;
  tried: boolean;
  /** The server's last refusal, or why the product could not be loaded. */
  error: string | null;
  tab: 'details' | 'history';
}
export type ProductFormEvent =
  | { type: 'product.edit'; patch: Partial<ProductDraft> }
  | { type: 'product.value'; name: string; value: string }
  | { type: 'product.touch' }
  | { type: 'product.addGroup' }
  | { type: 'product.image'; slot: number; url: string | null }
  | { type: 'product.save' }
  | { type: 'product.tab'; tab: 'details' | 'history' };
export interface SaveRequest { productId: number | null; input: Record<string, unknown> }
export interface ImageRequest { productId: number; slot: number; url: string | null }

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));
type Ctx = { context: ProductFormContext };
type On<T extends ProductFormEvent['type']> = Ctx & { event: Extract<ProductFormEvent, { type: T }> };
const patched = (context: ProductFormContext, patch: (d: ProductDraft) => Partial<ProductDraft>) => context.draft && { ...context.draft, ...patch(context.draft) };

const formSetup = setup({
  types: {} as { context: ProductFormContext; events: ProductFormEvent; input: ProductFormInput },
  actors: {
    loadProduct: fromPromise<LoadedProduct, { productId: number }>(async () => { throw new Error('loadProduct is not provided'); }),
    saveProduct: fromPromise<{ name: string }, SaveRequest>(async () => { throw new Error('saveProduct is not provided'); }),
    changeImage: fromPromise<ImageRequest, ImageRequest>(async () => { throw new Error('changeImage is not provided'); }),
  },
  actions: {
    saved: (_, _params: { name: string }) => {},
  },
  guards: {
    isNew: ({ context }) => context.productId === null,
    hasProblems: ({ context }) => !context.draft || problemsOf(context.fields, context.draft).length > 0,
    savedProduct: ({ context }) => context.productId !== null,
  },
});

/** What the user changes in the draft: a plain field, anything else of it, that a field was left, a new option group. */
const EDITS = {
  'product.value': { actions: formSetup.assign({ draft: ({ context, event }) => patched(context, (d) => ({ values: { ...d.values, [(event as On<'product.value'>['event']).name]: (event as On<'product.value'>['event']).value } })) }) },
  'product.edit': { actions: formSetup.assign({ draft: ({ context, event }) => patched(context, () => (event as On<'product.edit'>['event']).patch) }) },
  // Leaving the price once typed shows its problem (and the others'), as a save would.
  'product.touch': { actions: formSetup.assign({ tried: true }) },
  'product.addGroup': { actions: formSetup.assign({ draft: ({ context }: Ctx) => patched(context, (d) => ({ groups: [...d.groups, emptyGroup()] })) }) },
} as const;

export const productFormMachine = formSetup.createMachine({
  id: 'productForm',
  context: ({ input }) => ({ ...input, draft: input.productId === null ? emptyDraft(input.fields, input.subtypeId) : null, savedName: null, tried: false, error: null, tab: 'details' }),
  on: { 'product.tab': { actions: assign({ tab: ({ event }) => event.tab }) } },
  initial: 'loading',
  states: {
    loading: {
      always: { guard: 'isNew', target: 'editing' },
      invoke: {
        src: 'loadProduct',
        input: ({ context }) => ({ productId: context.productId! }),
        onDone: { target: 'editing', actions: assign({ draft: ({ context, event }) => draftOf(context.fields, event.output), savedName: ({ event }) => String(event.output.name) }) },
        onError: { target: 'loadFailed', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
      },
    },
    loadFailed: {},
    editing: {
      on: {
        ...EDITS,
        'product.image': [
          { guard: 'savedProduct', target: 'changingImage' },
          { actions: assign({ draft: ({ context, event }) => context.draft && { ...context.draft, images: context.draft.images.map((u, i) => (i === event.slot ? event.url : u)) } }) },
        ],
        'product.save': [
          { guard: 'hasProblems', actions: assign({ tried: true }) },
          { target: 'saving', actions: assign({ tried: true, error: null }) },
        ],
      },
    },
    // Typing goes on while an image is set or removed.
    changingImage: {
      on: EDITS,
      invoke: {
        src: 'changeImage',
        input: ({ context, event }) => {
          const e = event as Extract<ProductFormEvent, { type: 'product.image' }>;
          return { productId: context.productId!, slot: e.slot, url: e.url };
        },
        onDone: {
          target: 'editing',
          actions: assign({ draft: ({ context, event }) => context.draft && { ...context.draft, images: context.draft.images.map((u, i) => (i === event.output.slot ? event.output.url : u)) } }),
        },
        onError: { target: 'editing', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
      },
    },
    saving: {
      invoke: {
        src: 'saveProduct',
        input: ({ context }) => ({ productId: context.productId, input: inputOf(context.fields, context.draft!, context.productId === null) }),
        onDone: { target: 'saved', actions: { type: 'saved', params: ({ event }) => ({ name: event.output.name }) } },
        onError: { target: 'editing', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
      },
    },
    saved: { type: 'final' },
  },
});
