import { graphql } from '../../gql';

/** Capacity per time slot (server/services/branch/slots.ts), through the gateway: a branch's slots from the one running now, per mode, and closing one. */
export const OrderSlotLoads = graphql(`
  query OrderSlotLoads($branchId: Int!) {
    pickup: Branch_GetOrderSlotLoads(branchId: $branchId, mode: "pickup") { mode maxOrders slots { start state taken } }
    carService: Branch_GetOrderSlotLoads(branchId: $branchId, mode: "carService") { mode maxOrders slots { start state taken } }
    delivery: Branch_GetOrderSlotLoads(branchId: $branchId, mode: "delivery") { mode maxOrders slots { start state taken } }
  }
`);
export const SetOrderSlotClosed = graphql(`
  mutation SetOrderSlotClosed($input: SetOrderSlotClosedInput_Input!) { done: Branch_SetOrderSlotClosed(input: $input) }
`);
