import '../account.css';
import './address.css';
import { useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { useQuery } from '@apollo/client/react';
import { money, t } from '../../i18n';
import { useShop } from '../shopContext';
import { DeliveryAreasTree } from './graphql';
import { draftFor, updateDraft } from './addressStorage';
import type { DeliveryAreasTreeQuery } from '../../gql/graphql';

type Region = NonNullable<NonNullable<DeliveryAreasTreeQuery['Country_GetDeliveryAreasTreeByBrandIdForShop']>[number]>;
type Area = NonNullable<Region['children'][number]>;

/** Where Done goes (SPEC.md 2.1): with the id param if present, else with the address query, else plain. */
export function addressDetailsHref(search: string) {
  const params = new URLSearchParams(search);
  const id = params.get('id');
  const address = params.get('address');
  if (id) return `/address-details?id=${encodeURIComponent(id)}`;
  if (address) return `/address-details?address=${encodeURIComponent(address)}`;
  return '/address-details';
}

/**
 * /select-location (AddLocation): the regions the selected brand delivers to, each opening its
 * areas. Choosing an area shows Done, which keeps the choice for the address form and goes there.
 */
export default function SelectLocationPage() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const { brandId, currency } = useShop();
  const forId = Number(new URLSearchParams(search).get('id')) || 0;
  const { data, loading, error } = useQuery(DeliveryAreasTree, { variables: { brandId } });
  const regions = (data?.Country_GetDeliveryAreasTreeByBrandIdForShop ?? []).filter((r): r is Region => !!r);
  const [chosen, setChosen] = useState<{ region: Region; area: Area } | null>(null);
  const draftAreaId = draftFor(forId)?.areaId ?? null;
  const [open, setOpen] = useState<number | null>(null);
  const openId = open ?? regions.find((r) => r.children.some((c) => c?.id === (chosen?.area.id ?? draftAreaId)))?.id ?? null;

  const done = () => {
    if (!chosen) return;
    const { region, area } = chosen;
    // Another area moves the pin there (it stayed in Kuwait City); the same area keeps a dragged pin.
    const moved = area.id !== draftAreaId && area.latitude != null && area.longitude != null;
    updateDraft(forId, {
      regionId: region.id, region: region.name, areaId: area.id, area: area.name,
      ...(moved && { latitude: area.latitude!, longitude: area.longitude! }),
    });
    navigate(addressDetailsHref(search));
  };

  return (
    <div className="location-page">
      <h1 className="shop-title">{t('location.title')}</h1>
      {loading && !regions.length && <p className="shop-muted" role="status">{t('location.loading')}</p>}
      {error && !regions.length && <p className="shop-error" role="alert">{t('location.failed')}</p>}
      {!loading && !error && !regions.length && <p className="shop-muted">{t('location.none')}</p>}
      <div className="location-regions" role="list" aria-label={t('location.regions')}>
        {regions.map((region) => {
          const expanded = openId === region.id;
          return (
            <section key={region.id} className="location-region" role="listitem">
              <h2 className="location-region__title">
                <button type="button" className="location-region__head" aria-expanded={expanded} aria-controls={`region-${region.id}`}
                  onClick={() => setOpen(expanded ? -1 : region.id)}>
                  {region.name}
                </button>
              </h2>
              {expanded && (
                <ul className="location-areas" id={`region-${region.id}`} aria-label={t('location.areasOf', { name: region.name })}>
                  {region.children.filter((a): a is Area => !!a).map((area) => (
                    <li key={area.id}>
                      <button type="button" className="location-area" aria-pressed={(chosen?.area.id ?? null) === area.id}
                        onClick={() => setChosen({ region, area })}>
                        <span>{area.name}</span>
                        <span className="location-area__fee">{t('location.delivery', { price: money(area.deliveryFee, currency) })}</span>
                      </button>
                    </li>
                  ))}
                </ul>
              )}
            </section>
          );
        })}
      </div>
      {chosen && (
        <div className="location-done">
          <span className="location-done__text"><strong>{chosen.area.name}</strong>{t('product.listSeparator')}{chosen.region.name}</span>
          <button type="button" className="acct-btn" onClick={done}>{t('location.done')}</button>
        </div>
      )}
    </div>
  );
}
