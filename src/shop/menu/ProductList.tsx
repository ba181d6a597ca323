import { Link } from 'wouter';
import { graphql } from '../../gql';
import { dateTime, money, t } from '../../i18n';
import { useGatewayQuery } from '../../lib/gateway';

export const BranchProducts = graphql(`
  query BranchProducts($brandId: Int!, $branchId: Int!) {
    Products_GetProductsGroupedByTypeAndSubtypeAsCustomerForMangoes(brandId: $brandId, branchId: $branchId) {
      id name
      subtypes { id name products { id name description price productImage productDeliveryText available unavailableUntil } }
    }
  }
`);

/** How a product the branch cannot sell right now reads: sold out until a time, or simply unavailable. */
export function unavailableText(until: string | null | undefined): string {
  if (!until) return t('menu.unavailable');
  return t('menu.soldOutUntil', { time: dateTime(until, { hour: '2-digit', minute: '2-digit' }) });
}

/** A branch's products grouped by type and subtype; one the branch has switched off shows as unavailable. */
export function ProductList({ brandId, branchId, currency }: { brandId: number; branchId: number; currency: string }) {
  const { data, loading, error } = useGatewayQuery(BranchProducts, { variables: { brandId, branchId } });
  const types = data?.Products_GetProductsGroupedByTypeAndSubtypeAsCustomerForMangoes ?? [];
  if (loading && !types.length) return <p className="shop-muted" role="status">{t('menu.loadingMenu')}</p>;
  if (error && !types.length) return <p className="shop-error" role="alert">{t('menu.menuFailed')}</p>;
  if (!types.length) return <p className="shop-muted">{t('menu.noProducts')}</p>;
  return (
    <div className="menu" data-testid="product-list">
      {types.map((type) => type && (
        <section key={type.id} className="menu-type">
          <h2>{type.name}</h2>
          {type.subtypes.map((sub) => sub && (
            <div key={sub.id} className="menu-subtype">
              <h3>{sub.name}</h3>
              <ul className="menu-grid">
                {sub.products.map((p) => p && (
                  <li key={p.id}>
                    <Link href={`/product-detail/${p.id}`} className={`product-card${p.available ? '' : ' is-unavailable'}`}>
                      {p.productImage && <img src={p.productImage} alt="" loading="lazy" />}
                      <span className="product-card__body">
                        <strong>{p.name}</strong>
                        <span className="shop-muted product-card__desc">{p.description}</span>
                        <span className="product-card__price">{money(p.price, currency)}</span>
                        {!p.available && <span className="product-card__unavailable">{unavailableText(p.unavailableUntil)}</span>}
                      </span>
                    </Link>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </section>
      ))}
    </div>
  );
}
