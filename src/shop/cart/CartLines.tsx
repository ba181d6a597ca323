import { QUANTITY } from '../../../domain/constants';
import { fromFils } from '../../../domain/money';
import { joinList, money, t } from '../../i18n';
import { itemTotalFils, type CartItem } from '../../../machines/cart';
import { QuantityStepper } from '../components/QuantityStepper';
import './soldOut.css';

/**
 * The cart's items; with `onQuantity`/`onRemove` they can be changed (the cart), without them they are read-only (review, checkout).
 * A line whose product is in `soldOut` is marked, with a Remove button wherever `onRemove` is given (checkout too);
 * one also in `offHours` says it is not on the menu at the order's time (menus by time of day) instead of sold out.
 */
export function CartLines({ items, currency, onQuantity, onRemove, soldOut = [], offHours = [] }: {
  items: CartItem[];
  currency: string;
  onQuantity?(key: string, quantity: number): void;
  onRemove?(key: string): void;
  soldOut?: readonly number[];
  offHours?: readonly number[];
}) {
  return (
    <ul className="cart-lines" aria-label={t('cart.items')}>
      {items.map((item) => (
        <li key={item.key} className={`cart-line${soldOut.includes(item.product.id) ? ' is-sold-out' : ''}`} data-testid="cart-line">
          {item.product.productImage ? <img src={item.product.productImage} alt="" width={64} height={64} /> : <span className="cart-line__noimg" />}
          <div className="cart-line__body">
            <strong className="cart-line__name">{item.product.name}</strong>
            {soldOut.includes(item.product.id) && (
              <span className="cart-line__sold-out" role="alert" data-testid="sold-out">
                {offHours.includes(item.product.id)
                  ? <><strong className="shop-badge">{t('cart.offHours')}</strong> {t('cart.offHoursRemove', { name: item.product.name })}</>
                  : <><strong className="shop-badge">{t('cart.soldOut')}</strong> {t('cart.soldOutRemove', { name: item.product.name })}</>}
              </span>
            )}
            {item.selected_options.length > 0 && <span className="shop-muted cart-line__options">{joinList(item.selected_options.map((o) => o.name))}</span>}
            <span className="shop-muted cart-line__unit">{t('cart.each', { price: money(fromFils(itemTotalFils({ ...item, product: { ...item.product, Quantity: 1 } })), currency) })}</span>
            <div className="cart-line__controls">
              {onQuantity ? (
                <QuantityStepper size="small" value={item.product.Quantity} min={QUANTITY.cart.min} max={QUANTITY.cart.max}
                  onChange={(q) => onQuantity(item.key, q)} label={t('product.quantityOf', { name: item.product.name })} />
              ) : <span className="cart-line__qty">× {item.product.Quantity}</span>}
              {onRemove && (onQuantity || soldOut.includes(item.product.id)) && <button type="button" className="shop-link" onClick={() => onRemove(item.key)} aria-label={t('cart.removeName', { name: item.product.name })}>{t('cart.remove')}</button>}
            </div>
          </div>
          <span className="cart-line__total" data-testid="cart-line-total">{money(fromFils(itemTotalFils(item)), currency)}</span>
        </li>
      ))}
    </ul>
  );
}

export function CartTotal({ total, currency, note }: { total: number; currency: string; note?: string }) {
  return (
    <div className="cart-total">
      <span>{t('cart.subtotal')}</span>
      <strong data-testid="cart-total">{money(total, currency)}</strong>
      {note && <span className="shop-muted cart-total__note">{note}</span>}
    </div>
  );
}
