import { fromPromise } from 'xstate';
import type { ApolloClient } from '@apollo/client';
import { managerBrand } from '../shell/managerBrand';
import {
  orderBoardMachine, type BoardCounts, type OrderActionRequest, type OrderListKind, type PageRequest, type PageResult,
} from '../../../machines/orderBoard';
import { apiErrorOf, errorMessage } from '../../lib/errors';
import { EVENT_VERBS, statusOfEvent, type OrderEventType } from '../../../machines/orderLifecycle';
import { takePreloadedPage } from './preloadedPage';
import { notifyError } from '../../lib/notify';
import {
  AllOrders, ApproveRefundRequest, ArrivalCounts, CurrentOrders, CustomerNoShow, CustomerServed, DriveThruOrders, InitiateRefundRequest,
  PickUpOrders, UnpaidOrders, UpdateOrderAsRead, UpdateOrderStatus, UpdateOrderToPaidStatus,
} from './operations';
import type { BoardOrderFieldsFragment } from '../../gql/graphql';

/**
 * A row of the staff lists, as the console shows it: the generated type of the one order fragment
 * (PageResult<StaffOrderRow> checks that it carries what the board's machine needs).
 */
export type StaffOrderRow = BoardOrderFieldsFragment;

const LIST_QUERIES = {
  all: AllOrders,
  current: CurrentOrders,
  unpaid: UnpaidOrders,
  pickup: PickUpOrders,
  driveThru: DriveThruOrders,
} as const;

/** Counts beyond the status counts: no-show for pick-up, arrived/served/no-show for drive-thru (SPEC.md 4). */
const ARRIVAL_COUNTS: Partial<Record<OrderListKind, { withCarCounts: boolean; noShowMode: 'pickup' | 'carService' }>> = {
  pickup: { withCarCounts: false, noShowMode: 'pickup' },
  driveThru: { withCarCounts: true, noShowMode: 'carService' },
};

export async function loadOrderPage(client: ApolloClient, req: PageRequest): Promise<PageResult<StaffOrderRow>> {
  // The arrival counts go with the status counts: only when the board asks for them.
  const arrival = req.withCounts ? ARRIVAL_COUNTS[req.list] : undefined;
  const [list, extra] = await Promise.all([
    client.query({
      query: LIST_QUERIES[req.list] as typeof AllOrders,
      variables: {
        skip: req.skip, take: req.take, sorting: req.sorting, status: req.filter.status, payment: req.filter.payment,
        deliverySystem: req.filter.deliverySystem, search: req.filter.search, branchId: req.filter.branchId, includeCounts: req.withCounts,
        // a brand manager's chosen brand (top bar): a filter within their scope
        brandId: managerBrand.get() ?? undefined,
      },
      fetchPolicy: 'no-cache',
      // The board says itself what failed (the load's callout, an action's message); the error
      // link's generic toast would say it twice (issue 11).
      context: { silent: true },
    }),
    arrival ? client.query({ query: ArrivalCounts, variables: arrival, fetchPolicy: 'no-cache', context: { silent: true } }) : Promise.resolve(null),
  ]);
  const data = list.data?.list;
  if (!data) throw new Error('The order list did not load.');
  const rows = data.data.filter((r): r is StaffOrderRow => !!r);
  if (!req.withCounts) return { rows, totalCount: data.totalCount };
  const counts: BoardCounts = { ...(data.counts ?? {}) };
  delete (counts as Record<string, unknown>).__typename;
  if (extra?.data) {
    if (extra.data.arrived != null) counts.arrived = extra.data.arrived;
    if (extra.data.served != null) counts.served = extra.data.served;
    if (extra.data.noShow != null) counts.noShow = extra.data.noShow;
  }
  return { rows, totalCount: data.totalCount, counts };
}

/**
 * Sends one lifecycle event through its legacy call (SPEC.md 7), with the version the console
 * saw, so a stale view gets a 409 instead of acting on an order that changed meanwhile. Answers
 * the updated row, or null when the call answers something else (refunds): the board refetches.
 */
export async function performOrderEvent(client: ApolloClient, req: OrderActionRequest): Promise<StaffOrderRow | null> {
  const ids = { orderId: req.orderId, version: req.version };
  const silent = { silent: true };
  // Reject and no-show carry the operator's reason (the customer reads it on /track-order).
  const reason = 'reason' in req.event ? { reason: req.event.reason } : {};
  // Close and serve say whether the cash was collected (the order is paid in the same step).
  const cash = 'cashCollected' in req.event && req.event.cashCollected ? { cashCollected: true } : {};
  switch (req.event.type) {
    case 'order.accept': case 'order.ready': case 'order.reject': case 'order.close': {
      const res = await client.mutate({ mutation: UpdateOrderStatus, variables: { input: { ...ids, ...reason, ...cash, status: statusOfEvent(req.event.type)! } }, context: silent });
      return res.data?.order ?? null;
    }
    case 'order.markPaid':
      return (await client.mutate({ mutation: UpdateOrderToPaidStatus, variables: { input: ids }, context: silent })).data?.order ?? null;
    case 'order.markRead':
      // Any version: several screens may mark the same order read, and repeating it is harmless.
      return (await client.mutate({ mutation: UpdateOrderAsRead, variables: { input: { orderId: req.orderId } }, context: silent })).data?.order ?? null;
    case 'order.serve':
      return (await client.mutate({ mutation: CustomerServed, variables: { input: { ...ids, ...cash } }, context: silent })).data?.order ?? null;
    case 'order.noShow':
      return (await client.mutate({ mutation: CustomerNoShow, variables: { input: { ...ids, ...reason } }, context: silent })).data?.order ?? null;
    case 'order.requestRefund':
      await client.mutate({
        mutation: InitiateRefundRequest,
        variables: { input: { orderId: req.orderId, reason: req.details?.reason ?? '', ...(req.details?.amount ? { amount: req.details.amount } : {}) } },
        context: silent,
      });
      return null;
    case 'order.approveRefund':
      await client.mutate({ mutation: ApproveRefundRequest, variables: { input: { orderId: req.orderId } }, context: silent });
      return null;
    default:
      throw new Error(`The console does not send ${req.event.type}.`);
  }
}

/**
 * What did not happen, plainly. The server's own message when it answered (a 409 already says
 * "Order #12 cannot be accepted: it is closed"); when it could not be reached, that the order was
 * not <verb>, so nobody believes the customer's order went through.
 */
export function actionFailedMessage(orderId: number, event: OrderEventType, error: unknown): string {
  if (apiErrorOf(error)?.abp?.message) return errorMessage(error);
  return `Order #${orderId} was not ${EVENT_VERBS[event]}: the server could not be reached. Try again when the connection is back.`;
}

/** The order board bound to the gateway. */
export function provideOrderBoard(client: ApolloClient) {
  return orderBoardMachine.provide({
    actors: {
      // The first page may have been asked for already, while the console was starting (./preload.ts).
      loadPage: fromPromise(({ input }) => takePreloadedPage(input) ?? loadOrderPage(client, input)),
      performOrderEvent: fromPromise(({ input }) => performOrderEvent(client, input)),
    },
    actions: {
      reportActionFailed: (_, { orderId, event, error }) => notifyError(actionFailedMessage(orderId, event, error)),
    },
  });
}
