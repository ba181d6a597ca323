import { graphql } from '../../gql';
import { ProductType } from '../resources/generated/ProductType';
import { ProductSubType } from '../resources/generated/ProductSubType';

/** The menu's gateway operations (server/services/products, productTypesAndSubtypes, productAddition, country, branch). */

/** /store's tree and addition groups: generated, every field the server's trees answer (scripts/resourceDocuments.ts READS). */
export { ReadMenuTree as MenuTree } from '../resources/generated/reads';

export const CreateProduct = graphql(`mutation MenuCreateProduct($input: MenuProductCreateInput_Input) { product: Products_CreateProducts(input: $input) { id name } }`);
export const UpdateProduct = graphql(`mutation MenuUpdateProduct($input: MenuProductUpdateInput_Input) { product: Products_UpdateProduct(input: $input) { id name isHidden } }`);
export const DeleteProduct = graphql(`mutation MenuDeleteProduct($productId: Int!) { done: Products_DeleteProduct(productId: $productId) }`);
export const DuplicateProduct = graphql(`mutation MenuDuplicateProduct($input: DuplicateProductInput_Input) { product: Products_DuplicateProduct(input: $input) { id name } }`);
export const DeleteImage1 = graphql(`mutation MenuDeleteImage1($productId: Int!) { done: Products_DeleteProductImage(productId: $productId) }`);
export const DeleteImage2 = graphql(`mutation MenuDeleteImage2($productId: Int!) { done: Products_DeleteProductSecondImage(productId: $productId) }`);
export const DeleteImage3 = graphql(`mutation MenuDeleteImage3($productId: Int!) { done: Products_DeleteProductThirdImage(productId: $productId) }`);

/** Product types' and sub-types' writes, generated from their declarations (server/services/productTypesAndSubtypes/resource.ts). */
export const { create: CreateType, update: UpdateType, delete: DeleteType } = ProductType.operations;
export const { create: CreateSubtype, update: UpdateSubtype, delete: DeleteSubtype } = ProductSubType.operations;

export const CreateAdditionGroup = graphql(`mutation MenuCreateAdditionGroup($input: MenuAdditionGroupCreateInput_Input) { group: ProductAddition_CreateNewProductAdditionsGroup(input: $input) { id } }`);
export const UpdateAdditionGroup = graphql(`mutation MenuUpdateAdditionGroup($input: MenuAdditionGroupUpdateInput_Input) { group: ProductAddition_UpdateProductAdditionsGroup(input: $input) { id } }`);
export const DeleteAdditionGroup = graphql(`mutation MenuDeleteAdditionGroup($id: Int!) { done: ProductAddition_DeleteProductAddition(additionGroupId: $id) }`);

export const BranchMenu = graphql(`
  query BranchMenu($branchId: Int!) {
    tree: Products_GetProductsGroupedByTypeAndSubtypeHideUnHide(branchId: $branchId) {
      id name subtypes { id name products { id name price isHidden available unavailableUntil } }
    }
    additions: ProductTypesAndSubtypes_GetProductItemWithSubItemDictionaryHideUnHide(branchId: $branchId) {
      id name subItems { id name price isHidden available unavailableUntil }
    }
  }
`);
export const ProductSwitch = graphql(`
  query MenuProductSwitch($productId: Int!, $branchId: Int!, $on: Boolean, $until: String) {
    state: Branch_GetProductSwitchForBranchUser(productId: $productId, branchId: $branchId, Switch: $on, unavailableUntil: $until) { id available unavailableUntil }
  }
`);
export const AdditionSwitch = graphql(`
  query MenuAdditionSwitch($subItemId: Int!, $branchId: Int!, $on: Boolean, $until: String) {
    state: Branch_GetAdditionSwitchForBranchUser(subItemId: $subItemId, branchId: $branchId, Switch: $on, unavailableUntil: $until) { id available unavailableUntil }
  }
`);

export const BrandAreas = graphql(`
  query BrandAreas($brandId: Int!) {
    regions: Country_GetDeliveryAreasTreeByBrandId(brandId: $brandId) { id name children { id parentId name isHidden deliveryFee } }
  }
`);
export const AreaHide = graphql(`
  query MenuAreaHide($brandId: Int!, $areaId: Int!, $isHide: Boolean!) {
    area: Country_GetUpdateDeliveryAreaHide(brandId: $brandId, areaId: $areaId, isHide: $isHide) { id isHidden }
  }
`);
