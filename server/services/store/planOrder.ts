import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { customerGroupMembers, customerGroups, customerWallets } from '../../db/schema';
import { ApiError, badRequest, naming, type ValidationError } from '../../http/envelope';
import type { AppContext, Caller } from '../../http/context';
import { paymentProviderFor, type PaymentProvider } from '../../payments';
import { DEFAULT_PAYMENT_METHOD_ID, QUANTITY, TEXT, WALLET_PAYMENT_METHOD_ID } from '../../../domain/constants';
import { toFils, type Fils } from '../../../domain/money';
import { isValidPhone, normalisePhone } from '../../../domain/phone';
import { isOpenAt, orderingWindows } from '../../../domain/schedule';
import { orderTotals, type OrderTotals } from '../../../domain/orderTotals';
import type { DeliverySystem } from '../../../machines/orderLifecycle';
import { addressesOf, addressSnapshot, brandAddressFormOf, validateAddress } from '../customerDeliveryAddress/addresses';
import { missingAddressFields } from '../../../domain/addressFields';
import { carsOf, describeCar } from '../cars/cars';
import { deliveryQuote, NOT_DELIVERING } from '../brandDeliveryFee/deliveryFee';
import { menuCacheOf, type BranchCatalog } from '../../orders/menuCache';
import { offeredAt } from '../productTypesAndSubtypes/menu';
import { checkFreeItemLines } from '../../loyalty/freeItems';
import { walletBalanceOf, walletPayment } from '../../loyalty/walletPayment';
import type { SaveNewOrderInput } from './orderInput';
import { busyModeOf } from '../branch/busy';
import { readyEstimate, type ReadyEstimate } from '../../../domain/readyEstimate';
import { formatMoment } from '../../../domain/time';
import { earliestOrderTime, firesLater, orderTimeOf, scheduledForProblem, slotOf } from '../../../domain/orderTime';
import { ORDER_TIME_TEXT, slotSettingsOf, type SlotClaim } from '../../orders/slots';

export const ORDER_TEXT = {
  emptyCart: 'Your cart is empty.',
  oneMode: 'Please choose one of pickup, car service or delivery.',
  branchNotOfBrand: 'This branch does not belong to the brand.',
  brandClosed: 'This brand is not taking orders right now.',
  busy: 'The branch is busy right now and is not taking orders. Please try again later.',
  closed: 'The branch is closed for online orders right now. Please order during its opening hours.',
  paymentUnavailable: 'This payment method is not available for this brand.',
  notOnMenu: (id: number) => `Product #${id} is not on the menu of this brand.`,
  unavailable: (name: string) => `${name} is not available at this branch right now.`,
  soldOutUntil: (name: string, until: Date) => `${name} is sold out at this branch until ${kuwaitTime(until)}.`,
  notOfferedAt: (name: string) => `${name} is not on the menu at the time of this order.`,
  quantity: (name: string) => `The quantity of ${name} must be between ${QUANTITY.cart.min} and ${QUANTITY.cart.max}.`,
  notAnOption: (id: number, product: string) => `Addition #${id} is not an option of ${product}.`,
  twice: (option: string, product: string) => `${option} is chosen twice for ${product}.`,
  onlyOne: (group: string, product: string) => `Please choose only one ${group} for ${product}.`,
  required: (group: string, product: string) => `Please choose ${group} for ${product}.`,
  notRedeemable: (name: string) => `${name} cannot be redeemed with points.`,
  additionRedeem: 'Additions cannot be redeemed with points.',
  guestRedeem: 'Please log in to redeem points.',
  notEnoughPoints: 'You do not have enough points to redeem these products.',
  noDiscount: 'This discount is not available to you.',
  noAddress: 'Please choose a delivery address.',
  addressIncomplete: 'This address lacks what the brand asks for delivery. Please complete it in your addresses.',
  noCar: 'Please choose your car for car service.',
  walletGuest: 'Please log in to pay with your wallet.',
  walletNotEnough: 'Your wallet balance is not enough for this order. Please choose another payment method.',
} as const;

export interface PlannedOption { id: number; name: string; price: number; quantity: number; groupId: number; groupName: string }
export interface PlannedLine {
  productId: number;
  name: string;
  quantity: number;
  unitPrice: Fils;
  lineTotal: Fils;
  isRedeem: boolean;
  /** Taken as a free item (`redeemItem`): the product's own price is free and one free item is spent. */
  redeemItem: boolean;
  /** Points this line spends in all (products.redeem_points × quantity). */
  points: number;
  options: PlannedOption[];
}

