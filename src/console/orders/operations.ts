import { graphql } from '../../gql';

/**
 * The staff order operations of the console (SPEC.md 7 "Staff orders"). Each list has its own
 * operation because the gateway types every list's filters separately; the rows are the same.
 */

/**
 * An order's row on the boards (server/orders/row.ts StaffOrder), as every list shows it and every
 * order mutation answers it: the console's row type is this fragment's generated type.
 */
export const BoardOrderFields = graphql(`
  fragment BoardOrderFields on StaffOrder {
    id orderNumber status arrival payment refund isViewed version deliverySystem customerName customerPhone userId
    total subtotal tax deliveryFee discount paymentSystemId isCash carDetails specialRemarks createdAt paidAt acceptedAt readyAt statusReason branchId brandId branchName brandName itemsCount itemsText scheduledFor firedAt
  }
`);

export const AllOrders = graphql(`
  query AllOrders($skip: Int!, $take: Int!, $sorting: String, $status: queryInput_Store_GetUserOrdersAsBranchUser_Status, $payment: queryInput_Store_GetUserOrdersAsBranchUser_Payment,
    $deliverySystem: queryInput_Store_GetUserOrdersAsBranchUser_DeliverySystem, $search: String, $branchId: Int, $brandId: Int, $createdAfterId: Int, $includeCounts: Boolean!) {
    list: Store_GetUserOrdersAsBranchUser(SkipCount: $skip, MaxResultCount: $take, Sorting: $sorting, Status: $status, Payment: $payment,
      DeliverySystem: $deliverySystem, Search: $search, BranchId: $branchId, BrandId: $brandId, CreatedAfterId: $createdAfterId, IncludeCounts: $includeCounts) {
      totalCount
      counts { pending accepted ready rejected closed scheduled }
      data { ...BoardOrderFields }
    }
  }
`);

export const CurrentOrders = graphql(`
  query CurrentOrders($skip: Int!, $take: Int!, $sorting: String, $status: queryInput_Store_GetCurrentUserOrdersAsBranchUser_Status, $payment: queryInput_Store_GetCurrentUserOrdersAsBranchUser_Payment,
    $deliverySystem: queryInput_Store_GetCurrentUserOrdersAsBranchUser_DeliverySystem, $search: String, $branchId: Int, $brandId: Int, $createdAfterId: Int, $includeCounts: Boolean!) {
    list: Store_GetCurrentUserOrdersAsBranchUser(SkipCount: $skip, MaxResultCount: $take, Sorting: $sorting, Status: $status, Payment: $payment,
      DeliverySystem: $deliverySystem, Search: $search, BranchId: $branchId, BrandId: $brandId, CreatedAfterId: $createdAfterId, IncludeCounts: $includeCounts) {
      totalCount
      counts { pending accepted ready rejected closed scheduled }
      data { ...BoardOrderFields }
    }
  }
`);

export const UnpaidOrders = graphql(`
  query UnpaidOrders($skip: Int!, $take: Int!, $sorting: String, $status: queryInput_Store_GetUnPaidUserOrdersAsBranchUser_Status, $payment: queryInput_Store_GetUnPaidUserOrdersAsBranchUser_Payment,
    $deliverySystem: queryInput_Store_GetUnPaidUserOrdersAsBranchUser_DeliverySystem, $search: String, $branchId: Int, $brandId: Int, $createdAfterId: Int, $includeCounts: Boolean!) {
    list: Store_GetUnPaidUserOrdersAsBranchUser(SkipCount: $skip, MaxResultCount: $take, Sorting: $sorting, Status: $status, Payment: $payment,
      DeliverySystem: $deliverySystem, Search: $search, BranchId: $branchId, BrandId: $brandId, CreatedAfterId: $createdAfterId, IncludeCounts: $includeCounts) {
      totalCount
      counts { pending accepted ready rejected closed scheduled }
      data { ...BoardOrderFields }
    }
  }
`);

export const PickUpOrders = graphql(`
  query PickUpOrders($skip: Int!, $take: Int!, $sorting: String, $status: queryInput_Store_GetCurrentPickUpUserOrdersAsBranchUser_Status, $payment: queryInput_Store_GetCurrentPickUpUserOrdersAsBranchUser_Payment,
    $deliverySystem: queryInput_Store_GetCurrentPickUpUserOrdersAsBranchUser_DeliverySystem, $search: String, $branchId: Int, $brandId: Int, $createdAfterId: Int, $includeCounts: Boolean!) {
    list: Store_GetCurrentPickUpUserOrdersAsBranchUser(SkipCount: $skip, MaxResultCount: $take, Sorting: $sorting, Status: $status, Payment: $payment,
      DeliverySystem: $deliverySystem, Search: $search, BranchId: $branchId, BrandId: $brandId, CreatedAfterId: $createdAfterId, IncludeCounts: $includeCounts) {
      totalCount
      counts { pending accepted ready rejected closed scheduled }
      data { ...BoardOrderFields }
    }
  }
`);

