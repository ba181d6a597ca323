import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMachine } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { startServerProcess, type ServerProcess } from '../support/serverProcess';
import { navigateTo, renderApp, resetBrowser } from '../support/renderApp';
import { addressFormMachine } from '../../machines/addressForm';
import { GUEST_USER_ID, TEMP_ADDRESS_ID, TEXT } from '../../domain/constants';

/**
 * The delivery address form as the customer lives it (SPEC.md 2.1, 5, 8, 9): the area from the
 * location picker, required fields checked on blur, the 'Validation Error' warning, id 0 adds and
 * any other id updates, back to checkout when it came from there, and the guest's temporary
 * address (id 10) kept in the browser. Real view, real server. The model's events stand for the
 * outcomes of the machine's validation and its actors (loadAddress, addAddress, updateAddress).
 * The map's pin is dragged in Chromium (tests/e2e/shop-customer.test.ts); jsdom has no canvas.
 */
const modelMachine = createMachine({
  id: 'addressFormModel',
  initial: 'start',
  states: {
    start: { on: { CHOOSE_AREA: 'newForm', CHOOSE_AREA_FROM_CHECKOUT: 'checkoutForm', OPEN_FORM_WITHOUT_AREA: 'formWithoutArea', GUEST_CHOOSES_AREA: 'guestForm' } },
    formWithoutArea: { on: { SUBMIT: 'everythingRequired' } },
    everythingRequired: {},
    newForm: { on: { LEAVE_REQUIRED_EMPTY: 'requiredShown', SUBMIT: 'refused', FILL_VALID: 'filled' } },
    requiredShown: { on: { FILL_VALID: 'filled' } },
    refused: { on: { FILL_VALID: 'filled' } },
    filled: { on: { SUBMIT: 'added' } },
    added: { on: { EDIT: 'editForm' } },
    editForm: { on: { CLEAR_STREET_AND_SUBMIT: 'editRefused', CHANGE_STREET_AND_SUBMIT: 'updated' } },
    editRefused: { on: { CHANGE_STREET_AND_SUBMIT: 'updated' } },
    updated: {},
    checkoutForm: { on: { FILL_VALID_AND_SUBMIT: 'backToCheckout' } },
    backToCheckout: {},
    guestForm: { on: { FILL_VALID_AND_SUBMIT: 'guestAddressKept' } },
    guestAddressKept: {},
  },
});
const model = createTestModel(modelMachine);

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
  return res.body.result as { id: number; region: string; area: string; block: string; street: string; house_no: string; floor: string | null }[];
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