export interface OrderPlan {
  /** The catalog version (catalog_version) the order was checked and priced on: the write holds to it. */
  catalogVersion: number;
  brandId: number;
  branchId: number;
  merchantName: string;
  currency: string;
  deliverySystem: DeliverySystem;
  paymentSystemId: number;
  provider: PaymentProvider;
  lines: PlannedLine[];
  totals: OrderTotals;
  points: number;
  /** What the customer's brand wallet pays (`payWithWallet`): the whole total, or 0. */
  wallet: Fils;
  /** Free items the order spends (0 or 1). */
  freeItems: number;
  discountGroupId: number | null;
  guest: { name: string; phone: string; email: string | null } | null;
  deliveryAddressId: number | null;
  deliveryAddress: ReturnType<typeof addressSnapshot> | null;
  carId: number | null;
  carDetails: string | null;
  deliveryText: string | null;
  specialRemarks: string | null;
  promoCode: string | null;
  /** When it should be ready if placed now: the branch's preparation time plus its announced delay; a scheduled order at its time. */
  ready: ReadyEstimate;
  /** The time the customer asked for (null: as soon as possible) and the time the order is for (domain/orderTime.ts). */
  scheduledFor: Date | null;
  orderTime: Date;
  /** The status it is placed in: `scheduled` while its fire time is ahead (domain/orderTime.ts firesLater), else pending. */
  status: 'scheduled' | 'pending';
  /** Its place in a time slot (server/orders/slots.ts), checked when it is written. */
  slot: SlotClaim;
}

const clean = (s: string | null | undefined) => s?.trim() || null;
/** A time as the branch's customers read it: Kuwait's clock, with the day when it is not today. */
export const kuwaitTime = (at: Date) => formatMoment(at, { hour: '2-digit', minute: '2-digit', ...(at.getTime() - Date.now() > 20 * 3600_000 ? { weekday: 'short' } : {}) });

/**
 * Checks an order request against the database and prices it there. Nothing the client says
 * about money is used: prices, options, taxes, the delivery fee, the discount and the points all
 * come from the database. Any problem is a 400 with a message the shop shows as is.
 */
