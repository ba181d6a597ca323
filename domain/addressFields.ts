/**
 * The delivery-address fields a brand can configure (BrandAddressFields, docs/decisions.md
 * "Administration: branches and brand settings"): the optional fields of the address form and of
 * customer_addresses. Region, area, block, street and house number are always asked and always
 * required (SPEC.md 5), so they are not in this list. `shown` and `order` are the form's own choice
 * for a brand with no row for the field (today's form: floor, jadda, additional info).
 */
export const CONFIGURABLE_ADDRESS_FIELDS = [
  { fieldName: 'buildingNumber', label: 'Building', shown: false, order: 10 },
  { fieldName: 'floor', label: 'Floor', shown: true, order: 20 },
  { fieldName: 'apartment', label: 'Apartment', shown: false, order: 30 },
  { fieldName: 'jadda', label: 'Jadda', shown: true, order: 40 },
  { fieldName: 'avenue', label: 'Avenue', shown: false, order: 50 },
  { fieldName: 'instructions', label: 'Additional info', shown: true, order: 60 },
] as const;

export type AddressFieldName = (typeof CONFIGURABLE_ADDRESS_FIELDS)[number]['fieldName'];
export const ADDRESS_FIELD_NAMES: readonly AddressFieldName[] = CONFIGURABLE_ADDRESS_FIELDS.map((f) => f.fieldName);

/** A brand's row for one field (brand_address_fields), as stored. */
export interface BrandAddressFieldSetting {
  fieldName: string;
  label: string;
  isRequired: boolean;
  isVisible: boolean;
  sortOrder: number;
}

/** One optional field as a brand's address form asks it: its label (the brand's) and whether it must be filled. */
export interface AddressFormField {
  fieldName: AddressFieldName;
  label: string;
  isRequired: boolean;
}

/**
 * The optional fields a brand's address form shows, in order, below block, street and house: the
 * brand's rows over the form's defaults. A hidden field is left out (and so never required); ties
 * in order keep the list's order. No rows at all: today's form (floor, jadda, additional info).
 */
export function brandAddressForm(settings: readonly BrandAddressFieldSetting[]): AddressFormField[] {
  return CONFIGURABLE_ADDRESS_FIELDS
    .map((f, i) => {
      const row = settings.find((s) => s.fieldName === f.fieldName);
      return {
        field: { fieldName: f.fieldName, label: row?.label.trim() || f.label, isRequired: !!row?.isRequired && row.isVisible },
        shown: row ? row.isVisible : f.shown,
        order: row ? row.sortOrder : f.order,
        i,
      };
    })
    .filter((f) => f.shown)
    .sort((a, b) => a.order - b.order || a.i - b.i)
    .map((f) => f.field);
}

/** The form's own form: what a brand with no rows asks. */
export const DEFAULT_ADDRESS_FORM: readonly AddressFormField[] = brandAddressForm([]);

/** A required field left empty, in the brand's words ('Floor is required'). */
export const addressFieldRequired = (label: string) => `${label} is required`;

/**
 * The brand's required fields left empty (the one rule the shop's form machine and the server both
 * apply): each with its message.
 */
export function missingAddressFields(
  form: readonly AddressFormField[],
  values: Partial<Record<AddressFieldName, string | null | undefined>>,
): { fieldName: AddressFieldName; message: string }[] {
  return form
    .filter((f) => f.isRequired && !values[f.fieldName]?.trim())
    .map((f) => ({ fieldName: f.fieldName, message: addressFieldRequired(f.label) }));
}
