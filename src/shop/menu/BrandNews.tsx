import './brandNews.css';
import { graphql } from '../../gql';
import { t } from '../../i18n';
import type { CurrentBrandNewsQuery } from '../../gql/graphql';

export const CurrentBrandNews = graphql(`
  query CurrentBrandNews($brandId: Int!) {
    BrandAdvertisements_GetCurrentBrandAdvertisements(brandId: $brandId) { id title text imageUrl endDate }
  }
`);

/**
 * The chosen brand's current news on the shop's home (SPEC.md 2.2 /news): what the brand shows
 * now, as the server decides (shown, now within its dates). Nothing at all when there is none or
 * it cannot be read: news never stands between a customer and the menu. The menu page reads it
 * (CurrentBrandNews), so that the menu shows once the news above it is settled and never moves.
 */
export function BrandNews({ data }: { data: CurrentBrandNewsQuery | undefined }) {
  const news = (data?.BrandAdvertisements_GetCurrentBrandAdvertisements ?? []).filter((n) => !!n);
  if (!news.length) return null;
  return (
    <section className="brand-news" aria-label={t('menu.news')} data-testid="brand-news">
      <ul className="brand-news__list">
        {news.map((n) => (
          <li key={n.id} className="brand-news__item">
            <img src={n.imageUrl} alt="" loading="lazy" />
            <div className="brand-news__body">
              <h3>{n.title}</h3>
              {n.text && <p>{n.text}</p>}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
