import { Button, ButtonGroup, Classes, Drawer, HTMLTable, NonIdealState, Position, Spinner, Tag } from '@blueprintjs/core';
import { useEffect, useState } from 'react';
import { flushSync } from 'react-dom';
import { useQuery } from '@apollo/client/react';
import type { OrderActionDetails, OrderActorRef } from '../../../machines/orderBoard';
import type { OrderEventType, OrderLifecycleEvent } from '../../../machines/orderLifecycle';
import { errorMessage } from '../../lib/errors';
import type { StaffOrderRow } from './provideBoard';
import { StaffOrderDetail } from './operations';
import { ARRIVAL_LABEL, MODE_LABEL, REFUND_LABEL, STATUS_INTENT, STATUS_LABEL, paymentLabel, placedAt } from './format';
import { formatMoney } from '../../../domain/money';
import { OrderActions } from './OrderActions';
import { OrderRefunds } from './OrderRefunds';
import { OrderReceipt } from './OrderReceipt';
import { PrintSlip, type SlipKind } from './PrintSlip';
import { OrderPrinting } from '../printers/OrderPrinting';
import { DocumentIcon, PrintIcon } from '@blueprintjs/icons';

export interface OrderDrawerProps {
  row: StaffOrderRow | null;
  order: OrderActorRef | undefined;
  role: string | null;
  acting?: OrderEventType;
  onClose: () => void;
  onAct: (orderId: number, event: OrderLifecycleEvent, details?: OrderActionDetails) => void;
}

/** One order's details and items, with its actions. Opening it is what marks the order read (the board does that). */
export function OrderDrawer({ row, order, role, acting, onClose, onAct }: OrderDrawerProps) {
  return (
    <Drawer isOpen={!!row} onClose={onClose} position={Position.RIGHT} size="480px" title={row ? `Order #${row.id} · ${row.orderNumber}` : ''} className="order-drawer">
      {row && (
        <div className={Classes.DRAWER_BODY}>
          <div className={Classes.DIALOG_BODY}>
            <div className="order-drawer-tags">
              <Tag intent={STATUS_INTENT[row.status]}>{STATUS_LABEL[row.status] ?? row.status}</Tag>
              <Tag minimal intent={row.payment === 'paid' ? 'success' : 'none'}>{paymentLabel(row)}</Tag>
              <Tag minimal>{MODE_LABEL[row.deliverySystem] ?? row.deliverySystem}</Tag>
              {ARRIVAL_LABEL[row.arrival] && <Tag minimal>{ARRIVAL_LABEL[row.arrival]}</Tag>}
              {REFUND_LABEL[row.refund] && <Tag minimal intent="warning">{REFUND_LABEL[row.refund]}</Tag>}
            </div>
            {order && <div className="order-drawer-actions"><OrderActions orderId={row.id} order={order} role={role} acting={acting} onAct={onAct} size="medium" isCash={row.isCash} /></div>}
            {row.payment === 'paid' && <OrderRefunds orderId={row.id} role={role} version={row.version} />}
            <OrderReceipt orderId={row.id} version={row.version} />
            <OrderPrinting orderId={row.id} branchId={row.branchId} status={row.status} version={row.version} role={role} />
            <OrderDetail row={row} />
          </div>
        </div>
      )}
    </Drawer>
  );
}

function OrderDetail({ row }: { row: StaffOrderRow }) {
  const { data, loading, error } = useQuery(StaffOrderDetail, { variables: { orderId: row.id }, fetchPolicy: 'cache-first', context: { silent: true } });
  const detail = data?.order;
  const [slip, setSlip] = useState<SlipKind | null>(null);
  // Another order in the same drawer starts with no slip.
  useEffect(() => setSlip(null), [row.id]);
  // The slip must be in the page before the print dialog snapshots it, hence the synchronous render.
  const print = (kind: SlipKind) => { flushSync(() => setSlip(kind)); window.print(); };
  return (
    <>
      <ButtonGroup className="order-drawer-print">
        <Button icon={<PrintIcon />} text="Print ticket" disabled={!detail} onClick={() => print('ticket')} />
        <Button icon={<DocumentIcon />} text="Print receipt" disabled={!detail} onClick={() => print('receipt')} />
      </ButtonGroup>
      {slip && detail && <PrintSlip kind={slip} row={row} detail={detail} />}
      <HTMLTable compact className="order-facts">
        <tbody>
          <tr><th>Placed</th><td>{placedAt(row.createdAt)}</td></tr>
          {!!row.scheduledFor && <tr><th>For</th><td data-testid="drawer-scheduled-for">{placedAt(String(row.scheduledFor))}</td></tr>}
          <tr><th>Customer</th><td>{row.customerName || '—'}</td></tr>
          <tr><th>Phone</th><td>{row.customerPhone ?? '—'}</td></tr>
          {row.carDetails && <tr><th>Car</th><td>{row.carDetails}</td></tr>}
          {detail?.paymentSystemName && <tr><th>Payment method</th><td>{detail.paymentSystemName}</td></tr>}
          {detail?.deliveryAddress && (
            <tr><th>Address</th><td>{[detail.deliveryAddress.area, `Block ${detail.deliveryAddress.block}`, `Street ${detail.deliveryAddress.street}`, `House ${detail.deliveryAddress.house_no}`, detail.deliveryAddress.instructions].filter(Boolean).join(', ')}</td></tr>
          )}
          {row.specialRemarks && <tr><th>Remarks</th><td>{row.specialRemarks}</td></tr>}
        </tbody>
      </HTMLTable>
      <h4 className="order-items-title">Items</h4>
      {loading && !detail && <Spinner size={20} />}
      {error && <NonIdealState title="The items did not load." description={errorMessage(error)} />}
      {detail && (
        <HTMLTable compact striped className="order-items" data-testid="order-items">
          <thead><tr><th>Item</th><th className="order-num">Qty</th><th className="order-num">Amount</th></tr></thead>
          <tbody>
            {detail.items.filter((i) => !!i).map((item, i) => (
              <tr key={i}>
                <td>
                  {item!.name}
                  {item!.options.filter((o) => !!o).map((o) => <div key={o!.id} className="order-muted">+ {o!.name}{o!.quantity > 1 ? ` ×${o!.quantity}` : ''}</div>)}
                  {item!.isRedeem && <Tag minimal intent="success">Redeemed</Tag>}
                </td>
                <td className="order-num">{item!.quantity}</td>
                <td className="order-num">{formatMoney(item!.lineTotal)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr><td colSpan={2}>Subtotal</td><td className="order-num">{formatMoney(detail.subtotal)}</td></tr>
            {detail.discount > 0 && <tr><td colSpan={2}>Discount</td><td className="order-num">−{formatMoney(detail.discount)}</td></tr>}
            {detail.tax > 0 && <tr><td colSpan={2}>Tax</td><td className="order-num">{formatMoney(detail.tax)}</td></tr>}
            {detail.deliveryFee > 0 && <tr><td colSpan={2}>Delivery</td><td className="order-num">{formatMoney(detail.deliveryFee)}</td></tr>}
            <tr className="order-total"><td colSpan={2}>Total</td><td className="order-num">{formatMoney(detail.total)}</td></tr>
          </tfoot>
        </HTMLTable>
      )}
    </>
  );
}
