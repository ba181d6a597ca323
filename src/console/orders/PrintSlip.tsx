import './print.css';
import { createPortal } from 'react-dom';
import type { StaffOrderRow } from './provideBoard';
import type { StaffOrderDetailQuery } from '../../gql/graphql';
import { MODE_LABEL } from './format';
import { formatMoney } from '../../../domain/money';
import { formatMoment } from '../../../domain/time';

/** The kitchen's ticket (what to make, no prices) or the customer's receipt (what was paid). */
export type SlipKind = 'ticket' | 'receipt';
export type StaffOrderDetailData = NonNullable<StaffOrderDetailQuery['order']>;

const slipTime = (iso: string) => formatMoment(iso, { day: '2-digit', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });

/**
 * The slip is drawn outside the app (a direct child of <body>) so that print.css can hide every
 * other child of <body> (the app and Blueprint's portals, the drawer among them) when printing,
 * and show only the slip. On screen it is never visible.
 */
export function PrintSlip({ kind, row, detail }: { kind: SlipKind; row: StaffOrderRow; detail: StaffOrderDetailData }) {
  const items = detail.items.filter((i) => !!i).map((i) => i!);
  const address = detail.deliveryAddress;
  return createPortal(
    <div className="print-slip-root">
      <article className={`print-slip print-slip-${kind}`} data-testid="print-slip" data-kind={kind}>
        {kind === 'ticket' ? (
          <>
            <header className="print-slip-head">
              <div className="print-slip-big">{row.orderNumber}</div>
              <div>Order #{row.id}</div>
              <div className="print-slip-big">{MODE_LABEL[row.deliverySystem] ?? row.deliverySystem}</div>
              {row.carDetails && <div>Car: {row.carDetails}</div>}
              {address && <div>{[address.area, `Block ${address.block}`, `Street ${address.street}`, `House ${address.house_no}`].filter(Boolean).join(', ')}</div>}
              <div>Placed {slipTime(row.createdAt)}</div>
            </header>
            <ul className="print-slip-lines">
              {items.map((item, i) => (
                <li key={i}>
                  <span className="print-slip-qty">{item.quantity}×</span> <span className="print-slip-name">{item.name}</span>
                  {item.options.filter((o) => !!o).map((o) => <div key={o!.id} className="print-slip-option">+ {o!.name}{o!.quantity > 1 ? ` ×${o!.quantity}` : ''}</div>)}
                </li>
              ))}
            </ul>
            {row.specialRemarks && <p className="print-slip-remarks">Remarks: {row.specialRemarks}</p>}
          </>
        ) : (
          <>
            <header className="print-slip-head print-slip-center">
              <div className="print-slip-big">{row.brandName}</div>
              <div>{detail.branchName || row.branchName}</div>
              <div>Order {row.orderNumber} · #{row.id}</div>
              <div>{slipTime(row.createdAt)}</div>
            </header>
            <table className="print-slip-table">
              <tbody>
                {items.map((item, i) => (
                  <tr key={i}>
                    <td>
                      {item.quantity}× {item.name}
                      {item.options.filter((o) => !!o).map((o) => <div key={o!.id} className="print-slip-option">+ {o!.name}{o!.quantity > 1 ? ` ×${o!.quantity}` : ''}</div>)}
                    </td>
                    <td className="print-slip-amount">{item.isRedeem ? 'Redeemed' : formatMoney(item.lineTotal)}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr><td>Subtotal</td><td className="print-slip-amount">{formatMoney(detail.subtotal)}</td></tr>
                <tr><td>Tax</td><td className="print-slip-amount">{formatMoney(detail.tax)}</td></tr>
                <tr><td>Delivery fee</td><td className="print-slip-amount">{formatMoney(detail.deliveryFee)}</td></tr>
                <tr><td>Discount</td><td className="print-slip-amount">{detail.discount > 0 ? `−${formatMoney(detail.discount)}` : formatMoney(0)}</td></tr>
                <tr className="print-slip-total"><td>Total</td><td className="print-slip-amount">{formatMoney(detail.total)}</td></tr>
              </tfoot>
            </table>
            <footer className="print-slip-foot">
              <div>Payment: {detail.paymentSystemName || '—'}</div>
              <div>Status: {row.payment === 'paid' ? 'Paid' : 'Unpaid'}</div>
            </footer>
          </>
        )}
      </article>
    </div>,
    document.body,
  );
}
