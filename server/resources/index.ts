import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../http/context';
import { registerAuditHistory } from './audit';
import type { DeclaredResource } from './resource';
import { taxResource } from '../services/tax/resource';
import { appUpdatesResource } from '../services/appUpdates/resource';
import { userResource } from '../services/adminUserManagement/staffUsers';
import { companyResource } from '../services/company/resource';
import { brandResource } from '../services/brand/resource';
import { branchResource } from '../services/branch/resource';
import { branchScheduleResource } from '../services/branchOnlineOrderingSchedule/resource';
import { brandAddressFieldsResource } from '../services/brandAddressFields/resource';
import { brandDeliveryFeeResource } from '../services/brandDeliveryFee/resource';
import { brandPaymentResource } from '../services/brandPayment/resource';
import { brandAdvertisementResource } from '../services/brandAdvertisements/resource';
import { rewardProgramResource } from '../services/rewardPrograms/resource';
import { customersGroupResource } from '../services/customersGroups/resource';
import { MENU_HISTORY } from '../services/productTypesAndSubtypes/history';
import { preInvitationResource } from '../services/preInvitationLists/resource';
import { productSubTypeResource, productTypeResource } from '../services/productTypesAndSubtypes/resource';

/**
 * Every admin resource declared with `defineResource` (server/resources/resource.ts): the one
 * place a new resource is registered. Its routes and its history (AuditLog/GetEntityHistory) follow.
 */
export const RESOURCES: readonly DeclaredResource[] = [
  taxResource,
  appUpdatesResource,
  userResource,
  companyResource, brandResource,
  branchResource,
  branchScheduleResource,
  brandAddressFieldsResource,
  brandDeliveryFeeResource,
  brandPaymentResource,
  brandAdvertisementResource,
  rewardProgramResource,
  customersGroupResource,
  preInvitationResource,
  productTypeResource, productSubTypeResource,
];

export function registerResources(app: FastifyInstance, ctx: AppContext) {
  for (const resource of RESOURCES) resource.register(app, ctx);
  registerAuditHistory(app, ctx, [...RESOURCES, ...MENU_HISTORY]);
}
