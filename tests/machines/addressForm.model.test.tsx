import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assign, type SnapshotFrom } from 'xstate';
import { describeModel, type ModelPath } from '../support/describeModel';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { startServerProcess, type ServerProcess } from '../support/serverProcess';
import { navigateTo, renderApp, resetBrowser } from '../support/renderApp';
import { addressFormMachine, emptyAddress, REQUIRED_FIELDS, selectVisibleErrors, validateAddressValues } from '../../machines/addressForm';
import { brandAddressForm } from '../../domain/addressFields';
import { GUEST_USER_ID, TEMP_ADDRESS_ID, TEXT } from '../../domain/constants';

/**
 * The delivery address form as the customer lives it (SPEC.md 2.1, 5, 8, 9), generated from the
 * real address form machine (machines/addressForm.ts) for a new address whose area was chosen in
 * the location picker: required fields checked on blur, the 'Validation Error' warning, the block
 * taking digits only, and the save (id 0 adds). Each machine event is a real action in the real
 * view against a real server; each state checks the messages the view shows against the ones the
 * machine's selectors give, and what the server holds. The fields are filled in their order on the
 * form, which keeps the graph small. Editing, the way back to checkout and the guest's temporary
 * address (id 10) are walked below as plain journeys. The map's pin is dragged in Chromium
 * (tests/e2e/shop-customer.test.ts); jsdom has no canvas.
 */
type Form = SnapshotFrom<typeof addressFormMachine>;
const FILL: Record<'block' | 'street' | 'house_no', string> = { block: '1a2', street: 'Baghdad St', house_no: '14' };
const ORDER = ['block', 'street', 'house_no'] as const;
const LABEL = { block: 'Block', street: 'Street', house_no: 'House' } as const;
const FIELD_MESSAGES = ['region', 'area', 'block', 'street', 'house_no'] as const;
const SAVED = { id: 1, ...emptyAddress(), region: 'Hawalli', area: 'Salmiya', block: '12', street: 'Baghdad St', house_no: '14' };
const addressModel = {
  machine: addressFormMachine,
  input: { id: 0, initial: { region: 'Hawalli', regionId: 1, area: 'Salmiya', areaId: 1 } },
  // The next empty field is filled; a blur leaves the first field; the save.
  events: (s: Form) => {
    const next = ORDER.find((f) => !s.context.values[f]);
    return [
      ...(next ? [{ type: 'address.change', field: next, value: FILL[next] }] : []),
      { type: 'address.blur', field: 'block' },
    ];
  },
  answers: { addAddress: { done: [SAVED] } },
  filterEvents: (_: Form, e: { type: string }) => !['address.move', 'address.retry'].includes(e.type),
  serialize: (s: Form) => [s.value, Object.keys(s.context.errors).sort(), Object.keys(selectVisibleErrors(s)).sort()],
  mustVisit: ['addressForm.editing.validation.valid', 'addressForm.editing.validation.invalid', 'addressForm.editing.submission.idle', 'addressForm.saved'],
};

let server: ServerProcess;
beforeAll(async () => { server = await startServerProcess(); });
afterAll(async () => { cleanup(); await server?.close(); });

