import { useGatewayQuery } from '../../lib/gateway';
import { graphql } from '../../gql';
import type { CartItem } from '../../../machines/cart';

export const CartPrices = graphql(`
  query CartPrices($brandId: Int!, $branchId: Int!, $productIds: [Int]!, $at: String) {
    Products_GetProductsPricesForCustomer(brandId: $brandId, branchId: $branchId, productIds: $productIds, at: $at) {
      id name price available unavailableUntil offered options { id name price available }
    }
  }
`);

/**
 * The cart's products as the branch offers them now (read when the cart or the checkout opens):
 * today's prices, and the products that cannot be ordered (sold out, switched off, or gone from
 * the menu, or not on it at the order's time `at`: menus by time of day, now when absent). Their
 * lines are marked with a Remove button, and Place order waits for it. `offHours`: those of them
 * that are not on the menu at that time (the line says so rather than "sold out").
 */
export function useCartAvailability(items: CartItem[], brandId: number, branchId: number, at?: string) {
  const productIds = [...new Set(items.map((i) => i.product.id))];
  // Through the gateway: the plain POST before Apollo is here (the checkout's first screen), Apollo's watch after.
  const { data } = useGatewayQuery(CartPrices, {
    variables: { brandId, branchId, productIds, at },
    skip: !productIds.length || !brandId || !branchId, fetchPolicy: 'network-only', context: { silent: true },
  });
  const answer = data?.Products_GetProductsPricesForCustomer;
  const soldOut = answer ? productIds.filter((id) => !answer.some((p) => p?.id === id && p.available)) : [];
  const offHours = answer ? productIds.filter((id) => answer.some((p) => p?.id === id && !p.offered)) : [];
  return { answer, soldOut, offHours };
}
