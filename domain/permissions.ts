/**
 * The one permission table (SPEC.md section 6). The server's authorisation hook,
 * the console's side menu and its route guard all read it, so what a role sees
 * is what the server lets it do.
 */
import type { OrderEventType } from './orderEvents';

export const ROLES = [
  'ADMIN',
  'COMPANY_ADMIN',
  'COMPANY_REVIEWER',
  'BRAND_MANAGER',
  'BRAND_REVIEWER',
  'BRANCH_USER',
  'BRANCH_REVIEWER',
  'CUSTOMER',
] as const;
export type Role = (typeof ROLES)[number];

export const STAFF_ROLES: readonly Role[] = ROLES.filter((r) => r !== 'CUSTOMER');
export const REVIEWER_ROLES: readonly Role[] = ['COMPANY_REVIEWER', 'BRAND_REVIEWER'];

const A = 'ADMIN', CA = 'COMPANY_ADMIN', BM = 'BRAND_MANAGER', BU = 'BRANCH_USER', C = 'CUSTOMER';
const MAIN_THREE: Role[] = [A, CA, BM];

/** Capability → roles allowed. Route access and menu visibility are both capabilities. */
export const PERMISSIONS = {
  // route access (SPEC.md 2.2)
  'dashboard.view': STAFF_ROLES as Role[],
  'companies.list': [A],
  'companies.view': [A, CA],
  'brands.manage': [A, CA],
  /** Reading brands (pickers, the brand switch): the four main roles, each their own (SPEC.md 6 "Data loaded on entry"). */
  'brands.view': [A, CA, BM, BU],
  'appUpdates.manage': [A],
  'brands.qrScans': MAIN_THREE,
  /** Decision (docs/decisions.md "Reward card scans"): a branch user scans a customer's reward card at their branch; the main three in their scope. */
  'rewardCards.scan': [A, CA, BM, BU],
  'branches.manage': MAIN_THREE,
  'users.manage': MAIN_THREE,
  'customers.manage': MAIN_THREE,
  'payments.history': MAIN_THREE,
  /** The platform's payment method names (Payment History's method filter, a brand's payment settings). */
  'paymentSystems.view': MAIN_THREE,
  'validationCodes.view': MAIN_THREE,
  /**
   * Decision (issue 27, "A guard against SMS pumping"): the SMS pumping guard is the platform's, its
   * cost the platform's: ADMIN sees why sending paused, resumes it, and reads the sends and their cost per day.
   */
  'sms.guard': [A],
  'requests.manage': MAIN_THREE,
  'groups.manage': MAIN_THREE,
  'news.manage': MAIN_THREE,
  /** The requests and their outcome (/notifications, /NotificationRequest): each in their scope. */
  'notifications.manage': MAIN_THREE,
  /** Decision (docs/decisions.md "Notifications"): staff below ADMIN ask to send a notification… */
  'notifications.request': [CA, BM],
  /** …and ADMIN sends one directly (SendWebAdminNotifications), approves or rejects the requests. */
  'notifications.send': [A],
  /**
   * Decision (issue 23, "Decisions take one click"): a request is approved (sent) or rejected by
   * ADMIN or a company admin of its company, never by the person who asked (the approval machine's
   * `notTheAsker`): a brand manager's request to their customers needs a second person's eyes.
   */
  'notifications.decide': [A, CA],
  /** Statistics by role (SPEC.md 6 "Data loaded on entry"): general for ADMIN, a company's for COMPANY_ADMIN, a brand's for BRAND_MANAGER. */
  'statistics.general': [A],
  'statistics.company': [A, CA],
  'statistics.brand': MAIN_THREE,
  'menu.manage': MAIN_THREE,
  'balance.enquiry': [A, CA],
  /** Decision (docs/decisions.md "Loyalty"): the `…ByCompanyManager` balance calls are for ADMIN and COMPANY_ADMIN. */
  'customers.companyBalances': [A, CA],
  /**
   * Decision (docs/decisions.md "Loyalty: four eyes"): a grant (an increase) of wallet money,
   * credit, points, punches or free items applies at once only for these roles, the platform
   * operator; anyone else's grant, through the direct adjustment calls too, becomes a pending
   * request (customer_requests) and writes nothing to the ledger. A decrease applies at once for
   * every role with the call's access, with its reason (it mints nothing).
   */
  'loyalty.grantDirect': [A],
  /** Who decides a wallet or credit request (/Request), in their scope; never its author (machines/approvalMachine.ts). */
  'requests.decideMoney': [A, CA],
  /** Who decides a points, punches or free items request (/CustomerRequest), in their scope: a second brand manager of the brand may; never its author. */
  'requests.decideCounts': [A, CA, BM],
  'menuManagement.manage': [A, BM, BU],
  'deliveryAreas.manage': [A, BM],
  'orders.view': [A, BU, CA, BM],
  'orders.operate': [A, BU, CA, BM],
  'qualityReport.view': [A, BU, CA, BM],
  'support.view': [A, BU, CA, BM],
  /**
   * Decision (docs/decisions.md): SPEC.md gives two readings for /unpaidorders. We follow the
   * side menu's, ADMIN, COMPANY_ADMIN and BRAND_MANAGER, on the server, the menu and the guard alike.
   */
  'orders.unpaid': [A, CA, BM],
  'orders.branchLive': [BU],
  /** Decision: a refund is approved by a manager role, never by the branch user who asked for it. */
  'refunds.approve': MAIN_THREE,
  'branch.busy': [BU],
  /** Issue 25: a branch's kitchen printers (add, change, remove, copy the URL with its secret token) are its managers'. */
  'printers.manage': MAIN_THREE,
  'brand.switch': [BM],
  // side-menu visibility (SPEC.md 6) where it differs from route access
  'menu.dashboard': MAIN_THREE,
  /*
   * Decision (issue 23): SPEC.md 6's menu list shows Groups, News, Notifications, Notification Request,
   * Request, CustomerRequest and ValidationCode to ADMIN and COMPANY_ADMIN only, while 2.2's route grants
   * open them to BRAND_MANAGER too. We follow the grants: the person who runs a brand finds the brand's
   * loyalty and marketing tools in the menu, so these entries show to whoever may open the route
   * (src/console/pages.tsx, the console route table). Balance Enquiry stays ADMIN and COMPANY_ADMIN (its route's grant).
   */
  // the shop's customer-only areas
  'customer.self': [C],
} satisfies Record<string, Role[]>;

