import { graphql } from '../../gql';
import type { PlainField } from '../../../machines/productForm';
import { formatMoney } from '../../../domain/money';
import { arabicName, hiddenCell, hoursCell } from './storeConfig';
import type { ProductRow, StoreCell } from './productTree';

/**
 * The console's half of Product's declaration (server/services/products/resource.ts): what the
 * product form (/store) reads, and how it shows and checks each plain field. The form's machine
 * (machines/productForm.ts) loads, checks and saves every field listed here; a field added to the
 * declaration is shown by adding it to the query and to PRODUCT_FORM_FIELDS, and on /store's rows
 * (a field the declaration flags `tree`) by a line in PRODUCT_CELLS.
 */
export const MenuProductForm = graphql(`
  query MenuProductForm($productId: Int!) {
    product: ProductTypesAndSubtypes_GetProductItemWithSubItemDictionary(productId: $productId) {
      id brandId typeId subtypeId name nameAr description descriptionAr price productImage productSecondImage productThirdImage productDeliveryText productDeliveryTextAr isHidden additionGroupIds
      calories
      optionGroups { id name nameAr allowMultiple isRequired subItems { id name nameAr price isHidden } }
    }
  }
`);

/** How the form shows a plain field: its input's id, the label's note, a helper text, a placeholder; multi-line, right-to-left; the sub-type beside it. */
export interface ProductFormField extends PlainField {
  id: string;
  labelInfo?: string;
  helperText?: string;
  placeholder?: string;
  multiline?: boolean;
  rtl?: boolean;
  /** Shown in one row with the sub-type select. */
  besideSubtype?: boolean;
  inputMode?: 'decimal' | 'numeric';
}

export const PRODUCT_FORM_FIELDS: readonly ProductFormField[] = [
  { name: 'name', label: 'Name', id: 'product-name', kind: 'trimmed', required: 'Give the product a name.', labelInfo: '(required)' },
  { name: 'nameAr', label: 'Arabic name', id: 'product-name-ar', kind: 'arabicName', rtl: true, labelInfo: '(shown in the Arabic shop; empty: the name above)' },
  { name: 'description', label: 'Description', id: 'product-description', kind: 'text', multiline: true },
  { name: 'descriptionAr', label: 'Arabic description', id: 'product-description-ar', kind: 'trimmed', multiline: true, rtl: true },
  { name: 'price', label: 'Price', id: 'product-price', kind: 'money', labelInfo: '(KD, 3 decimals)', placeholder: '1.250', inputMode: 'decimal', besideSubtype: true },
  { name: 'productDeliveryText', label: 'Delivery text', id: 'product-delivery', kind: 'text', placeholder: 'Ready in about 10 minutes' },
  { name: 'productDeliveryTextAr', label: 'Arabic delivery text', id: 'product-delivery-ar', kind: 'trimmed', rtl: true, placeholder: 'جاهز خلال 10 دقائق تقريبًا', helperText: 'Shown in the Arabic shop; empty: the delivery text above.' },
  { name: 'calories', label: 'Calories', id: 'product-calories', kind: 'integer', min: 0, max: 10000, labelInfo: '(kcal per serving; empty: not given)', inputMode: 'numeric', placeholder: '250' },
];

/** What a product's row on /store shows, in order, before its switch and its buttons. */
export const PRODUCT_CELLS: readonly StoreCell<ProductRow>[] = [
  { field: 'productImage', render: (p) => p.productImage ? <img src={p.productImage} alt="" className="mm-thumb" /> : <span className="mm-thumb" /> },
  // The Arabic name is a word of its own: a space between the two, not a run "Espressoإسبريسو".
  { field: 'name', render: (p) => <span className="mm-product-name">{p.name}{p.nameAr && ' '}{arabicName(p.nameAr)}</span> },
  { field: 'price', render: (p) => <span className="mm-price">{formatMoney(p.price)}</span> },
  hiddenCell,
  hoursCell,
];
