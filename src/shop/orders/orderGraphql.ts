import { graphql } from '../../gql';
import type { TrackedOrderQuery } from '../../gql/graphql';

export const TrackedOrder = graphql(`
  query TrackedOrder($orderId: Int!, $ohash: String) {
    Store_GetOrderDetail(orderId: $orderId, ohash: $ohash) {
      id orderNumber date brandId branchName branchPhoneNumber status arrival statusReason acceptedAt readyAt payment isPaid isCash paymentSystemName deliverySystem scheduledFor
      subtotal discount tax deliveryFee total guestCustomerName carDetails
      deliveryAddress { area block street house_no }
      items { productId name quantity unitPrice lineTotal isRedeem options { id name price } }
      refunds { amount state refundedAt }
      receipt { paidAt at result amount paymentId trackId }
    }
  }
`);

/** Store/PayOrderAgain: the link of the order's open card payment, or of a new one. The order and its ohash also go in the query: they admit the link's holder without a session. */
export const PayOrderAgain = graphql(`
  mutation PayOrderAgain($input: PayOrderAgainInput_Input, $orderId: Int, $ohash: String) {
    Store_PayOrderAgain(input: $input, orderId: $orderId, ohash: $ohash) { paymentUrl }
  }
`);

export const OrderHistoryList = graphql(`
  query OrderHistoryList($skip: Int, $take: Int, $brandId: Int) {
    Store_GetCurrentCustomerOrdersHistory(skip: $skip, take: $take, brandId: $brandId) {
      totalCount
      orderHistoryItems { id date orderNumber amount status isPaid branchName }
    }
  }
`);

export type OrderDetail = NonNullable<TrackedOrderQuery['Store_GetOrderDetail']>;
