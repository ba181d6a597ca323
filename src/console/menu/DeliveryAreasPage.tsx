import { useApolloClient, useQuery } from '@apollo/client/react';
import { useParams } from 'wouter';
import { Callout, Card, H2, H4, NonIdealState, Spinner, Switch, Tag } from '@blueprintjs/core';
import { formatMoney } from '../../../domain/money';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { AreaHide, BrandAreas } from './operations';
import './menu.css';

/**
 * /DeliveryAreas/{id} (id = the brand): governorates and their areas, each with a switch. A hidden
 * area is not offered by the shop and the server refuses delivery orders to it.
 */
export default function DeliveryAreasPage() {
  const client = useApolloClient();
  const brandId = Number(useParams<{ id: string }>().id);
  const valid = Number.isInteger(brandId) && brandId > 0;
  const { data, loading, error, refetch } = useQuery(BrandAreas, { variables: { brandId }, skip: !valid, fetchPolicy: 'network-only' });
  if (!valid) return <NonIdealState className="console-page" title="Delivery Areas" description="There is no such brand." />;
  const regions = (data?.regions ?? []).filter((r): r is NonNullable<typeof r> => !!r);
  const toggle = async (area: { id: number; name: string; isHidden: boolean }) => {
    try {
      await client.query({ query: AreaHide, variables: { brandId, areaId: area.id, isHide: !area.isHidden }, fetchPolicy: 'network-only', context: { silent: true } });
      notify('success', 'Saved', `${area.name} is ${area.isHidden ? 'offered again' : 'hidden'}.`);
    } catch (e) {
      notify('danger', 'Error', errorMessage(e));
    }
    await refetch();
  };
  return (
    <div className="console-page mm-page">
      <header className="mm-toolbar"><H2 className="mm-title">Delivery Areas</H2></header>
      {loading && !data && <Spinner aria-label="Loading the areas" />}
      {error && <Callout intent="danger" role="alert">{errorMessage(error)}</Callout>}
      <div className="mm-regions">
        {regions.map((r) => (
          <Card key={r.id} compact className="mm-region" aria-label={r.name}>
            <H4>{r.name}</H4>
            <ul className="mm-products">
              {(r.children ?? []).map((a) => a && (
                <li key={a.id} className={`mm-row${a.isHidden ? ' is-off' : ''}`} data-testid={`area-${a.id}`}>
                  <span className="mm-product-name">{a.name}</span>
                  {a.deliveryFee === null || a.deliveryFee === undefined ? <Tag minimal>No delivery fee set</Tag> : <span className="mm-price">{formatMoney(a.deliveryFee)}</span>}
                  <Switch className="mm-switch" checked={!a.isHidden} label={a.isHidden ? 'Hidden' : 'Shown'} aria-label={`Offer delivery to ${a.name}`}
                    onChange={() => void toggle(a)} />
                </li>
              ))}
            </ul>
          </Card>
        ))}
      </div>
    </div>
  );
}
