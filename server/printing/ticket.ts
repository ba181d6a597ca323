import { asc, eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { optionItems, orderItems, orders, productSubtypes, products } from '../db/schema';
import { DELIVERY_LABELS } from '../../machines/orderLifecycle';
import { clockText, formatMoment } from '../../domain/time';
import type { LanguageCode } from '../../domain/languages';

/**
 * A kitchen ticket: what to make, no prices (as the console's PrintSlip 'ticket'), in the
 * printer's language. Lines are plain text; server/printing/render.ts draws them.
 */
export interface Ticket {
  language: LanguageCode;
  /** Right to left (Arabic): render.ts aligns and shapes the lines that way. */
  rtl: boolean;
  lines: TicketLine[];
}
/** `indent`: under the line before (an item's options); `rule`: a line across the roll instead of text. */
export interface TicketLine { text: string; size: 'big' | 'normal' | 'small'; bold?: boolean; indent?: boolean; rule?: boolean }

type Labels = {
  modes: Record<string, string>; order: string; asap: string; scheduled: string; placed: string; remarks: string; car: string;
  address: string; reprint: string; block: string; street: string; house: string;
};
/** The ticket's words. Times keep Latin digits in both languages: what a busy kitchen reads fastest. */
export const TICKET_LABELS: Record<LanguageCode, Labels> = {
  en: {
    modes: { ...DELIVERY_LABELS }, order: 'Order', asap: 'ASAP', scheduled: 'For', placed: 'Placed', remarks: 'Remarks', car: 'Car',
    address: 'Address', reprint: 'REPRINT', block: 'Block', street: 'Street', house: 'House',
  },
  ar: {
    modes: { pickup: 'استلام من الفرع', carService: 'خدمة السيارة', delivery: 'توصيل' }, order: 'طلب', asap: 'في أقرب وقت', scheduled: 'الموعد',
    placed: 'وقت الطلب', remarks: 'ملاحظات', car: 'السيارة', address: 'العنوان', reprint: 'إعادة طباعة',
    block: 'قطعة', street: 'شارع', house: 'منزل',
  },
};

interface ItemOption { id?: number; name?: string; quantity?: number }
type Address = Record<string, unknown> | null;

/**
 * The ticket of one order for one printer: only the items of the product types the printer prints
 * (all of them when it names none). Null when none of the order's items is for this printer.
 */
export async function ticketFor(
  db: Db | Tx, orderId: number, printer: { productTypeIds: number[]; language: string }, kind: string,
): Promise<Ticket | null> {
  const [order] = await db.select({
    id: orders.id, orderNumber: orders.orderNumber, deliverySystem: orders.deliverySystem, createdAt: orders.createdAt, scheduledFor: orders.scheduledFor,
    carDetails: orders.carDetails, deliveryAddress: orders.deliveryAddress, specialRemarks: orders.specialRemarks,
  }).from(orders).where(eq(orders.id, orderId));
  if (!order) return null;
  const language: LanguageCode = printer.language === 'ar' ? 'ar' : 'en';
  const ar = language === 'ar';
  const items = (await db.select({
    name: orderItems.name, nameAr: products.nameAr, quantity: orderItems.quantity, options: orderItems.options, typeId: productSubtypes.typeId,
  }).from(orderItems)
    .innerJoin(products, eq(products.id, orderItems.productId))
    .innerJoin(productSubtypes, eq(productSubtypes.id, products.subtypeId))
    .where(eq(orderItems.orderId, orderId))
    .orderBy(asc(orderItems.id)))
    .filter((i) => !printer.productTypeIds.length || printer.productTypeIds.includes(i.typeId));
  if (!items.length) return null;

  // Option names are copies taken at the order; their Arabic names come from the menu (null: the copy).
  const optionIds = items.flatMap((i) => (i.options as ItemOption[]).map((o) => o.id).filter((id): id is number => typeof id === 'number'));
  const optionAr = new Map(ar && optionIds.length
    ? (await db.select({ id: optionItems.id, nameAr: optionItems.nameAr }).from(optionItems).where(inArray(optionItems.id, optionIds))).map((o) => [o.id, o.nameAr])
    : []);

  const t = TICKET_LABELS[language];
  const lines: TicketLine[] = [];
  if (kind !== 'ticket') lines.push({ text: `*** ${t.reprint} ***`, size: 'normal', bold: true });
  lines.push({ text: `${t.order} ${order.orderNumber}`, size: 'big', bold: true });
  lines.push({ text: `#${order.id} · ${t.modes[order.deliverySystem] ?? order.deliverySystem}`, size: 'normal', bold: true });
  // An order for later (issue 25) names its day and time (dd/mm HH:MM, Latin digits in both languages); else as soon as possible.
  const when = order.scheduledFor ? `${t.scheduled} ${formatMoment(order.scheduledFor, { day: '2-digit', month: '2-digit' })} ${clockText(order.scheduledFor)}` : t.asap;
  lines.push({ text: `${when} · ${t.placed} ${clockText(order.createdAt)}`, size: 'normal', bold: !!order.scheduledFor });
  if (order.carDetails) lines.push({ text: `${t.car}: ${order.carDetails}`, size: 'normal' });
  const address = addressText(order.deliveryAddress as Address, t);
  if (address) lines.push({ text: `${t.address}: ${address}`, size: 'normal' });
  lines.push({ text: '', size: 'small', rule: true });
  for (const item of items) {
    lines.push({ text: `${item.quantity} × ${(ar && item.nameAr) || item.name}`, size: 'big', bold: true });
    for (const o of item.options as ItemOption[]) {
      const name = (ar && o.id !== undefined && optionAr.get(o.id)) || o.name || '';
      lines.push({ text: `+ ${name}${(o.quantity ?? 1) > 1 ? ` × ${o.quantity}` : ''}`, size: 'normal', indent: true });
    }
  }
  if (order.specialRemarks) {
    lines.push({ text: '', size: 'small', rule: true });
    lines.push({ text: `${t.remarks}: ${order.specialRemarks}`, size: 'normal', bold: true });
  }
  return { language, rtl: ar, lines };
}

function addressText(a: Address, t: Labels): string {
  if (!a) return '';
  const part = (key: string) => (a[key] === undefined || a[key] === null || a[key] === '' ? '' : String(a[key]));
  return [
    part('area'), part('block') && `${t.block} ${part('block')}`, part('street') && `${t.street} ${part('street')}`,
    part('house_no') && `${t.house} ${part('house_no')}`, part('instructions'),
  ].filter(Boolean).join(t === TICKET_LABELS.ar ? '، ' : ', ');
}
