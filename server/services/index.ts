import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../http/context';
import { registerTokenAuth } from './tokenAuth/routes';
import { registerUser } from './user/routes';
import { registerAdminUserManagement } from './adminUserManagement/routes';
import { registerBrandManagers } from './brand/managers';
import { registerBranchUsers } from './branch/users';
import { registerShopBrands } from './brand/shop';
import { registerShopProducts } from './products/shop';
import { registerBranchOps } from './branch/ops';
import { registerStaffOrders } from './store/staffOrders';
import { registerStaffOrderDetail } from './store/staffOrderDetail';
import { registerRefund } from './refund/routes';
import { registerShopCountry } from './country/shop';
import { registerShopProductTypesAndSubtypes } from './productTypesAndSubtypes/shop';
import { registerShopCars } from './cars/shop';
import { registerShopStore } from './store/shop';
import { registerCustomerLoyalty } from './customer/loyalty';
import { registerCustomerRequests } from './customer/requests';
import { registerCustomersGroupCalls } from './customersGroups/resource';
import { registerPreInvitationLists } from './preInvitationLists/resource';
import { registerStaffRegistration } from './customer/staffRegistration';
import { registerShopCustomer } from './customer/shop';
import { registerValidationCodes } from './customer/codes';
import { registerShopBrandAddressForm, registerShopCustomerDeliveryAddress } from './customerDeliveryAddress/shop';
import { registerShopBrandDeliveryFee } from './brandDeliveryFee/shop';
import { registerSandboxPayments } from '../payments/sandboxPage';
import { registerGatewayPayments } from '../payments/gatewayRoutes';
import { registerPaymentReconciliation } from '../payments/reconciliationRoutes';
import { registerFiles } from './files/routes';
import { registerBrand } from './brand/resource';
import { registerCurrency } from './currency/routes';
import { registerResources } from '../resources';
import { registerBranchAdmin } from './branch/resource';
import { registerBrandPayment } from './brandPayment/resource';
import { registerDeliveryAreasTree } from './country/tree';
import { registerProductTypesAndSubtypesCalls } from './productTypesAndSubtypes/admin';
import { registerProductsAdmin } from './products/admin';
import { registerProductAddition } from './productAddition/routes';
import { registerBrandDeliveryAreas } from './country/areas';
import { registerBranchAvailability } from './branch/availability';
import { registerBrandAdvertisements } from './brandAdvertisements/resource';
import { registerStatistic } from './statistic/routes';
import { registerNotifications } from './notifications/routes';
import { registerRewardCardScans } from './rewardCardScans/routes';
import { registerPaymentDashboard } from './paymentDashboard/routes';
import { registerQualityReport } from './operations/qualityReport';
import { registerSupport } from './operations/support';
import { registerAutoAccept } from './operations/autoAccept';
import { registerPrinters } from '../printing/routes';
import { registerPrinterProtocols } from '../printing/protocols';
import { registerOrderSlots } from './branch/slots';

/** Every REST service, in the order of SPEC.md section 7. */
export const SERVICES: ((app: FastifyInstance, ctx: AppContext) => void)[] = [
  registerTokenAuth,
  registerUser,
  registerShopBrands,
  registerShopProducts,
  registerBranchOps,
  registerStaffOrders,
  registerStaffOrderDetail,
  registerRefund,
  // staff users (SPEC.md 7 AdminUserManagement, Brand managers, Branch users): one user service
  registerAdminUserManagement,
  registerBrandManagers,
  registerBranchUsers,
  // the customer shop (SPEC.md 7 "Customer shop")
  registerShopCountry,
  registerShopProductTypesAndSubtypes,
  registerShopCars,
  registerShopStore,
  registerShopCustomer,
  registerValidationCodes,
  registerShopCustomerDeliveryAddress, registerShopBrandAddressForm,
  registerShopBrandDeliveryFee,
  // administration: the declared resources (server/resources/index.ts) and their history
  registerResources,
  registerBrand, registerCurrency,
  registerBranchAdmin, registerBrandPayment, registerDeliveryAreasTree,
  // menu management (SPEC.md 7 Menu management; the Branch availability switches)
  registerProductTypesAndSubtypesCalls, registerProductsAdmin, registerProductAddition, registerBrandDeliveryAreas, registerBranchAvailability,
  registerFiles,
  // engagement and insight (issue 13): news and statistics
  registerBrandAdvertisements, registerStatistic, registerPaymentDashboard,
  // the branch's service and where staff get help (issue 13: /QualityReport, /SupportPage)
  registerQualityReport, registerSupport, registerNotifications,
  // loyalty and customers (issue 10)
  registerCustomerLoyalty, registerCustomerRequests, registerCustomersGroupCalls, registerRewardCardScans,
  registerPreInvitationLists, registerStaffRegistration,
  // the embedded card payment provider's hosted page (not part of the REST API)
  registerSandboxPayments,
  // the payment gateways' callbacks and returns (not part of the REST API), and staff's reconciliation view (issue 21)
  registerGatewayPayments, registerPaymentReconciliation,
  // kitchen printers (issue 25): their service, the protocols they poll (not part of the REST API), and auto-accept
  registerPrinters, registerPrinterProtocols, registerAutoAccept,
  registerOrderSlots,
];