export async function planOrder(db: Db, ctx: AppContext, caller: NonNullable<Caller>, body: SaveNewOrderInput, catalog: BranchCatalog): Promise<OrderPlan> {
  if (!body.products.length) throw badRequest(ORDER_TEXT.emptyCart);
  const deliverySystem = modeOf(body);
  const guest = caller.isGuest ? guestDetails(body) : null;

  // Brand and branch: orderable, not busy, open by its online-ordering schedule.
  const branchId = body.deliveryOptions.branchId;
  const { branch, schedule } = catalog;
  if (!branch || branch.row.brandId !== body.brandId) throw badRequest(ORDER_TEXT.branchNotOfBrand);
  if (!branch.accessible || branch.paused) throw badRequest(ORDER_TEXT.brandClosed);
  // Busy until its end time: exact even before the timed work has switched the flag off. An order
  // for later is refused only for a time before the busy end; it is held to the schedule at its time.
  const busyMode = busyModeOf({ ...branch.row, branchId });
  const { now, scheduledFor, orderTime, slot, status } = timeOf(body, branch.row, deliverySystem, orderingWindows(schedule, branch.row));
  if (busyMode.isBusy && (!scheduledFor || !busyMode.busyUntil || scheduledFor < new Date(busyMode.busyUntil))) throw badRequest(ORDER_TEXT.busy);
  if (!scheduledFor && !isOpenAt(slot.windows, now)) throw badRequest(ORDER_TEXT.closed);
  const brandId = body.brandId;

  // Payment method: enabled for the brand, with an adapter for its provider; or the customer's wallet.
  const byWallet = body.payWithWallet === true;
  if (byWallet && caller.isGuest) throw badRequest(ORDER_TEXT.walletGuest);
  const paymentSystemId = byWallet ? WALLET_PAYMENT_METHOD_ID : body.paymentSystem ?? DEFAULT_PAYMENT_METHOD_ID;
  const providerName = catalog.paymentProviders.get(paymentSystemId);
  const provider = byWallet ? walletPayment : providerName ? paymentProviderFor(providerName, ctx.config) : null;
  if (!provider) throw badRequest(ORDER_TEXT.paymentUnavailable);

  // Menus by time of day are evaluated at the order's time (domain/orderTime.ts orderTimeOf).
  const lines = priceLines(catalog, body, brandId, caller, orderTime);
  const points = lines.reduce((sum, l) => sum + l.points, 0);
  if (points > 0) {
    const [wallet] = await db.select({ points: customerWallets.points }).from(customerWallets)
      .where(and(eq(customerWallets.userId, caller.id), eq(customerWallets.brandId, brandId)));
    if ((wallet?.points ?? 0) < points) throw badRequest(ORDER_TEXT.notEnoughPoints);
  }
  await checkFreeItemLines(db, caller, brandId, branchId, lines);
  const subtotal = lines.reduce((sum, l) => sum + l.lineTotal, 0);

  // Discount: only the percent of a group of this brand that the caller belongs to.
  let discountPercent = 0, discountGroupId: number | null = null;
  if (body.isDiscounted) {
    const [group] = body.discountGroupId
      ? await db.select({ id: customerGroups.id, percent: customerGroups.discountPercent }).from(customerGroups)
        .innerJoin(customerGroupMembers, eq(customerGroupMembers.groupId, customerGroups.id))
        .where(and(eq(customerGroups.id, body.discountGroupId), eq(customerGroups.brandId, brandId), eq(customerGroupMembers.userId, caller.id)))
      : [];
    if (!group || caller.isGuest) throw badRequest(ORDER_TEXT.noDiscount);
    discountPercent = Number(group.percent);
    discountGroupId = group.id;
  }

  let deliveryFee: Fils = 0, deliveryAddressId: number | null = null, deliveryAddress: OrderPlan['deliveryAddress'] = null;
  if (deliverySystem === 'delivery') {
    ({ deliveryAddressId, deliveryAddress } = await deliveryAddressOf(db, caller, body));
    const quote = await deliveryQuote(db, brandId, deliveryAddress.areaId, subtotal);
    if (!quote) throw badRequest(NOT_DELIVERING);
    deliveryFee = quote.fee;
  }

  let carId: number | null = null, carDetails: string | null = null;
  if (deliverySystem === 'carService') {
    const [car] = body.carId && !caller.isGuest ? await carsOf(db, caller.id, body.carId) : [];
    if (car) [carId, carDetails] = [car.id, describeCar(car)];
    else carDetails = clean(body.carDetails);
    if (!carDetails) throw badRequest(ORDER_TEXT.noCar);
  }

  const { taxPercents } = catalog;
  const totals = orderTotals({ lineTotals: lines.map((l) => l.lineTotal), discountPercent, taxPercents, deliveryFee });
  // The wallet pays the whole total or nothing (the ledger checks again when it spends it).
  if (byWallet && await walletBalanceOf(db, caller.id, brandId) < totals.total) throw badRequest(ORDER_TEXT.walletNotEnough);

  return {
    catalogVersion: catalog.version, brandId, branchId, merchantName: branch.brandName, currency: branch.currency, deliverySystem, paymentSystemId, provider, lines,
    totals, points, wallet: byWallet ? totals.total : 0, freeItems: lines.filter((l) => l.redeemItem).length, discountGroupId, guest, deliveryAddressId, deliveryAddress, carId, carDetails, deliveryText: clean(body.deliveryText),
    specialRemarks: clean(body.specialRemarks), promoCode: clean(body.promoCode),
    ready: scheduledFor ? { minutes: Math.round((scheduledFor.getTime() - now.getTime()) / 60_000), readyAt: scheduledFor }
      : readyEstimate({ preparationMinutes: branch.row.preparationMinutes, delayMinutes: busyMode.delayMinutes }, now),
    scheduledFor, orderTime, slot, status,
  };
}

