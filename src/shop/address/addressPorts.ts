import { fromPromise } from 'xstate';
import type { ApolloClient } from '@apollo/client';
import { TEMP_ADDRESS_ID } from '../../../domain/constants';
import { apiErrorOf, errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { t } from '../../i18n';
import '../../i18n/screens';
import { AddAddress, CustomerAddresses, UpdateAddress } from './graphql';
import { latestAddress } from './addressStorage';
import {
  addressFormMachine, AddressSaveError, emptyAddress,
  type AddressErrors, type AddressValues, type CheckedField, type SavedAddress,
} from '../../../machines/addressForm';
import { ADDRESS_FIELD_NAMES } from '../../../domain/addressFields';

/** Who is saving: a signed-in customer (server list), the guest (server validates, nothing stored), or nobody. */
export type AddressOwner = { kind: 'customer'; userId: number } | { kind: 'guest' } | { kind: 'visitor' };

type ServerAddress = {
  id: number; regionId: number; region: string; areaId: number; area: string; block: string; street: string; house_no: string;
  buildingNumber?: string | null; floor?: string | null; apartment?: string | null; jadda?: string | null; avenue?: string | null;
  instructions?: string | null; latitude: number; longitude: number;
};

export const fromServer = (a: ServerAddress): SavedAddress => ({
  ...emptyAddress(),
  id: a.id, regionId: a.regionId, region: a.region, areaId: a.areaId, area: a.area, block: a.block, street: a.street,
  house_no: a.house_no, buildingNumber: a.buildingNumber ?? '', floor: a.floor ?? '', apartment: a.apartment ?? '',
  jadda: a.jadda ?? '', avenue: a.avenue ?? '', instructions: a.instructions ?? '',
  latitude: a.latitude, longitude: a.longitude,
});

/** The address as the server takes it, with the shop's brand, whose address fields it is checked against. */
const toInput = (v: AddressValues, brandId: number) => ({
  brandId, regionId: v.regionId, region: v.region, areaId: v.areaId, area: v.area, block: v.block.trim(), street: v.street.trim(),
  house_no: v.house_no.trim(), ...Object.fromEntries(ADDRESS_FIELD_NAMES.map((f) => [f, v[f].trim() || null])),
  latitude: v.latitude, longitude: v.longitude,
});

const FIELD_OF_MEMBER: Record<string, CheckedField> = {
  regionId: 'region', region: 'region', areaId: 'area', area: 'area', block: 'block', street: 'street', house_no: 'house_no',
  ...Object.fromEntries(ADDRESS_FIELD_NAMES.map((f) => [f, f])),
};

/** A failed call as the form machine expects it: refused input keeps its field messages. */
function saveError(e: unknown): AddressSaveError {
  const abp = apiErrorOf(e)?.abp;
  if (abp?.validationErrors?.length) {
    const fieldErrors: AddressErrors = {};
    for (const v of abp.validationErrors) for (const m of v.members) if (FIELD_OF_MEMBER[m]) fieldErrors[FIELD_OF_MEMBER[m]] ??= v.message;
    return new AddressSaveError(abp.message, true, fieldErrors);
  }
  return new AddressSaveError(errorMessage(e), false);
}

const call = <O, I>(fn: (input: I) => Promise<O>) => fromPromise<O, I>(async ({ input }) => {
  try {
    return await fn(input);
  } catch (e) {
    throw e instanceof AddressSaveError ? e : saveError(e);
  }
});

/**
 * The guest's temporary address as the server checked it, named as the picker showed its area and
 * region: the server's answer for a guest names them in English, and the kept address would then
 * read 'Bayan' in the Arabic shop where the picker said 'بيان'.
 */
const guestAddress = (checked: SavedAddress, values: AddressValues): SavedAddress =>
  ({ ...checked, id: TEMP_ADDRESS_ID, region: values.region || checked.region, area: values.area || checked.area });

/** Binds the address form's ports for this owner and the shop's brand; `onSaved` runs after the success notice. */
export function provideAddressForm(client: ApolloClient, owner: AddressOwner, brandId: number, onSaved: (a: SavedAddress, temporary: boolean) => void) {
  const serverAdd = async (values: AddressValues, userId?: number) => {
    const res = await client.mutate({ mutation: AddAddress, variables: { input: { ...toInput(values, brandId), id: 0, userId } }, context: { silent: true } });
    const a = res.data?.CustomerDeliveryAddress_AddCustomerDeliveryAddress;
    if (!a) throw new AddressSaveError(errorMessage(null), false);
    return fromServer(a);
  };
  const temporary = (values: AddressValues): SavedAddress => ({ ...values, id: TEMP_ADDRESS_ID });
  return addressFormMachine.provide({
    actors: {
      loadAddress: fromPromise(async ({ input }) => {
        if (owner.kind === 'customer') {
          const res = await client.query({ query: CustomerAddresses, variables: { userId: owner.userId }, fetchPolicy: 'network-only', context: { silent: true } })
            .catch((e) => { throw new Error(errorMessage(e)); });
          const found = res.data?.CustomerDeliveryAddress_GetCustomerDeliveryAddressListByUserId?.find((a) => a?.id === input.id);
          if (!found) throw new Error(t('errors.addressGone'));
          return fromServer(found);
        }
        // A guest or a visitor edits only the temporary address kept in this browser.
        const kept = latestAddress();
        if (!kept?.temporary || kept.id !== input.id) throw new Error(t('errors.addressGone'));
        return kept;
      }),
      addAddress: call(async ({ values }: { values: AddressValues }) => {
        if (owner.kind === 'customer') return serverAdd(values, owner.userId);
        // The guest's address is checked by the server, which keeps nothing and answers id 10.
        if (owner.kind === 'guest') return guestAddress(await serverAdd(values), values);
        return temporary(values);
      }),
      updateAddress: call(async ({ id, values }: { id: number; values: AddressValues }) => {
        if (owner.kind === 'customer') {
          const res = await client.mutate({ mutation: UpdateAddress, variables: { input: { ...toInput(values, brandId), id, userId: owner.userId } }, context: { silent: true } });
          const a = res.data?.CustomerDeliveryAddress_UpdateCustomerDeliveryAddress;
          if (!a) throw new AddressSaveError(errorMessage(null), false);
          return fromServer(a);
        }
        if (owner.kind === 'guest') return guestAddress(await serverAdd(values), values);
        return temporary(values);
      }),
    },
    actions: {
      notify: (_, n) => { notify(n.intent, n.title, n.message); },
      addressSaved: (_, a) => onSaved(a, owner.kind !== 'customer'),
    },
  });
}
