import { Link } from 'wouter';
import { useSelector } from '@xstate/react';
import { selectBrands, selectBrandsError, selectBrandsPending } from '../../../machines/branchChange';
import { BrandPicker, BranchHours } from '../picker/BrandPicker';
import { BranchChangeDialog } from '../picker/BranchChangeDialog';
import { ProductList } from './ProductList';
import { BrandNews, CurrentBrandNews } from './BrandNews';
import { useGatewayQuery } from '../../lib/gateway';
import { useBranchChange, useCart, useShop } from '../shopContext';
import { money, t } from '../../i18n';
import { OrderTimeChoiceOf } from '../OrderTimePicker';
import { chooseWhen, useChosenWhen } from '../chosenWhen';

/**
 * The order's time on the menu (issue 25): the menu is read at it, so planning tomorrow's breakfast
 * tonight shows the breakfast menu. The slots shown are pickup's (the mode is chosen at checkout,
 * which keeps this time and checks it again for its mode).
 */
function MenuTime({ branchId }: { branchId: number }) {
  return <OrderTimeChoiceOf when={useChosenWhen()} branchId={branchId} mode="pickup" disabled={false} onChange={chooseWhen} />;
}

/** `/` and `/products`: the brand and branch picker, then the chosen branch's menu. */
export default function MenuPage() {
  const branchChange = useBranchChange();
  const shop = useShop();
  const brands = useSelector(branchChange, selectBrands);
  const loading = useSelector(branchChange, selectBrandsPending);
  const error = useSelector(branchChange, selectBrandsError);
  const cart = useCart();
  const news = useGatewayQuery(CurrentBrandNews, { variables: { brandId: shop.brandId }, skip: !shop.brandId, context: { silent: true } });
  // The menu shows once what sits above it (the picker's brands, the branch line, the news) is known,
  // so it never moves down under the customer's eyes (Lighthouse's layout shift). Its read starts at once.
  const settled = (!loading || brands.length > 0 || !!error) && !news.loading;
  const brand = brands.find((b) => b.id === shop.brandId);
  const branch = brand?.branches.find((b) => b.id === shop.branchId);
  return (
    <div className={`menu-page${cart.isEmpty ? '' : ' has-cart-bar'}`}>
      <section className="shop-section menu-page__picker">
        <h1 className="shop-title">{t('menu.chooseBranch')}</h1>
        <BrandPicker
          brands={brands}
          loading={loading}
          error={error}
          selectedBranchId={shop.branchId}
          onPick={(b, br) => branchChange.send({ type: 'branch.pick', brandId: b.id, branchId: br.id, currency: b.currency })}
        />
        {!cart.isEmpty && (
          <Link href="/cart" className="shop-button view-cart">
            <span>{t('menu.viewCart')}</span>
            <span className="view-cart__meta">{t('menu.items', { count: cart.count })} · {money(cart.total, shop.currency)}</span>
          </Link>
        )}
      </section>
      <section className="menu-page__menu" aria-label={t('layout.menu')} hidden={!settled}>
        {brand && branch && (
          <header className="menu-branch">
            <div>
              <h2 className="menu-branch__name">{brand.name} · {branch.name}</h2>
              <BranchHours branch={branch} className="shop-muted" busy={t('menu.busyNow')} />
            </div>
            <Link href="/branch/BranchDetails" className="shop-link">{t('menu.branchDetails')}</Link>
          </header>
        )}
        {shop.brandId ? <BrandNews data={news.data} /> : null}
        {shop.branchId ? <div className="menu-when"><MenuTime branchId={shop.branchId} /></div> : null}
        <ProductList brandId={shop.brandId} branchId={shop.branchId} currency={shop.currency} />
      </section>
      <BranchChangeDialog />
    </div>
  );
}