/** The order's time (domain/orderTime.ts): a requested time is checked (400), and the order's place in a slot found. */
function timeOf(body: SaveNewOrderInput, branch: NonNullable<BranchCatalog['branch']>['row'], mode: DeliverySystem, windows: SlotClaim['windows']) {
  const now = new Date();
  const scheduledFor = body.scheduledFor ? new Date(body.scheduledFor) : null;
  if (scheduledFor) {
    const problem = Number.isNaN(scheduledFor.getTime()) ? 'closed' : scheduledForProblem(scheduledFor, now, branch.preparationMinutes, windows);
    if (problem === 'tooSoon') throw badRequest(ORDER_TIME_TEXT.tooSoon(kuwaitTime(earliestOrderTime(now, branch.preparationMinutes))));
    if (problem === 'tooFar') throw badRequest(ORDER_TIME_TEXT.tooFar);
    if (problem === 'closed') throw badRequest(ORDER_TIME_TEXT.closedThen);
  }
  const orderTime = orderTimeOf({ scheduledFor }, now, branch.preparationMinutes);
  const { slotMinutes, maxOrders } = slotSettingsOf(branch, mode);
  const slot: SlotClaim = {
    branchId: branch.id, mode, slot: slotOf(orderTime, slotMinutes), slotMinutes, maxOrders, inProgressMax: scheduledFor ? null : branch.inProgressMax,
    windows, earliest: earliestOrderTime(now, branch.preparationMinutes),
  };
  const status = firesLater(scheduledFor, now, branch.preparationMinutes) ? 'scheduled' as const : 'pending' as const;
  return { now, scheduledFor, orderTime, slot, status };
}

/**
 * planOrder on the branch's cached catalog (server/orders/menuCache.ts). A refusal is answered
 * only when the catalog it came from is still the current one; otherwise the order is planned
 * again on the new rows. `current: true` first reads the catalog's version, so the plan is never
 * older than the request (a quote, which writes nothing that could check it afterwards).
 */
export async function planOnCatalog(ctx: AppContext, caller: NonNullable<Caller>, body: SaveNewOrderInput, opts: { current?: boolean } = {}): Promise<OrderPlan> {
  const cache = menuCacheOf(ctx.db);
  if (opts.current) await cache.currentVersion();
  for (let checked = false; ; checked = true) {
    const catalog = await cache.catalogOf(body.deliveryOptions.branchId);
    try {
      return await planOrder(ctx.db, ctx, caller, body, catalog);
    } catch (err) {
      if (checked || !(err instanceof ApiError) || await cache.currentVersion() === catalog.version) throw err;
    }
  }
}

/** Pickup unless one other mode is chosen (SPEC.md 4: pick-up is the default mode). */
function modeOf(body: SaveNewOrderInput): DeliverySystem {
  const o = body.deliveryOptions;
  const delivery = !!(o.isHomeDeliver || o.isworkdeliver || o.isDeliveryNeed);
  const modes = [o.isPickup && 'pickup', o.isCarService && 'carService', delivery && 'delivery'].filter(Boolean) as DeliverySystem[];
  if (modes.length > 1) throw badRequest(ORDER_TEXT.oneMode);
  return modes[0] ?? 'pickup';
}

/** The guest (user 18) orders with a name and a valid phone (SPEC.md 5, in its words). */
function guestDetails(body: SaveNewOrderInput) {
  const errors: ValidationError[] = [];
  const name = clean(body.guestCustomerName);
  const phoneText = clean(body.guestPhoneNumber);
  const phone = phoneText ? normalisePhone(phoneText) : null;
  if (!phoneText) errors.push({ message: TEXT.guest.phoneRequired, members: ['guestPhoneNumber'] });
  else if (!phone || !isValidPhone(phone)) errors.push({ message: TEXT.guest.invalidPhone, members: ['guestPhoneNumber'] });
  if (!name) errors.push({ message: TEXT.guest.nameRequired, members: ['guestCustomerName'] });
  if (errors.length) throw badRequest(errors[0].message, errors);
  return { name: name!, phone: phone!, email: clean(body.guestCustomerEmail) };
}

/** The line the customer must remove: the 400 names it (`products[i]`), so the shop marks that line instead of refusing the whole order. */
export const SOLD_OUT_MEMBER = (index: number) => `products[${index}]`;
const soldOut = (index: number, message: string) => badRequest(message, [{ message, members: [SOLD_OUT_MEMBER(index)] }]);

