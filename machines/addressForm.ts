import { and, assign, fromPromise, setup } from 'xstate';
import { DEFAULT_ADDRESS_COORDS, TEXT } from '../domain/constants';
import { typedDigits } from '../domain/digits';
import { DEFAULT_ADDRESS_FORM, missingAddressFields, type AddressFieldName, type AddressFormField } from '../domain/addressFields';

/**
 * The delivery address form (SPEC.md 2.1 "Address details", 5 "Address form", 8).
 *
 *   loading ──(id 0: new)──▶ editing ◀──(id ≠ 0)── loadAddress
 *   editing = validation ∥ submission            (amplify-ui's authenticator shape)
 *     validation: checking → valid | invalid     (recomputed on every change and blur)
 *     submission: idle ──address.submit──▶ validating ──▶ adding (id 0) | updating (id ≠ 0) ──▶ saved
 *                                              └──(invalid)──▶ idle + 'Validation Error' warning
 *
 * Required fields are checked on blur (a field's message shows once it was left or a submit was
 * tried): region 'Reqion is required', area, block, street and house number. Block takes digits
 * only. Address id 0 means new (addAddress), any other id updates (updateAddress).
 *
 * The brand's address fields (input.fields, domain/addressFields.ts brandAddressForm) decide which
 * optional fields the form shows, in what order, and which of them are required: the same rule
 * (missingAddressFields) the server applies when the address is saved. Without them: today's form.
 *
 * Ports: actors `loadAddress`, `addAddress`, `updateAddress` (they reject with an AddressSaveError);
 * actions `notify` (intent, title, message) and `addressSaved` (the saved address).
 */

/** The fields a customer types; region and area come from the location picker. */
export const TEXT_FIELDS = ['block', 'street', 'house_no', 'buildingNumber', 'floor', 'apartment', 'jadda', 'avenue', 'instructions'] as const;
export type TextField = (typeof TEXT_FIELDS)[number];
/** Always required (SPEC.md 5). */
export const REQUIRED_FIELDS = ['region', 'area', 'block', 'street', 'house_no'] as const;
export type RequiredField = (typeof REQUIRED_FIELDS)[number];
/** A field that can carry a message: the always-required ones and the brand's configurable ones. */
export type CheckedField = RequiredField | AddressFieldName;

export interface AddressValues {
  regionId: number | null;
  region: string;
  areaId: number | null;
  area: string;
  block: string;
  street: string;
  house_no: string;
  buildingNumber: string;
  floor: string;
  apartment: string;
  jadda: string;
  avenue: string;
  instructions: string;
  latitude: number;
  longitude: number;
}

/** A saved address as the server (or the temporary store) answers it. */
export type SavedAddress = AddressValues & { id: number };

export const emptyAddress = (): AddressValues => ({
  regionId: null, region: '', areaId: null, area: '', block: '', street: '', house_no: '',
  buildingNumber: '', floor: '', apartment: '', jadda: '', avenue: '', instructions: '',
  latitude: DEFAULT_ADDRESS_COORDS.latitude, longitude: DEFAULT_ADDRESS_COORDS.longitude,
});

/** What a failed save carries: the server's message, and its field messages when it refused the input. */
export class AddressSaveError extends Error {
  constructor(message: string, readonly isValidation: boolean, readonly fieldErrors: AddressErrors = {}) {
    super(message);
  }
}

export type AddressErrors = Partial<Record<CheckedField, string>>;

/**
 * SPEC.md 5: every required field, in the spec's own words (misspelling included); then the
 * brand's required fields left empty, in the brand's words ('Floor is required').
 */
export function validateAddressValues(v: AddressValues, fields: readonly AddressFormField[] = DEFAULT_ADDRESS_FORM): AddressErrors {
  const errors: AddressErrors = {};
  if (!v.regionId || !v.region.trim()) errors.region = TEXT.address.region;
  if (!v.areaId || !v.area.trim()) errors.area = TEXT.address.area;
  if (!v.block.trim()) errors.block = TEXT.address.block;
  if (!v.street.trim()) errors.street = TEXT.address.street;
  if (!v.house_no.trim()) errors.house_no = TEXT.address.house;
  for (const m of missingAddressFields(fields, v)) errors[m.fieldName] = m.message;
  return errors;
}

