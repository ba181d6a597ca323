import { Type, type Static } from 'typebox';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { brandAddressFields, customerAddresses, deliveryAreas } from '../../db/schema';
import { badRequest, Obj, type ValidationError } from '../../http/envelope';
import { Nullable } from '../../http/nullable';
import { DEFAULT_ADDRESS_COORDS, TEXT } from '../../../domain/constants';
import type { LanguageCode } from '../../../domain/languages';
import { localizedColumn } from '../../http/language';
import { brandAddressForm, missingAddressFields, type AddressFormField } from '../../../domain/addressFields';

const Text = (maxLength = 200) => Type.Optional(Nullable(Type.String({ maxLength })));
const Id = () => Type.Optional(Nullable(Type.Integer()));
const Coord = () => Type.Optional(Nullable(Type.Number()));

/**
 * The address form (SPEC.md 3 and 5). Every field is optional in the schema so that a missing
 * required field gets the spec's own message (TEXT.address) rather than a generic schema error.
 * region and area are names shown by the form; the ids decide.
 */
export const CustomerDeliveryAddressInput = Obj('CustomerDeliveryAddressInput', {
  id: Id(),
  userId: Id(),
  /** The shop's brand: its address fields (BrandAddressFields) decide which optional fields are required. Left out: none. */
  brandId: Id(),
  regionId: Id(),
  areaId: Id(),
  region: Text(),
  area: Text(),
  block: Text(20),
  street: Text(),
  house_no: Text(50),
  buildingNumber: Text(50),
  floor: Text(20),
  jadda: Text(),
  avenue: Text(),
  pasci: Text(50),
  apartment: Text(50),
  city: Text(),
  state: Text(),
  country: Text(),
  instructions: Text(500),
  latitude: Coord(),
  longitude: Coord(),
});
export type AddressInput = Static<typeof CustomerDeliveryAddressInput>;

/** The fields of a stored address, as the shop and an order's snapshot both show it. */
export const addressFields = {
  regionId: Type.Integer(),
  region: Type.String(),
  areaId: Type.Integer(),
  area: Type.String(),
  block: Type.String(),
  street: Type.String(),
  house_no: Type.String(),
  buildingNumber: Type.Union([Type.String(), Type.Null()]),
  floor: Type.Union([Type.String(), Type.Null()]),
  jadda: Type.Union([Type.String(), Type.Null()]),
  avenue: Type.Union([Type.String(), Type.Null()]),
  apartment: Type.Union([Type.String(), Type.Null()]),
  instructions: Type.Union([Type.String(), Type.Null()]),
  latitude: Type.Number(),
  longitude: Type.Number(),
};

export const CustomerDeliveryAddress = Obj('CustomerDeliveryAddress', {
  id: Type.Integer(),
  userId: Type.Integer(),
  ...addressFields,
});
export type AddressDto = Static<typeof CustomerDeliveryAddress>;

/** Not in SPEC.md (the form only lets digits in); a server-side message for the same rule. */
export const BLOCK_DIGITS_ONLY = 'Block Number must contain digits only';

const clean = (s: string | null | undefined) => {
  const t = s?.trim();
  return t ? t : null;
};

/** An address as stored: customer_addresses columns without the owner and id. */
export type ValidAddress = Omit<typeof customerAddresses.$inferInsert, 'id' | 'userId' | 'createdAt'> & { region: string; area: string };

/** The optional fields a brand's address form asks, in order (domain/addressFields.ts); an unknown brand or none: the form's own. */
export async function brandAddressFormOf(db: Db, brandId: number | null | undefined): Promise<AddressFormField[]> {
  const rows = brandId ? await db.select().from(brandAddressFields).where(eq(brandAddressFields.brandId, brandId)) : [];
  return brandAddressForm(rows);
}

/**
 * Checks the address form: region, area, block (digits only), street and house are required,
 * the area must lie in the region, and the fields the brand (`brandId`) requires are filled. Bad
 * input: 400 'Validation Error' with one validation error per field, in the spec's (or the brand's) words.
 */