/** A fresh customer per path (registered through the API), so lists start empty. */
async function newCustomer() {
  const phoneNumber = `+9656${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
  const call = (name: string, body: unknown) => server.api.post(`/api/services/app/Customer/${name}`, { body });
  await call('RegistrateNewUnregisteredUser', { phoneNumber });
  const [code] = await server.smsCodes(phoneNumber, 'register');
  await call('ValidateNewUnregisteredUser', { phoneNumber, validationCode: Number(code) });
  const res = await call('RegistrateUserFromMobileAppByPhone', { phoneNumber, fullName: 'Address Model', password: 'secret-123' });
  return res.body.result as { accessToken: string; userId: number };
}

async function savedAddresses(s: { accessToken: string; userId: number }) {
  const res = await server.api.get('/api/services/app/CustomerDeliveryAddress/GetCustomerDeliveryAddressListByUserId', { token: s.accessToken, query: { userId: s.userId } });
  return res.body.result as { id: number; region: string; area: string; block: string; street: string; house_no: string; floor: string | null; buildingNumber: string | null }[];
}

const path = () => window.location.pathname;
const search = () => window.location.search;
const input = (label: string) => screen.getByLabelText(label, { exact: false, selector: 'input,textarea' }) as HTMLInputElement;
const fieldMessages = () => [...document.querySelectorAll('.acct-field__error')].map((e) => e.textContent);
const toasts = () => [...document.querySelectorAll('.shop-toast')].map((t) => ({
  intent: t.className.replace(/.*shop-toast--/, ''), title: t.querySelector('strong')?.textContent, message: t.querySelector('span')?.textContent,
}));
const REQUIRED_BELOW_AREA = [TEXT.address.block, TEXT.address.street, TEXT.address.house];

async function expectToast(intent: string, title: string, message: string) {
  await waitFor(() => expect(toasts()).toContainEqual({ intent, title, message }));
}

/** Every path the app navigated to, in order (wouter goes through the history API). */
function recordNavigation() {
  const seen: string[] = [];
  for (const method of ['pushState', 'replaceState'] as const) {
    const original = window.history[method].bind(window.history);
    window.history[method] = (data: unknown, unused: string, url?: string | URL | null) => {
      if (url) seen.push(new URL(String(url), window.location.href).pathname + new URL(String(url), window.location.href).search);
      original(data, unused, url);
    };
  }
  return seen;
}

async function chooseArea(query?: string) {
  if (query !== undefined) navigateTo(`/select-location${query}`);
  fireEvent.click(await screen.findByRole('button', { name: 'Hawalli' }));
  fireEvent.click(await screen.findByRole('button', { name: /^Salmiya/ }));
  fireEvent.click(await screen.findByRole('button', { name: 'Done' }));
  await screen.findByRole('button', { name: 'Save address' });
}

function type(label: string, value: string) {
  const el = input(label);
  fireEvent.focus(el);
  fireEvent.change(el, { target: { value } });
  fireEvent.blur(el);
}

async function fillValid(street = 'Baghdad St') {
  await screen.findByRole('button', { name: 'Save address' });
  type('Block', '1a2');
  type('Street', street);
  type('House', '14');
  type('Floor', '3');
  type('Jadda', '4');
  type('Additional info', 'Blue door');
}

const submit = async () => fireEvent.click(await screen.findByRole('button', { name: 'Save address' }));

interface Walk { customer: Awaited<ReturnType<typeof newCustomer>> }
/** A fresh customer (registered through the API, so lists start empty) on the location picker. */
async function onLocationPicker(): Promise<Walk> {
  resetBrowser();
  sessionStorage.clear();
  const customer = await newCustomer();
  localStorage.setItem('token', customer.accessToken);
  localStorage.setItem('userId', String(customer.userId));
  renderApp(server, '/select-location');
  await screen.findByRole('heading', { name: 'Select your area' });
  return { customer };
}
async function openNewForm(): Promise<Walk> {
  const walk = await onLocationPicker();
  await chooseArea();
  return walk;
}
/** The messages the form shows, in its order, for the errors the machine shows (selectVisibleErrors). */
const messagesOf = (s: Form) => { const v = selectVisibleErrors(s); return FIELD_MESSAGES.flatMap((f) => (v[f] ? [v[f]] : [])); };

describeModel('address form (model-based on the real machine, real view, real server)', {
  ...addressModel,
  minPaths: 4,
  start: openNewForm,
  // Each walk unmounts its view, so nothing it started outlives it (tests/support/leakWatch.ts); a walk
  // that failed half-way first lets the requests it left in flight come back.
  stop: async (_: unknown, walk: { failed: boolean }) => { if (walk.failed) await new Promise((r) => setTimeout(r, 2000)); cleanup(); },
  steps: {
    'address.change': (_: Walk, step: { event: { field?: unknown; value?: unknown } }) => {
      const field = step.event.field as keyof typeof LABEL;
      type(LABEL[field], String(step.event.value));
    },
    'address.blur': () => {
      const el = input('Block');
      fireEvent.focus(el);
      fireEvent.blur(el);
    },
    'address.submit': async (w: Walk, step: { state: Form }) => {
      await submit();
      // A refused save: the warning, and nothing saved.
      if (step.state.matches({ editing: { submission: 'idle' } })) {
        await expectToast('warning', TEXT.errorTitle, TEXT.validationError);
        expect(await savedAddresses(w.customer)).toEqual([]);
      }
    },
    'addAddress.done': () => {},
  },
  states: {
    editing: async (_: Walk, model: Form) => {
      expect(path()).toBe('/address-details');
      expect(search()).toBe('');
      expect(input('Region').value).toBe('Hawalli');
      expect(input('Area').value).toBe('Salmiya');
      expect(input('Region').readOnly).toBe(true);
      expect(input('Area').readOnly).toBe(true);
      // The block takes digits only.
      expect(input('Block').value).toBe(model.context.values.block);
      await waitFor(() => expect(fieldMessages()).toEqual(messagesOf(model)));
    },
    saved: async (w: Walk) => {
      await expectToast('success', 'Success', TEXT.addressAdded);
      await waitFor(() => expect(path()).toBe('/profile'));
      const [saved] = await savedAddresses(w.customer);
      expect(saved).toMatchObject({ region: 'Hawalli', area: 'Salmiya', block: '12', street: 'Baghdad St', house_no: '14' });
      // The pin moved to the chosen area (it used to stay in Kuwait City).
      const tree = await server.api.get('/api/services/app/Country/GetDeliveryAreasTreeByBrandIdForShop', { query: { brandId: 7 } });
      const salmiya = tree.body.result.flatMap((r: any) => r.children).find((a: any) => a.name === 'Salmiya');
      expect([(saved as any).latitude, (saved as any).longitude]).toEqual([salmiya.latitude, salmiya.longitude]);
      expect(localStorage.getItem('addressId')).toBe(String(saved.id));
      await within(await screen.findByRole('list', { name: 'Saved addresses' })).findByText('Salmiya, Hawalli');
    },
  },
  broken: [{
    // A machine that shows every rule at once, before the customer has left a field: the view waits for the blur.
    name: 'a machine that does not wait for a field to be left',
    spec: { machine: addressFormMachine.provide({ actions: { touch: assign({ touched: () => Object.fromEntries(REQUIRED_FIELDS.map((f) => [f, true])) }) } }) },
    pick: (p: ModelPath) => p.steps.some((s) => s.event.type === 'address.blur'),
    failsWith: /expected/,
  }],
} as never);

describe('address form: the journeys around the form', () => {
  it('a saved address is edited: a cleared street is refused, a changed one saved', async () => {
    const { customer } = await openNewForm();
    await fillValid();
    await submit();
    await waitFor(() => expect(path()).toBe('/profile'));
    const [saved] = await savedAddresses(customer);
    fireEvent.click(await screen.findByRole('link', { name: /^Edit Salmiya/ }));
    await screen.findByRole('heading', { name: 'Edit delivery address' });
    expect(search()).toBe(`?id=${saved.id}`);
    await waitFor(() => expect(input('Street').value).toBe('Baghdad St'));
    expect(input('Area').value).toBe('Salmiya');
    type('Street', '');
    await submit();
    await expectToast('warning', TEXT.errorTitle, TEXT.validationError);
    expect(fieldMessages()).toEqual([TEXT.address.street]);
    expect((await savedAddresses(customer))[0].street).toBe('Baghdad St');
    type('Street', 'Gulf Rd');
    await submit();
    await expectToast('success', 'Success', TEXT.addressUpdated);
    await waitFor(() => expect(path()).toBe('/profile'));
    const list = await savedAddresses(customer);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ id: saved.id, street: 'Gulf Rd' });
  });

  it('opened without an area, everything is required', async () => {
    const { customer } = await onLocationPicker();
    navigateTo('/address-details');
    await screen.findByRole('heading', { name: 'Add delivery address' });
    expect(input('Region').value).toBe('');
    expect(fieldMessages()).toEqual([]);
    await submit();
    await expectToast('warning', TEXT.errorTitle, TEXT.validationError);
    expect(fieldMessages()).toEqual([TEXT.address.region, TEXT.address.area, ...REQUIRED_BELOW_AREA]);
    expect(await savedAddresses(customer)).toEqual([]);
  });

  it('from checkout, the saved address leads back to checkout', async () => {
    const { customer } = await onLocationPicker();
    const navigations = recordNavigation();
    await chooseArea('?address=user_checkout');
    expect(search()).toBe('?address=user_checkout');
    await fillValid();
    await submit();
    await expectToast('success', 'Success', TEXT.addressAdded);
    // Back to checkout for delivery (which itself sends an empty cart on to /).
    await waitFor(() => expect(navigations.some((n) => n.startsWith('/check-out'))).toBe(true));
    expect(await savedAddresses(customer)).toHaveLength(1);
  });

  it('the guest\'s address is kept in the browser (id 10)', async () => {
    resetBrowser();
    sessionStorage.clear();
    const navigations = recordNavigation();
    // The guest signs in as user 18 (the shared guest account) and comes from checkout.
    localStorage.setItem('token', await server.api.guestToken());
    localStorage.setItem('userId', String(GUEST_USER_ID));
    renderApp(server, '/select-location?address=guest_checkout');
    await screen.findByRole('link', { name: 'Sign in' });
    await chooseArea();
    expect(search()).toBe('?address=guest_checkout');
    await fillValid();
    await submit();
    await expectToast('success', 'Success', TEXT.addressAdded);
    await waitFor(() => expect(navigations.some((n) => n.startsWith('/check-out'))).toBe(true));
    expect(JSON.parse(localStorage.getItem('latestAddress')!)).toMatchObject({ id: TEMP_ADDRESS_ID, temporary: true, area: 'Salmiya', block: '12' });
    expect(localStorage.getItem('addressId')).toBe(String(TEMP_ADDRESS_ID));
  });
});

/**
 * The brand's address fields shape the form (issue 23): brand 8 asks a required 'Building / tower'
 * first and hides the jadda. The walk is the same real machine, given the brand's form as the page
 * gives it (BrandAddressFields/GetAddressFormForShop); the view must ask the brand's field, in the
 * brand's order, refuse the save while it is empty, and save it.
 */
const BRAND = 8;
const BRAND_ROWS = [
  { fieldName: 'buildingNumber', label: 'Building / tower', isRequired: true, isVisible: true, sortOrder: 0 },
  { fieldName: 'jadda', label: 'Jadda', isRequired: false, isVisible: false, sortOrder: 5 },
];
const BRAND_FORM = brandAddressForm(BRAND_ROWS);
const BRAND_ORDER = ['block', 'street', 'house_no', 'buildingNumber'] as const;
const BRAND_FILL = { ...FILL, buildingNumber: 'Tower 2' };
const BRAND_LABEL = { ...LABEL, buildingNumber: 'Building / tower' };
const BRAND_MESSAGES = [...FIELD_MESSAGES, 'buildingNumber'] as const;
const brandMessagesOf = (s: Form) => { const v = selectVisibleErrors(s); return BRAND_MESSAGES.flatMap((f) => (v[f] ? [v[f]] : [])); };
const fieldLabels = () => [...document.querySelectorAll('.address-form__grid .acct-field > span:not(.acct-field__error)')].map((e) => e.textContent?.replace(/\s*\*$/, ''));

describe("address form: the brand's address fields", () => {
  beforeAll(async () => {
    const res = await server.api.post('/api/TokenAuth/Authenticate', { body: { userNameOrEmailAddress: 'admin', password: '123qwe' } });
    for (const row of BRAND_ROWS) {
      const created = await server.api.post('/api/services/app/BrandAddressFields/Create', { token: res.body.result.accessToken, body: { brandId: BRAND, ...row } });
      expect(created.status).toBe(200);
    }
  });

  describeModel('brand 8 requires a building (model-based on the real machine, real view, real server)', {
    ...addressModel,
    input: { ...addressModel.input, fields: BRAND_FORM },
    events: (s: Form) => {
      const next = BRAND_ORDER.find((f) => !s.context.values[f]);
      return [
        ...(next ? [{ type: 'address.change', field: next, value: BRAND_FILL[next] }] : []),
        { type: 'address.blur', field: 'buildingNumber' },
      ];
    },
    minPaths: 4,
    start: async () => {
      resetBrowser();
      sessionStorage.clear();
      const customer = await newCustomer();
      localStorage.setItem('token', customer.accessToken);
      localStorage.setItem('userId', String(customer.userId));
      localStorage.setItem('shopSelection', JSON.stringify({ brandId: BRAND, branchId: 2, currency: 'KD' }));
      renderApp(server, '/select-location');
      await screen.findByRole('heading', { name: 'Select your area' });
      await chooseArea();
      return { customer };
    },
    stop: async (_: unknown, walk: { failed: boolean }) => { if (walk.failed) await new Promise((r) => setTimeout(r, 2000)); cleanup(); },
    steps: {
      'address.change': (_: Walk, step: { event: { field?: unknown; value?: unknown } }) => {
        type(BRAND_LABEL[step.event.field as keyof typeof BRAND_LABEL], String(step.event.value));
      },
      'address.blur': () => {
        const el = input('Building / tower');
        fireEvent.focus(el);
        fireEvent.blur(el);
      },
      'address.submit': async (w: Walk, step: { state: Form }) => {
        await submit();
        if (step.state.matches({ editing: { submission: 'idle' } })) {
          await expectToast('warning', TEXT.errorTitle, TEXT.validationError);
          expect(await savedAddresses(w.customer)).toEqual([]);
        }
      },
      'addAddress.done': () => {},
    },
    states: {
      editing: async (_: Walk, model: Form) => {
        expect(path()).toBe('/address-details');
        // The brand's order: its building first, floor and additional info; its jadda hidden.
        expect(fieldLabels()).toEqual(['Block', 'Street', 'House', 'Building / tower', 'Floor', 'Additional info']);
        expect(input('Building / tower').required).toBe(true);
        expect(input('Floor').required).toBe(false);
        await waitFor(() => expect(fieldMessages()).toEqual(brandMessagesOf(model)));
      },
      saved: async (w: Walk) => {
        await expectToast('success', 'Success', TEXT.addressAdded);
        await waitFor(() => expect(path()).toBe('/profile'));
        const [saved] = await savedAddresses(w.customer);
        expect(saved).toMatchObject({ area: 'Salmiya', block: '12', street: 'Baghdad St', house_no: '14', buildingNumber: 'Tower 2' });
      },
    },
    broken: [{
      // A machine that ignores the brand's fields (the form before issue 23): it would save without the building.
      name: "a machine that ignores the brand's required field",
      spec: { machine: addressFormMachine.provide({ guards: { isValid: ({ context }) => Object.keys(validateAddressValues(context.values)).length === 0 } }) },
      pick: (p: ModelPath) => p.steps.some((s) => s.event.type.startsWith('xstate.done.actor')),
      failsWith: /expected|Unable|Timed out/,
    }],
  } as never);
});