/** The block field accepts digits only (typing and pasting are filtered by the view as well). */
/** The digits typed, Arabic-Indic and Persian ones as ASCII (domain/digits.ts). */
export const digitsOnly = (s: string) => typedDigits(s);

export interface AddressFormContext {
  /** 0: a new address. */
  id: number;
  values: AddressValues;
  errors: AddressErrors;
  touched: Partial<Record<CheckedField, boolean>>;
  /** The brand's optional fields, in the form's order (domain/addressFields.ts). */
  fields: readonly AddressFormField[];
  loadError: string | null;
  saved: SavedAddress | null;
  /** input.initial, kept to lay over a loaded address. */
  overlay: Partial<AddressValues>;
}

export interface AddressFormInput {
  id: number;
  /** Values the form starts from (a draft, or the area chosen in the location picker); they win over a loaded address. */
  initial?: Partial<AddressValues>;
  /** The brand's address form (BrandAddressFields/GetAddressFormForShop); left out: today's form. */
  fields?: readonly AddressFormField[];
}

export type AddressFormEvent =
  | { type: 'address.change'; field: TextField; value: string }
  | { type: 'address.blur'; field: CheckedField }
  | { type: 'address.move'; latitude: number; longitude: number }
  | { type: 'address.submit' }
  | { type: 'address.retry' };

type Notice = { intent: 'success' | 'warning' | 'danger'; title: string; message: string };

const withValidation = (values: AddressValues, fields: readonly AddressFormField[]) => ({ values, errors: validateAddressValues(values, fields) });