export async function validateAddress(db: Db, input: AddressInput, brandId = input.brandId): Promise<ValidAddress> {
  const errors: ValidationError[] = [];
  const block = clean(input.block), street = clean(input.street), house = clean(input.house_no);
  const ids = [input.regionId, input.areaId].filter((v): v is number => typeof v === 'number' && v > 0);
  const areas = ids.length ? await db.select().from(deliveryAreas).where(inArray(deliveryAreas.id, ids)) : [];
  const region = areas.find((a) => a.id === input.regionId && a.parentId === null);
  const area = areas.find((a) => a.id === input.areaId && region && a.parentId === region.id);
  if (!region) errors.push({ message: TEXT.address.region, members: ['regionId'] });
  if (!area) errors.push({ message: TEXT.address.area, members: ['areaId'] });
  if (!block) errors.push({ message: TEXT.address.block, members: ['block'] });
  else if (!/^\d+$/.test(block)) errors.push({ message: BLOCK_DIGITS_ONLY, members: ['block'] });
  if (!street) errors.push({ message: TEXT.address.street, members: ['street'] });
  if (!house) errors.push({ message: TEXT.address.house, members: ['house_no'] });
  for (const m of missingAddressFields(await brandAddressFormOf(db, brandId), input)) errors.push({ message: m.message, members: [m.fieldName] });
  if (errors.length) throw badRequest(TEXT.validationError, errors);
  return {
    regionId: region!.id, region: region!.name, areaId: area!.id, area: area!.name,
    block: block!, street: street!, houseNo: house!,
    buildingNumber: clean(input.buildingNumber), floor: clean(input.floor), jadda: clean(input.jadda),
    avenue: clean(input.avenue), apartment: clean(input.apartment), instructions: clean(input.instructions),
    latitude: input.latitude ?? DEFAULT_ADDRESS_COORDS.latitude,
    longitude: input.longitude ?? DEFAULT_ADDRESS_COORDS.longitude,
  };
}

const regions = alias(deliveryAreas, 'regions');
const areas = alias(deliveryAreas, 'areas');

/** A user's addresses (or one of them), with region and area names in the request's language. */
export async function addressesOf(db: Db, userId: number, id?: number, language: LanguageCode = 'en'): Promise<AddressDto[]> {
  const rows = await db
    .select({ a: customerAddresses, region: localizedColumn(language, regions.name, regions.nameAr), area: localizedColumn(language, areas.name, areas.nameAr) })
    .from(customerAddresses)
    .innerJoin(regions, eq(regions.id, customerAddresses.regionId))
    .innerJoin(areas, eq(areas.id, customerAddresses.areaId))
    .where(and(eq(customerAddresses.userId, userId), id === undefined ? undefined : eq(customerAddresses.id, id)))
    .orderBy(asc(customerAddresses.id));
  return rows.map(({ a, region, area }) => ({
    id: a.id, userId: a.userId, regionId: a.regionId, region, areaId: a.areaId, area, block: a.block, street: a.street,
    house_no: a.houseNo, buildingNumber: a.buildingNumber, floor: a.floor, jadda: a.jadda, avenue: a.avenue,
    apartment: a.apartment, instructions: a.instructions, latitude: a.latitude, longitude: a.longitude,
  }));
}

/** The copy of an address kept on an order (orders.delivery_address), in the DTO's field names. */
export const addressSnapshot = (a: ValidAddress, id: number | null) => ({
  id, regionId: a.regionId, region: a.region, areaId: a.areaId, area: a.area, block: a.block, street: a.street,
  house_no: a.houseNo, buildingNumber: a.buildingNumber ?? null, floor: a.floor ?? null, jadda: a.jadda ?? null,
  avenue: a.avenue ?? null, apartment: a.apartment ?? null, instructions: a.instructions ?? null,
  latitude: a.latitude, longitude: a.longitude,
});
