import './brandNews.css';
import { useQuery } from '@apollo/client/react';
import { graphql } from '../../gql';
import { t } from '../../i18n';

export const CurrentBrandNews = graphql(`
  query CurrentBrandNews($brandId: Int!) {
    BrandAdvertisements_GetCurrentBrandAdvertisements(brandId: $brandId) { id title text imageUrl endDate }
  }
`);

/**
 * The chosen brand's current news on the shop's home (SPEC.md 2.2 /news): what the brand shows
 * now, as the server decides (shown, now within its dates). Nothing at all when there is none or
 * it cannot be read: news never stands between a customer and the menu.
 */
export function BrandNews({ brandId }: { brandId: number }) {
  const { data } = useQuery(CurrentBrandNews, { variables: { brandId }, skip: !brandId, context: { silent: true } });
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
