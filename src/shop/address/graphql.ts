import { graphql } from '../../gql';

/** The delivery-address operations, shared by /address-details, /select-location and /profile. */

export const DeliveryAreasTree = graphql(`
  query DeliveryAreasTree($brandId: Int) {
    Country_GetDeliveryAreasTreeByBrandIdForShop(brandId: $brandId) {
      id name latitude longitude
      children { id parentId name latitude longitude deliveryFee }
    }
  }
`);

export const CustomerAddresses = graphql(`
  query CustomerAddresses($userId: Int!) {
    CustomerDeliveryAddress_GetCustomerDeliveryAddressListByUserId(userId: $userId) {
      id userId regionId region areaId area block street house_no buildingNumber floor apartment jadda avenue instructions latitude longitude
    }
  }
`);

export const AddAddress = graphql(`
  mutation AddAddress($input: mutationInput_CustomerDeliveryAddress_AddCustomerDeliveryAddress_input_Input) {
    CustomerDeliveryAddress_AddCustomerDeliveryAddress(input: $input) {
      id userId regionId region areaId area block street house_no buildingNumber floor apartment jadda avenue instructions latitude longitude
    }
  }
`);

export const UpdateAddress = graphql(`
  mutation UpdateAddress($input: mutationInput_CustomerDeliveryAddress_UpdateCustomerDeliveryAddress_input_Input) {
    CustomerDeliveryAddress_UpdateCustomerDeliveryAddress(input: $input) {
      id userId regionId region areaId area block street house_no buildingNumber floor apartment jadda avenue instructions latitude longitude
    }
  }
`);

export const DeleteAddress = graphql(`
  mutation DeleteAddress($id: Int!) {
    CustomerDeliveryAddress_DeleteCustomerDeliveryAddressById(id: $id)
  }
`);

/** The brand's address form: the optional fields shown below block, street and house, in order (domain/addressFields.ts). */
export const BrandAddressForm = graphql(`
  query BrandAddressForm($brandId: Int!) {
    BrandAddressFields_GetAddressFormForShop(brandId: $brandId) { fieldName label isRequired }
  }
`);
