import { useEffect, useMemo, useRef, useState, type MouseEvent } from 'react';
import { Link } from 'wouter';
import { graphql } from '../../gql';
import { dateTime, money, t } from '../../i18n';
import { useGatewayQuery } from '../../lib/gateway';
import { menuAt, useChosenWhen } from '../chosenWhen';
import { filterMenu } from './menuSearch';

export const BranchProducts = graphql(`
  query BranchProducts($brandId: Int!, $branchId: Int!, $at: String) {
    Products_GetProductsGroupedByTypeAndSubtypeAsCustomerForMangoes(brandId: $brandId, branchId: $branchId, at: $at) {
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

/** A branch's products grouped by type and subtype, with a search by name and category tabs that stay at the top. */
export function ProductList({ brandId, branchId, currency }: { brandId: number; branchId: number; currency: string }) {
  // Read at the order's chosen time (menus by time of day): tomorrow's breakfast is on tomorrow morning's menu.
  const at = menuAt(useChosenWhen());
  const { data, loading, error } = useGatewayQuery(BranchProducts, { variables: { brandId, branchId, at } });
  const types = useMemo(() => (data?.Products_GetProductsGroupedByTypeAndSubtypeAsCustomerForMangoes ?? []).filter((x) => !!x), [data]);
  const [query, setQuery] = useState('');
  const shown = useMemo(() => filterMenu(types, query), [types, query]);
  const found = shown.reduce((n, type) => n + type.subtypes.reduce((m, sub) => m + (sub?.products.length ?? 0), 0), 0);
  if (loading && !types.length) return <p className="shop-muted" role="status">{t('menu.loadingMenu')}</p>;
  if (error && !types.length) return <p className="shop-error" role="alert">{t('menu.menuFailed')}</p>;
  if (!types.length) return <p className="shop-muted">{t('menu.noProducts')}</p>;
  const searching = query.trim() !== '';
  return (
    <div className="menu">
      <div className="menu-search" role="search">
        <input type="search" className="menu-search__input" value={query} onChange={(e) => setQuery(e.target.value)}
          aria-label={t('menuSearch.label')} placeholder={t('menuSearch.label')} enterKeyHint="search" autoComplete="off" spellCheck={false}
          aria-describedby="menu-search-status" data-testid="menu-search" />
        {searching && <button type="button" className="menu-search__clear" aria-label={t('menuSearch.clear')} onClick={() => setQuery('')}>×</button>}
      </div>
      <p id="menu-search-status" className="menu-search__status shop-muted" role="status">
        {searching ? (found ? t('menuSearch.results', { count: found }) : t('menuSearch.none', { query: query.trim() })) : ''}
      </p>
      <CategoryTabs types={shown} />
      <div data-testid="product-list">
      {shown.map((type) => (
        <section key={type.id} id={`menu-type-${type.id}`} className="menu-type" aria-labelledby={`menu-type-${type.id}-name`} data-testid="menu-type">
          <h2 id={`menu-type-${type.id}-name`} tabIndex={-1}>{type.name}</h2>
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
    </div>
  );
}

/**
 * The menu's types as tabs in a bar that stays under the shop's header while the menu scrolls. A
 * tab takes the customer to its type (and keyboard focus to its heading); the type being read is
 * marked as the current one.
 */
function CategoryTabs({ types }: { types: { id: number; name: string }[] }) {
  const bar = useRef<HTMLElement>(null);
  const [current, setCurrent] = useState<number | null>(null);
  const ids = types.map((type) => type.id).join(',');
  useEffect(() => {
    const nav = bar.current;
    if (!nav) return;
    let frame = 0;
    const measure = () => {
      frame = 0;
      // The bar sits right under the header, whatever height the header has at this width.
      const header = document.querySelector('.shop-header')?.getBoundingClientRect().height ?? 0;
      nav.style.setProperty('--menu-tabs-top', `${header}px`);
      const line = header + nav.getBoundingClientRect().height + 8;
      let seen: number | null = null;
      for (const id of ids.split(',')) {
        const section = document.getElementById(`menu-type-${id}`);
        if (section && section.getBoundingClientRect().top <= line) seen = Number(id);
      }
      // At the very end of the page the last type is the one being read, however short it is.
      const atEnd = window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2 && window.scrollY > 0;
      setCurrent(atEnd ? Number(ids.split(',').at(-1)) : seen ?? (Number(ids.split(',')[0]) || null));
    };
    const schedule = () => { if (!frame) frame = requestAnimationFrame(measure); };
    measure();
    window.addEventListener('scroll', schedule, { passive: true });
    window.addEventListener('resize', schedule);
    return () => {
      window.removeEventListener('scroll', schedule);
      window.removeEventListener('resize', schedule);
      if (frame) cancelAnimationFrame(frame);
    };
  }, [ids]);
  useEffect(() => {
    // Keep the current tab in view inside the bar (not the page).
    const tab = bar.current?.querySelector<HTMLElement>('[aria-current="true"]');
    const strip = tab?.closest('ul');
    if (tab && strip && strip.scrollWidth > strip.clientWidth) {
      // By how far it is from the middle: the same in left-to-right and right-to-left strips.
      const t = tab.getBoundingClientRect(), s = strip.getBoundingClientRect();
      strip.scrollBy?.({ left: t.left + t.width / 2 - (s.left + s.width / 2) });
    }
  }, [current]);
  if (types.length < 2) return null;
  const go = (id: number) => (e: MouseEvent) => {
    e.preventDefault();
    const section = document.getElementById(`menu-type-${id}`);
    section?.scrollIntoView?.({ block: 'start', behavior: 'smooth' });
    section?.querySelector<HTMLElement>('h2')?.focus({ preventScroll: true });
    setCurrent(id);
  };
  return (
    <nav ref={bar} className="menu-tabs" aria-label={t('menuSearch.categories')} data-testid="menu-tabs">
      <ul className="menu-tabs__list">
        {types.map((type) => (
          <li key={type.id}>
            <a href={`#menu-type-${type.id}`} className="menu-tabs__tab" aria-current={current === type.id ? 'true' : undefined} onClick={go(type.id)}>{type.name}</a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
