/**
 * The delivery-address fields a brand can configure (BrandAddressFields, docs/decisions.md
 * "Administration: branches and brand settings"): the optional fields of the address form and of
 * customer_addresses. Region, area, block, street and house number are always asked and always
 * required (SPEC.md 5), so they are not in this list.
 */
export const CONFIGURABLE_ADDRESS_FIELDS = [
  { fieldName: 'buildingNumber', label: 'Building' },
  { fieldName: 'floor', label: 'Floor' },
  { fieldName: 'apartment', label: 'Apartment' },
  { fieldName: 'jadda', label: 'Jadda' },
  { fieldName: 'avenue', label: 'Avenue' },
  { fieldName: 'instructions', label: 'Additional info' },
] as const;

export type AddressFieldName = (typeof CONFIGURABLE_ADDRESS_FIELDS)[number]['fieldName'];
export const ADDRESS_FIELD_NAMES: readonly AddressFieldName[] = CONFIGURABLE_ADDRESS_FIELDS.map((f) => f.fieldName);