export type Capability = keyof typeof PERMISSIONS;

/**
 * Which capability sends each order lifecycle event: the server's order and refund routes take
 * their access from it, and the console shows a row's button only to the roles it names.
 * Decision (docs/decisions.md): a refund is asked by whoever operates orders and approved by a
 * manager role; marking an order read is part of viewing it. No role sends `order.fire`: the
 * server's job runner fires an order for later at its fire time (server/orders/fire.ts).
 */
export type StaffOrderEventType = Exclude<OrderEventType, 'order.fire'>;
export const ORDER_EVENT_CAPABILITY = {
  'order.accept': 'orders.operate',
  'order.reject': 'orders.operate',
  'order.ready': 'orders.operate',
  'order.close': 'orders.operate',
  'order.serve': 'orders.operate',
  'order.noShow': 'orders.operate',
  'order.arrive': 'orders.operate',
  'order.markPaid': 'orders.operate',
  'order.markRead': 'orders.view',
  'order.requestRefund': 'orders.operate',
  'order.approveRefund': 'refunds.approve',
} as const satisfies Record<StaffOrderEventType, Capability>;

/** Whether a role may send an order lifecycle event (the machine still decides whether the order allows it). */
export const canSendOrderEvent = (role: Role | string | null | undefined, event: OrderEventType) =>
  event !== 'order.fire' && can(role, ORDER_EVENT_CAPABILITY[event]);

/**
 * Which roles a user-management caller may give (AdminUserManagement/GetCurrentAllowedRoles), and
 * so which users they see and change: only users whose role they may give, inside their own place
 * (docs/decisions.md "Administration: users"). A brand manager does not manage other brand managers:
 * a co-manager may also manage a brand outside the caller's scope. Nobody gives CUSTOMER here.
 */
export const ASSIGNABLE_ROLES: Readonly<Record<Role, readonly Role[]>> = {
  ADMIN: [A, CA, 'COMPANY_REVIEWER', BM, 'BRAND_REVIEWER', BU, 'BRANCH_REVIEWER'],
  COMPANY_ADMIN: [CA, 'COMPANY_REVIEWER', BM, 'BRAND_REVIEWER', BU, 'BRANCH_REVIEWER'],
  BRAND_MANAGER: ['BRAND_REVIEWER', BU, 'BRANCH_REVIEWER'],
  COMPANY_REVIEWER: [],
  BRAND_REVIEWER: [],
  BRANCH_USER: [],
  BRANCH_REVIEWER: [],
  CUSTOMER: [],
};
export const assignableRoles = (role: Role | string | null | undefined): readonly Role[] =>
  (role && ASSIGNABLE_ROLES[role as Role]) || [];

/** The place a staff user belongs to, by role: none (ADMIN), a company, a brand or a branch. */
export type PlaceLevel = 'none' | 'company' | 'brand' | 'branch';
export const ROLE_PLACE: Readonly<Record<Role, PlaceLevel>> = {
  ADMIN: 'none',
  COMPANY_ADMIN: 'company', COMPANY_REVIEWER: 'company',
  BRAND_MANAGER: 'brand', BRAND_REVIEWER: 'brand',
  BRANCH_USER: 'branch', BRANCH_REVIEWER: 'branch',
  CUSTOMER: 'none',
};

/** A role's number for ModifyUserRole's `roleId`: its position in ROLES, from 1 (ADMIN 1 … CUSTOMER 8). */
export const roleId = (role: Role) => ROLES.indexOf(role) + 1;
export const roleById = (id: number): Role | undefined => ROLES[id - 1];

export function can(role: Role | string | null | undefined, capability: Capability): boolean {
  return !!role && (PERMISSIONS[capability] as readonly string[]).includes(role);
}

export const isStaff = (role: string | null | undefined) => !!role && role !== 'CUSTOMER' && (ROLES as readonly string[]).includes(role);
export const isReviewer = (role: string | null | undefined) => !!role && REVIEWER_ROLES.includes(role as Role);

/**
 * Where a signed-in user belongs: customers on /profile, a branch user on /order (the orders they
 * run; SPEC.md 6 sends them there from any refused route too), other staff on /dashboard.
 */
export const homeFor = (role: string | null | undefined) =>
  role === 'BRANCH_USER' ? '/order' : isStaff(role) ? '/dashboard' : '/profile';

/** Where the route guard sends a refused user (SPEC.md 6). */
export const refusedRedirect = (role: string | null | undefined) => (role === 'BRANCH_USER' ? '/order' : '/');