export const DriveThruOrders = graphql(`
  query DriveThruOrders($skip: Int!, $take: Int!, $sorting: String, $status: queryInput_Store_GetCurrentDriveThruUserOrdersAsBranchUser_Status, $payment: queryInput_Store_GetCurrentDriveThruUserOrdersAsBranchUser_Payment,
    $deliverySystem: queryInput_Store_GetCurrentDriveThruUserOrdersAsBranchUser_DeliverySystem, $search: String, $branchId: Int, $brandId: Int, $createdAfterId: Int, $includeCounts: Boolean!) {
    list: Store_GetCurrentDriveThruUserOrdersAsBranchUser(SkipCount: $skip, MaxResultCount: $take, Sorting: $sorting, Status: $status, Payment: $payment,
      DeliverySystem: $deliverySystem, Search: $search, BranchId: $branchId, BrandId: $brandId, CreatedAfterId: $createdAfterId, IncludeCounts: $includeCounts) {
      totalCount
      counts { pending accepted ready rejected closed scheduled }
      data { ...BoardOrderFields }
    }
  }
`);

export const ArrivalCounts = graphql(`
  query ArrivalCounts($branchId: Int, $noShowMode: queryInput_Store_GetOrdersCountByNoShowStatus_DeliverySystem, $withCarCounts: Boolean!) {
    arrived: Store_GetOrdersCountByArrivedStatus(BranchId: $branchId) @include(if: $withCarCounts)
    served: Store_GetOrdersCountByServedStatus(BranchId: $branchId) @include(if: $withCarCounts)
    noShow: Store_GetOrdersCountByNoShowStatus(BranchId: $branchId, DeliverySystem: $noShowMode)
  }
`);

export const UpdateOrderStatus = graphql(`
  mutation UpdateOrderStatus($input: UpdateOrderStatusInput_Input!) {
    order: Store_UpdateOrderStatus(input: $input) { ...BoardOrderFields }
  }
`);

export const UpdateOrderToPaidStatus = graphql(`
  mutation UpdateOrderToPaidStatus($input: OrderIdInput_Input!) {
    order: Store_UpdateOrderToPaidStatus(input: $input) { ...BoardOrderFields }
  }
`);

export const UpdateOrderAsRead = graphql(`
  mutation UpdateOrderAsRead($input: OrderIdInput_Input!) {
    order: Store_UpdateOrderAsRead(input: $input) { ...BoardOrderFields }
  }
`);

export const CustomerServed = graphql(`
  mutation CustomerServed($input: CustomerServedInput_Input!) {
    order: Store_CustomerServed(input: $input) { ...BoardOrderFields }
  }
`);

export const CustomerNoShow = graphql(`
  mutation CustomerNoShow($input: CustomerNoShowInput_Input!) {
    order: Store_CustomerNoShow(input: $input) { ...BoardOrderFields }
  }
`);

export const InitiateRefundRequest = graphql(`
  mutation InitiateRefundRequest($input: InitiateRefundRequestInput_Input!) {
    refund: Refund_InitiateRefundRequest(input: $input) { id orderId status }
  }
`);

export const ApproveRefundRequest = graphql(`
  mutation ApproveRefundRequest($input: ApproveRefundRequestInput_Input!) {
    refund: Refund_ApproveRefundRequest(input: $input) { id orderId status }
  }
`);

export const StaffOrderDetail = graphql(`
  query StaffOrderDetail($orderId: Int!) {
    order: Store_GetOrderDetailAsBranchUser(orderId: $orderId) {
      id orderNumber date branchName paymentSystemName deliverySystem subtotal discount tax deliveryFee total pointsRedeemed
      guestCustomerName guestPhoneNumber carDetails deliveryText
      deliveryAddress { region area block street house_no buildingNumber floor jadda avenue apartment instructions }
      items { productId name quantity unitPrice lineTotal isRedeem redeemPoints options { id name price quantity } }
    }
  }
`);

/** The branches a company admin, brand manager or admin may narrow the boards to (the first 100 by name). */
export const BoardBranches = graphql(`
  query BoardBranches($brandId: Int) {
    list: Branch_GetBranchesForCurrentUser(SkipCount: 0, MaxResultCount: 100, Sorting: "name asc", brandId: $brandId) {
      totalCount data { id name brandId }
    }
  }
`);
