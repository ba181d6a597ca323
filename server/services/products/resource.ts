import { Type, type Static, type TOptional, type TSchema } from 'typebox';
import type { products } from '../../db/schema';
import { Nullable } from '../../http/nullable';
import { ArabicName, ArabicText, arabicOrNull } from '../../http/language';
import { moneyDecimal } from '../../../domain/money';
import { AvailabilityWindows, checkWindows, Name, Price } from '../productTypesAndSubtypes/menuAdmin';

type ProductRow = typeof products.$inferSelect;

/** One plain field of a product: as the API answers it, as a body sends it, how it is stored, and whether the shop's product page shows it. */
interface ProductField<S extends TSchema = TSchema> {
  item: S;
  input: TSchema;
  /** Body value → column value (default: as sent). */
  column?: (value: never) => unknown;
  /** Column value → item value (default: as stored). */
  value?: (stored: never) => Static<S>;
  /** Shown on the shop's product page as stored (ProductTypesAndSubtypes/GetProductItemWithSubItemDictionarywithProduct). */
  shop?: true;
  /** In the menu trees' product rows (/store's Products/GetProductsGroupedByTypeAndSubtype; the console's /store config says how it shows). */
  tree?: true;
}
const field = <S extends TSchema>(f: ProductField<S>) => f;

/**
 * Product's declaration (SPEC.md 7 Menu management): its plain fields, each once. The admin item
 * (MenuProduct), the bodies of Products/CreateProducts and UpdateProduct, the columns they write
 * and the shop's product page follow from it (server/services/products/admin.ts,
 * server/services/productTypesAndSubtypes/shop.ts). What is not a plain field — its sub-type
 * and brand, its place among its sub-type's products, its images, option groups and addition
 * groups — is the product's own calls' (admin.ts).
 *
 * Adding a field: its column (server/db/schema/menu.ts, a migration), one line here, and the
 * console's product config (src/console/menu/productConfig.ts) when staff edit it or /store shows
 * it (`tree: true` here puts it in the tree /store reads).
 */
export const PRODUCT_FIELDS = {
  name: field({ item: Type.String(), input: Name, column: (v: string) => v.trim(), tree: true }),
  nameAr: field({ item: Nullable(Type.String()), input: ArabicName, column: arabicOrNull, tree: true }),
  description: field({ item: Type.String(), input: Type.String({ maxLength: 2000 }) }),
  descriptionAr: field({ item: Nullable(Type.String()), input: Type.String({ maxLength: 2000 }), column: arabicOrNull }),
  price: field({ item: Type.Number(), input: Price, column: moneyDecimal, value: (v: string) => Number(v), tree: true }),
  productDeliveryText: field({ item: Type.String(), input: Type.String({ maxLength: 300 }) }),
  productDeliveryTextAr: field({ item: Nullable(Type.String()), input: ArabicText(300), column: arabicOrNull }),
  redeemPoints: field({ item: Nullable(Type.Integer()), input: Nullable(Type.Integer({ minimum: 1, maximum: 1000000 })) }),
  isHidden: field({ item: Type.Boolean(), input: Type.Boolean(), tree: true }),
  calories: field({
    item: Nullable(Type.Integer({ description: 'kcal per serving; null: not given.' })),
    input: Nullable(Type.Integer({ minimum: 0, maximum: 10000, description: 'kcal per serving, 0..10000; null: not given.' })),
    shop: true,
  }),
  availabilityWindows: field({ item: AvailabilityWindows, input: AvailabilityWindows, column: checkWindows, tree: true }),
} satisfies Record<string, ProductField> & { [K in keyof ProductRow]?: ProductField };

type Fields = typeof PRODUCT_FIELDS;
type FieldName = keyof Fields;
const NAMES = Object.keys(PRODUCT_FIELDS) as FieldName[];
const entries = (names: FieldName[], pick: (f: ProductField, name: FieldName) => TSchema) =>
  Object.fromEntries(names.map((n) => [n, pick(PRODUCT_FIELDS[n], n)])) as { [K in FieldName]: Fields[K]['item'] };

/** The fields as the admin item shows them. */
export const productItemFields = entries(NAMES, (f) => f.item);
/** The fields a body may send (all optional; create requires what `CreateProducts` says). */
export const productInputFields = Object.fromEntries(NAMES.map((n) => [n, Type.Optional(PRODUCT_FIELDS[n].input)])) as Record<FieldName, TOptional<TSchema>>;
export type ProductFieldInput = Partial<Record<FieldName, unknown>>;

/** The body's plain fields as column values (only those sent). */
export const productColumns = (input: ProductFieldInput) => Object.fromEntries(NAMES.filter((n) => input[n] !== undefined).map((n) => {
  const { column } = PRODUCT_FIELDS[n] as ProductField;
  return [n, column ? column(input[n] as never) : input[n]];
})) as Partial<ProductRow>;

/** A row's plain fields as the item shows them. */
export const productValues = (row: ProductRow, names: FieldName[] = NAMES) => Object.fromEntries(names.map((n) => {
  const { value } = PRODUCT_FIELDS[n] as ProductField;
  return [n, value ? value(row[n] as never) : row[n]];
}));

/** The fields flagged `shop` or `tree`: their schemas, and a row's values of them. */
const flagged = (flag: 'shop' | 'tree') => {
  const names = NAMES.filter((n) => (PRODUCT_FIELDS[n] as ProductField)[flag]);
  return { fields: Object.fromEntries(names.map((n) => [n, PRODUCT_FIELDS[n].item])) as Record<string, TSchema>, values: (row: ProductRow) => productValues(row, names) };
};
/** The fields the shop's product page shows as stored. */
export const { fields: shopProductFields, values: shopProductValues } = flagged('shop');
/** The fields of a product's row in the menu trees. */
export const { fields: treeProductFields, values: treeProductValues } = flagged('tree');