describe('address form (model-based, real view, real server)', () => {
  const paths = model.getShortestPaths();

  it('covers every state of the model', () => {
    const reached = new Set(paths.flatMap((p) => [p.state.value, ...p.steps.map((s) => s.state.value)] as string[]));
    expect([...reached].sort()).toEqual(Object.keys(modelMachine.config.states!).sort());
    expect(Object.keys(addressFormMachine.config.states!)).toEqual(['loading', 'loadFailed', 'editing', 'saved']);
  });

  for (const p of paths) {
    it(p.description, async () => {
      resetBrowser();
      sessionStorage.clear();
      const customer = await newCustomer();
      localStorage.setItem('token', customer.accessToken);
      localStorage.setItem('userId', String(customer.userId));
      const navigations = recordNavigation();
      renderApp(server, '/select-location');
      await screen.findByRole('heading', { name: 'Select your area' });
      let editedId = 0;
      await p.test({
        states: {
          start: () => expect(path()).toBe('/select-location'),
          formWithoutArea: async () => {
            await screen.findByRole('heading', { name: 'Add delivery address' });
            expect(input('Region').value).toBe('');
            expect(fieldMessages()).toEqual([]);
          },
          everythingRequired: async () => {
            await expectToast('warning', TEXT.errorTitle, TEXT.validationError);
            expect(fieldMessages()).toEqual([TEXT.address.region, TEXT.address.area, ...REQUIRED_BELOW_AREA]);
            expect(path()).toBe('/address-details');
          },
          newForm: async () => {
            expect(path()).toBe('/address-details');
            expect(search()).toBe('');
            expect(input('Region').value).toBe('Hawalli');
            expect(input('Area').value).toBe('Salmiya');
            expect(input('Region').readOnly).toBe(true);
            expect(input('Area').readOnly).toBe(true);
            expect(fieldMessages()).toEqual([]);
          },
          requiredShown: () => waitFor(() => expect(fieldMessages()).toEqual(REQUIRED_BELOW_AREA)),
          refused: async () => {
            await expectToast('warning', TEXT.errorTitle, TEXT.validationError);
            expect(fieldMessages()).toEqual(REQUIRED_BELOW_AREA);
            expect(await savedAddresses(customer)).toEqual([]);
          },
          filled: async () => {
            // The block takes digits only.
            expect(input('Block').value).toBe('12');
            await waitFor(() => expect(fieldMessages()).toEqual([]));
          },
          added: async () => {
            await expectToast('success', 'Success', TEXT.addressAdded);
            await waitFor(() => expect(path()).toBe('/profile'));
            const [saved] = await savedAddresses(customer);
            expect(saved).toMatchObject({ region: 'Hawalli', area: 'Salmiya', block: '12', street: 'Baghdad St', house_no: '14', floor: '3' });
            // The pin moved to the chosen area (it used to stay in Kuwait City).
            const tree = await server.api.get('/api/services/app/Country/GetDeliveryAreasTreeByBrandIdForShop', { query: { brandId: 7 } });
            const salmiya = tree.body.result.flatMap((r: any) => r.children).find((a: any) => a.name === 'Salmiya');
            expect([(saved as any).latitude, (saved as any).longitude]).toEqual([salmiya.latitude, salmiya.longitude]);
            editedId = saved.id;
            expect(localStorage.getItem('addressId')).toBe(String(saved.id));
            await within(await screen.findByRole('list', { name: 'Saved addresses' })).findByText('Salmiya, Hawalli');
          },
          editForm: async () => {
            await screen.findByRole('heading', { name: 'Edit delivery address' });
            expect(search()).toBe(`?id=${editedId}`);
            await waitFor(() => expect(input('Street').value).toBe('Baghdad St'));
            expect(input('Area').value).toBe('Salmiya');
          },
          editRefused: async () => {
            await expectToast('warning', TEXT.errorTitle, TEXT.validationError);
            expect(fieldMessages()).toEqual([TEXT.address.street]);
            expect((await savedAddresses(customer))[0].street).toBe('Baghdad St');
          },
          updated: async () => {
            await expectToast('success', 'Success', TEXT.addressUpdated);
            await waitFor(() => expect(path()).toBe('/profile'));
            const list = await savedAddresses(customer);
            expect(list).toHaveLength(1);
            expect(list[0]).toMatchObject({ id: editedId, street: 'Gulf Rd' });
          },
          checkoutForm: async () => {
            expect(path()).toBe('/address-details');
            expect(search()).toBe('?address=user_checkout');
            expect(input('Area').value).toBe('Salmiya');
          },
          backToCheckout: async () => {
            await expectToast('success', 'Success', TEXT.addressAdded);
            // Back to checkout for delivery (which itself sends an empty cart on to /).
            await waitFor(() => expect(navigations.some((n) => n.startsWith('/check-out'))).toBe(true));
            expect(await savedAddresses(customer)).toHaveLength(1);
          },
          guestForm: async () => {
            expect(search()).toBe('?address=guest_checkout');
            expect(input('Area').value).toBe('Salmiya');
          },
          guestAddressKept: async () => {
            await expectToast('success', 'Success', TEXT.addressAdded);
            await waitFor(() => expect(navigations.some((n) => n.startsWith('/check-out'))).toBe(true));
            const kept = JSON.parse(localStorage.getItem('latestAddress')!);
            expect(kept).toMatchObject({ id: TEMP_ADDRESS_ID, temporary: true, area: 'Salmiya', block: '12' });
            expect(localStorage.getItem('addressId')).toBe(String(TEMP_ADDRESS_ID));
          },
        },
        events: {
          CHOOSE_AREA: () => chooseArea(),
          CHOOSE_AREA_FROM_CHECKOUT: () => chooseArea('?address=user_checkout'),
          GUEST_CHOOSES_AREA: async () => {
            // The guest signs in as user 18 (the shared guest account) and comes from checkout.
            cleanup();
            localStorage.setItem('token', await server.api.guestToken());
            localStorage.setItem('userId', String(GUEST_USER_ID));
            renderApp(server, '/select-location?address=guest_checkout');
            await screen.findByRole('link', { name: 'Sign in' });
            await chooseArea();
          },
          OPEN_FORM_WITHOUT_AREA: () => navigateTo('/address-details'),
          LEAVE_REQUIRED_EMPTY: async () => {
            for (const label of ['Block', 'Street', 'House']) {
              const el = input(label);
              fireEvent.focus(el);
              fireEvent.blur(el);
            }
          },
          SUBMIT: submit,
          FILL_VALID: () => fillValid(),
          FILL_VALID_AND_SUBMIT: async () => { await fillValid(); await submit(); },
          EDIT: async () => fireEvent.click(await screen.findByRole('link', { name: /^Edit Salmiya/ })),
          CLEAR_STREET_AND_SUBMIT: async () => {
            await waitFor(() => expect(input('Street').value).not.toBe(''));
            type('Street', '');
            await submit();
          },
          CHANGE_STREET_AND_SUBMIT: async () => {
            await waitFor(() => expect(input('House').value).toBe('14'));
            type('Street', 'Gulf Rd');
            await submit();
          },
        },
      });
    });
  }
});