function priceLines({ menu }: BranchCatalog, body: SaveNewOrderInput, brandId: number, caller: NonNullable<Caller>, at: Date): PlannedLine[] {
  const inRange = (q: number) => Number.isInteger(q) && q >= QUANTITY.cart.min && q <= QUANTITY.cart.max;
  return body.products.map((line, index) => {
    const entry = menu.get(line.productId);
    if (!entry || entry.product.brandId !== brandId) throw badRequest(ORDER_TEXT.notOnMenu(line.productId));
    const product = entry.product;
    if (!entry.available) throw naming(soldOut(index, entry.unavailableUntil && !entry.hidden ? ORDER_TEXT.soldOutUntil(product.name, entry.unavailableUntil) : ORDER_TEXT.unavailable(product.name)), product);
    if (!offeredAt(entry, at)) throw naming(soldOut(index, ORDER_TEXT.notOfferedAt(product.name)), product);
    if (!inRange(line.quantity)) throw naming(badRequest(ORDER_TEXT.quantity(product.name)), product);

    const optionsById = new Map(entry.groups.flatMap(({ group, options }) => options.map((o) => [o.item.id, { ...o, group }] as const)));
    const chosen: PlannedOption[] = [];
    for (const addition of line.additions ?? []) {
      const option = optionsById.get(addition.additionId);
      if (!option) throw naming(badRequest(ORDER_TEXT.notAnOption(addition.additionId, product.name)), product);
      if (chosen.some((c) => c.id === option.item.id)) throw naming(badRequest(ORDER_TEXT.twice(option.item.name, product.name)), option.item, product);
      if (!option.available) throw naming(soldOut(index, option.unavailableUntil && !option.item.isHidden ? ORDER_TEXT.soldOutUntil(option.item.name, option.unavailableUntil) : ORDER_TEXT.unavailable(option.item.name)), option.item);
      if (addition.isRedeem) throw badRequest(ORDER_TEXT.additionRedeem);
      const quantity = addition.quantity ?? 1;
      if (!inRange(quantity)) throw naming(badRequest(ORDER_TEXT.quantity(option.item.name)), option.item);
      chosen.push({ id: option.item.id, name: option.item.name, price: Number(option.item.price), quantity, groupId: option.group.id, groupName: option.group.name });
    }
    for (const { group, options } of entry.groups) {
      const picked = chosen.filter((c) => c.groupId === group.id);
      if (!group.allowMultiple && (picked.length > 1 || picked.some((c) => c.quantity > 1))) throw naming(badRequest(ORDER_TEXT.onlyOne(group.name, product.name)), group, product);
      // A required group with every option switched off cannot be chosen, so it does not block the order.
      if (group.isRequired && !picked.length && options.some((o) => o.available)) throw naming(badRequest(ORDER_TEXT.required(group.name, product.name)), group, product);
    }

    // A free item (redeemItem) wins over points: the legacy clients send isRedeem with it.
    const redeemItem = !!line.redeemItem;
    const isRedeem = !!line.isRedeem && !redeemItem;
    if (isRedeem && product.redeemPoints === null) throw naming(badRequest(ORDER_TEXT.notRedeemable(product.name)), product);
    if (isRedeem && caller.isGuest) throw badRequest(ORDER_TEXT.guestRedeem);
    // A redeemed product (points or a free item) is free; the options chosen on it are still paid.
    const optionsPrice = chosen.reduce((sum, c) => sum + toFils(c.price) * c.quantity, 0);
    const unitPrice = (isRedeem || redeemItem ? 0 : toFils(product.price)) + optionsPrice;
    return {
      productId: product.id, name: product.name, quantity: line.quantity, unitPrice, lineTotal: unitPrice * line.quantity,
      isRedeem, redeemItem, points: isRedeem ? product.redeemPoints! * line.quantity : 0, options: chosen,
    };
  });
}

/**
 * One of the caller's saved addresses, else the address typed at checkout; validated either way.
 * The guest always sends its address with the order: a stored user-18 address could be another guest's.
 */
async function deliveryAddressOf(db: Db, caller: NonNullable<Caller>, body: SaveNewOrderInput) {
  const id = body.deliveryOptions.deliveryAddressId;
  const [saved] = id && id > 0 && !caller.isGuest ? await addressesOf(db, caller.id, id) : [];
  if (saved) {
    // Held to the brand's fields as they are now: the address may predate them, or be for another brand.
    const missing = missingAddressFields(await brandAddressFormOf(db, body.brandId), saved);
    if (missing.length) throw badRequest(ORDER_TEXT.addressIncomplete, missing.map((m) => ({ message: m.message, members: [m.fieldName] })));
    const { userId: _owner, ...snapshot } = saved;
    return { deliveryAddressId: saved.id, deliveryAddress: snapshot };
  }
  if (!body.customerDeliveryAddress) throw badRequest(ORDER_TEXT.noAddress);
  return { deliveryAddressId: null, deliveryAddress: addressSnapshot(await validateAddress(db, body.customerDeliveryAddress, body.brandId), null) };
}

