import { useEffect, useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { graphql } from '../../gql';
import { QUANTITY } from '../../../domain/constants';
import { joinList, money, t } from '../../i18n';
import { SignedMoney } from '../components/SignedMoney';
import { storage, KEYS } from '../../lib/storage';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { Loading } from '../../common/Loading';
import { QuantityStepper } from '../components/QuantityStepper';
import { useCart, useShop } from '../shopContext';
import { ImageCarousel } from './ImageCarousel';
import { useTitle } from '../../lib/title';
import { apiErrorOf, statusOf } from '../../lib/errors';
import { orderingText, useChosenBranch, useOrdering } from '../branch/ordering';
import { unavailableText } from '../menu/ProductList';
import { livePrice, missingGroups, selectedOptions, toggleOption, type OptionChoice, type OptionGroup } from './productOptions';
import { menuAt, useChosenWhen } from '../chosenWhen';
import { useGatewayQuery } from '../../lib/gateway';

export const ProductDetail = graphql(`
  query ProductDetail($productid: Int!, $branchId: Int, $at: String) {
    ProductTypesAndSubtypes_GetProductItemWithSubItemDictionarywithProduct(productid: $productid, branchId: $branchId, at: $at) {
      id brandId name description price productImage productSecondImage productThirdImage productDeliveryText available unavailableUntil calories
      optionGroups { id name allowMultiple isRequired subItem { id name price } }
    }
  }
`);

/**
 * /product-detail/:id. A product that could not be reached (offline) is asked for again, afresh, on
 * Retry or when the connection returns.
 */
export default function ProductDetailPage() {
  const [attempt, setAttempt] = useState(0);
  return <ProductView key={attempt} onRetry={() => setAttempt((n) => n + 1)} />;
}

/** Pictures, description, option groups, quantity (2..69) and Add to Cart with the live price. */
function ProductView({ onRetry }: { onRetry(): void }) {
  const { id } = useParams<{ id: string }>();
  const productId = Number(id);
  const shop = useShop();
  const cart = useCart();
  const [, navigate] = useLocation();
  const valid = Number.isInteger(productId) && productId > 0;
  const at = menuAt(useChosenWhen());
  const { data, loading, error } = useGatewayQuery(ProductDetail, {
    variables: { productid: productId, branchId: shop.branchId, at },
    skip: !valid,
    context: { silent: true },
  });
  const product = data?.ProductTypesAndSubtypes_GetProductItemWithSubItemDictionarywithProduct;
  const [choice, setChoice] = useState<OptionChoice>({});
  const [quantity, setQuantity] = useState<number>(QUANTITY.productPage.min);
  // The branch must take online orders now (its schedule, as the order check reads it).
  const ordering = useOrdering(useChosenBranch());
  useTitle(product?.name ?? t('product.title'));

  const images = product ? [product.productImage, product.productSecondImage, product.productThirdImage].filter((x): x is string => !!x) : [];
  useEffect(() => {
    // SPEC.md 3: the product's id, price and images are kept in the browser.
    if (product) storage.setJson(KEYS.product, { id: product.id, price: product.price, images });
  }, [product?.id]); // eslint-disable-line react-hooks/exhaustive-deps

  if (!valid) return <ProductMissing message={t('product.doesNotExist')} />;
  if (loading && !product) return <Loading label={t('product.loading')} />;
  // No answer at all (no status, no server error): the network, not the product.
  if (error && !apiErrorOf(error)) return <ProductOffline onRetry={onRetry} />;
  if (error || !product) {
    // The server's 404 ('There is no such an entity. Product') is not for customers' eyes.
    const message = !error ? t('product.notAvailable')
      : statusOf(error) === 404 ? t('product.gone')
      : errorMessage(error, t('product.failed'));
    return <ProductMissing message={message} />;
  }

  const groups = product.optionGroups.filter((g): g is OptionGroup => !!g).map((g) => ({ ...g, subItem: g.subItem.filter((o): o is NonNullable<typeof o> => !!o) }));
  const missing = missingGroups(groups, choice);
  const price = livePrice(product.price, groups, choice, quantity);
  const add = () => {
    // A line holds at most QUANTITY.cart.max: say what was really added.
    const before = cartQuantityOf(cart.items, product.id, selectedOptions(groups, choice).map((o) => o.id));
    const added = Math.min(quantity, QUANTITY.cart.max - before);
    if (added <= 0) {
      notify('warning', t('product.notAdded'), t('product.atMost', { count: before, name: product.name }));
      return;
    }
    cart.send({
      type: 'cart.add',
      product: { id: product.id, name: product.name, price: product.price, productImage: product.productImage ?? null, productDeliveryText: product.productDeliveryText },
      selected_options: selectedOptions(groups, choice),
      quantity,
    });
    notify('success', t('product.added'), added < quantity
      ? t('product.addedCapped', { added, name: product.name, max: QUANTITY.cart.max })
      : t('product.addedLine', { count: quantity, name: product.name }));
    navigate('/products');
  };

  return (
    <article className="product-detail">
      <nav className="shop-crumbs"><Link href="/products">{t('layout.back')}</Link></nav>
      <div className="product-detail__media"><ImageCarousel images={images} alt={product.name} /></div>
      <div className="product-detail__body">
        <h1 className="shop-title">{product.name}</h1>
        <p className="product-detail__price">{money(product.price, shop.currency)}</p>
        <p className="product-detail__desc">{product.description}</p>
        {product.productDeliveryText && <p className="shop-muted">{product.productDeliveryText}</p>}
        {product.calories != null && <p className="shop-muted" data-testid="product-calories">{t('product.calories', { count: product.calories })}</p>}

        {groups.map((g) => <OptionGroupField key={g.id} group={g} chosen={choice[g.id] ?? []} currency={shop.currency}
          onToggle={(optionId) => setChoice((c) => toggleOption(c, g, optionId))} />)}

        {/* The hints travel with the sticky Add to Cart bar, so they are never hidden under it. */}
        <div className="product-detail__dock">
          {!product.available && <p id="product-unavailable" className="shop-error product-detail__hint" role="status">{t('product.atThisBranch', { reason: unavailableText(product.unavailableUntil) })}</p>}
          {product.available && !ordering.open && <p id="branch-closed" className="shop-error product-detail__hint" role="status" data-testid="product-branch-closed">{orderingText(ordering)}</p>}
          {product.available && ordering.open && missing.length > 0 && <p id="missing-options" className="shop-muted product-detail__hint">{t('product.pleaseChoose', { names: joinList(missing.map((g) => g.name)) })}</p>}
          <div className="product-detail__buy">
            <QuantityStepper value={quantity} min={QUANTITY.productPage.min} max={QUANTITY.productPage.max} onChange={setQuantity} label={t('product.quantityOf', { name: product.name })} />
            {/* A closed branch takes orders for later (issue 25): the checkout then starts at "Later". */}
            <button type="button" className="shop-button shop-button--wide" disabled={missing.length > 0 || !product.available} onClick={add}
              aria-describedby={!product.available ? 'product-unavailable' : !ordering.open ? 'branch-closed' : missing.length ? 'missing-options' : undefined}>
              {ordering.open ? t('product.addToCart') : t('when.orderLater')} <span className="shop-button__price">{money(price, shop.currency)}</span>
            </button>
          </div>
        </div>
      </div>
    </article>
  );
}

function OptionGroupField({ group, chosen, currency, onToggle }: { group: OptionGroup; chosen: number[]; currency: string; onToggle(optionId: number): void }) {
  const type = group.allowMultiple ? 'checkbox' : 'radio';
  return (
    <fieldset className="option-group">
      <legend>
        {group.name}
        <span className={`option-group__badge${group.isRequired ? ' is-required' : ''}`}>{group.isRequired ? t('product.required') : group.allowMultiple ? t('product.chooseAny') : t('product.optional')}</span>
      </legend>
      {group.subItem.map((o) => (
        <label key={o.id} className={`option${chosen.includes(o.id) ? ' is-chosen' : ''}`}>
          <input
            type={type}
            name={`group-${group.id}`}
            checked={chosen.includes(o.id)}
            onChange={() => onToggle(o.id)}
            // A radio never fires change when clicked again; an optional single choice is cleared that way.
            onClick={type === 'radio' && chosen.includes(o.id) && !group.isRequired ? () => onToggle(o.id) : undefined}
          />
          <span className="option__name">{o.name}</span>
          {o.price > 0 && <span className="option__price"><SignedMoney amount={o.price} currency={currency} /></span>}
        </label>
      ))}
    </fieldset>
  );
}

/** How many of this product with exactly these options the cart holds already (one cart line). */
function cartQuantityOf(items: { product: { id: number; Quantity: number }; selected_options: { id: number }[] }[], productId: number, optionIds: number[]) {
  const key = [...optionIds].sort((a, b) => a - b).join(',');
  const line = items.find((i) => i.product.id === productId && i.selected_options.map((o) => o.id).sort((a, b) => a - b).join(',') === key);
  return line?.product.Quantity ?? 0;
}

/** The product could not be reached: Retry, and it loads by itself once the browser is back online. */
function ProductOffline({ onRetry }: { onRetry(): void }) {
  useEffect(() => {
    window.addEventListener('online', onRetry);
    return () => window.removeEventListener('online', onRetry);
  }, [onRetry]);
  const offline = typeof navigator !== 'undefined' && !navigator.onLine;
  return (
    <section className="shop-section shop-empty" data-testid="product-offline">
      <h1 className="shop-title">{offline ? t('offline.title') : t('product.failed')}</h1>
      {offline && <p className="shop-muted" role="status">{t('offline.product')}</p>}
      <button type="button" className="shop-button" onClick={onRetry}>{t('offline.retry')}</button>
    </section>
  );
}

function ProductMissing({ message }: { message: string }) {
  return (
    <section className="shop-section shop-empty">
      <h1 className="shop-title">{t('product.notFound')}</h1>
      <p className="shop-error" role="alert">{message}</p>
      <Link href="/products" className="shop-button">{t('product.backToMenu')}</Link>
    </section>
  );
}