export const addressFormMachine = setup({
  types: {
    context: {} as AddressFormContext,
    events: {} as AddressFormEvent,
    input: {} as AddressFormInput,
    tags: {} as 'pending',
  },
  actors: {
    loadAddress: fromPromise<SavedAddress, { id: number }>(async () => {
      throw new Error('loadAddress is not bound');
    }),
    addAddress: fromPromise<SavedAddress, { values: AddressValues }>(async () => {
      throw new Error('addAddress is not bound');
    }),
    updateAddress: fromPromise<SavedAddress, { id: number; values: AddressValues }>(async () => {
      throw new Error('updateAddress is not bound');
    }),
  },
  actions: {
    notify: (_, _notice: Notice) => {},
    addressSaved: (_, _address: SavedAddress) => {},
    change: assign(({ context, event }) => {
      if (event.type !== 'address.change') return {};
      const value = event.field === 'block' ? digitsOnly(event.value) : event.value;
      return withValidation({ ...context.values, [event.field]: value }, context.fields);
    }),
    move: assign(({ context, event }) =>
      event.type === 'address.move' ? { values: { ...context.values, latitude: event.latitude, longitude: event.longitude } } : {}),
    touch: assign(({ context, event }) => (event.type === 'address.blur' ? { touched: { ...context.touched, [event.field]: true } } : {})),
    touchAll: assign({ touched: ({ context }) => Object.fromEntries([...REQUIRED_FIELDS, ...context.fields.filter((f) => f.isRequired).map((f) => f.fieldName)].map((f) => [f, true])) }),
    takeServerErrors: assign(({ context, event }) => {
      const error = (event as unknown as { error: unknown }).error;
      return error instanceof AddressSaveError ? { errors: { ...context.errors, ...error.fieldErrors } } : {};
    }),
  },
  guards: {
    isNew: ({ context }) => context.id === 0,
    isValid: ({ context }) => Object.keys(validateAddressValues(context.values, context.fields)).length === 0,
  },
}).createMachine({
  id: 'addressForm',
  context: ({ input }) => ({
    id: input.id,
    fields: input.fields ?? DEFAULT_ADDRESS_FORM,
    ...withValidation({ ...emptyAddress(), ...input.initial }, input.fields ?? DEFAULT_ADDRESS_FORM),
    touched: {},
    loadError: null,
    saved: null,
    overlay: input.initial ?? {},
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['pending'],
      always: { guard: 'isNew', target: 'editing' },
      invoke: {
        src: 'loadAddress',
        input: ({ context }) => ({ id: context.id }),
        onDone: {
          target: 'editing',
          // The loaded address, with what the customer chose meanwhile (e.g. a new area) on top.
          actions: assign(({ context, event }) => {
            const { id: _id, ...loaded } = event.output;
            return withValidation({ ...emptyAddress(), ...loaded, ...context.overlay }, context.fields);
          }),
        },
        onError: { target: 'loadFailed', actions: assign({ loadError: ({ event }) => (event.error as Error)?.message ?? TEXT.genericError }) },
      },
    },
    loadFailed: {
      on: { 'address.retry': { target: 'loading', actions: assign({ loadError: null }) } },
    },
    editing: {
      type: 'parallel',
      on: {
        'address.change': { actions: 'change', target: '.validation.checking' },
        'address.blur': { actions: 'touch', target: '.validation.checking' },
        'address.move': { actions: 'move' },
      },
      states: {
        validation: {
          initial: 'checking',
          states: {
            checking: { always: [{ guard: 'isValid', target: 'valid' }, { target: 'invalid' }] },
            valid: {},
            invalid: {},
          },
        },
        submission: {
          initial: 'idle',
          states: {
            idle: {
              on: { 'address.submit': 'validating' },
            },
            validating: {
              entry: 'touchAll',
              always: [
                { guard: and(['isValid', 'isNew']), target: 'adding' },
                { guard: 'isValid', target: 'updating' },
                { target: 'idle', actions: { type: 'notify', params: { intent: 'warning', title: TEXT.errorTitle, message: TEXT.validationError } } },
              ],
            },
            adding: {
              tags: ['pending'],
              invoke: {
                src: 'addAddress',
                input: ({ context }) => ({ values: context.values }),
                onDone: {
                  target: '#addressForm.saved',
                  actions: [
                    assign({ saved: ({ event }) => event.output }),
                    { type: 'notify', params: { intent: 'success', title: 'Success', message: TEXT.addressAdded } },
                  ],
                },
                onError: { target: 'idle', actions: ['takeServerErrors', { type: 'notify', params: ({ event }) => failureNotice(event.error) }] },
              },
            },
            updating: {
              tags: ['pending'],
              invoke: {
                src: 'updateAddress',
                input: ({ context }) => ({ id: context.id, values: context.values }),
                onDone: {
                  target: '#addressForm.saved',
                  actions: [
                    assign({ saved: ({ event }) => event.output }),
                    { type: 'notify', params: { intent: 'success', title: 'Success', message: TEXT.addressUpdated } },
                  ],
                },
                onError: { target: 'idle', actions: ['takeServerErrors', { type: 'notify', params: ({ event }) => failureNotice(event.error) }] },
              },
            },
          },
        },
      },
    },
    saved: {
      type: 'final',
      entry: { type: 'addressSaved', params: ({ context }) => context.saved! },
    },
  },
});

/** SPEC.md 8: a refused address is the 'Validation Error' warning; anything else shows the server's message. */
function failureNotice(error: unknown): Notice {
  if (error instanceof AddressSaveError && !error.isValidation) return { intent: 'danger', title: TEXT.errorTitle, message: error.message };
  return { intent: 'warning', title: TEXT.errorTitle, message: TEXT.validationError };
}

type Snapshot = {
  context: AddressFormContext;
  hasTag(tag: 'pending'): boolean;
  matches(value: unknown): boolean;
};

/** Selectors: the view reads these, never state paths. */
export const selectValues = (s: Snapshot) => s.context.values;
/** The messages to show: a field's own message once it was left or a submit was tried. */
export const selectVisibleErrors = (s: Snapshot): AddressErrors =>
  Object.fromEntries(Object.entries(s.context.errors).filter(([f]) => s.context.touched[f as CheckedField])) as AddressErrors;
export const selectIsPending = (s: Snapshot) => s.hasTag('pending');
export const selectIsLoading = (s: Snapshot) => s.matches('loading');
export const selectLoadError = (s: Snapshot) => s.context.loadError;
export const selectIsNew = (s: Snapshot) => s.context.id === 0;
export const selectIsValid = (s: Snapshot) => s.matches({ editing: { validation: 'valid' } });
/** The brand's optional fields, in order. */
export const selectFields = (s: Snapshot) => s.context.fields;
