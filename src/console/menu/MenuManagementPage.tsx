import { useState } from 'react';
import { useApolloClient, useQuery } from '@apollo/client/react';
import { Button, Callout, H2, HTMLSelect, NonIdealState, Popover, Menu, MenuItem, Spinner, Switch, Tab, Tabs, Tag } from '@blueprintjs/core';
import { formatMoney } from '../../../domain/money';
import { can } from '../../../domain/permissions';
import { useSession } from '../../lib/session';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { BranchesUM } from '../users/places';
import { AdditionSwitch, BranchMenu, ProductSwitch } from './operations';
import { availabilityText, SOLD_OUT_CHOICES, soldOutUntil } from './availability';
import './menu.css';
import { clockText } from '../../../domain/time';
import { TimeIcon } from '@blueprintjs/icons';

/** The branch the screen works on: a branch user's own; for the others one of the branches in their scope. */
function useBranch(): [number | null, React.ReactNode] {
  const { role, profile } = useSession();
  // A branch user has their branch and may not list branches (users.manage): asking would be refused
  // with a red toast on every visit (issue 23), so the list is asked only by the roles that may.
  const branches = (useQuery(BranchesUM, { fetchPolicy: 'cache-first', skip: !can(role, 'users.manage') }).data?.branches ?? []).flatMap((b) => (b ? [b] : []));
  const [picked, setPicked] = useState<number | null>(null);
  if (role === 'BRANCH_USER') return [profile?.branchId ?? null, null];
  const branchId = picked ?? branches[0]?.id ?? null;
  return [branchId, (
    <HTMLSelect aria-label="Branch" value={branchId ?? ''} onChange={(e) => setPicked(Number(e.target.value))}
      options={branches.map((b) => ({ value: b.id, label: b.name }))} />
  )];
}

type Item = { id: number; name: string; price: number; isHidden: boolean; available: boolean; unavailableUntil?: string | null };

/**
 * /MenuManagement: switch a product or an addition off and on for one branch, or mark it sold out
 * until a time (it comes back by itself then). A branch user works on their own branch only; the
 * server holds everyone to their scope.
 */
export default function MenuManagementPage() {
  const client = useApolloClient();
  const [branchId, branchPicker] = useBranch();
  const { data, loading, error, refetch } = useQuery(BranchMenu, { variables: { branchId: branchId ?? 0 }, skip: !branchId, fetchPolicy: 'network-only' });
  const [tab, setTab] = useState<'products' | 'additions'>('products');

  const change = async (kind: 'product' | 'addition', item: Item, on: boolean, until?: Date) => {
    try {
      const variables = { branchId: branchId!, on, until: until?.toISOString() };
      await (kind === 'product'
        ? client.query({ query: ProductSwitch, variables: { ...variables, productId: item.id }, fetchPolicy: 'network-only', context: { silent: true } })
        : client.query({ query: AdditionSwitch, variables: { ...variables, subItemId: item.id }, fetchPolicy: 'network-only', context: { silent: true } }));
      notify('success', 'Saved', on ? `${item.name} is available again.` : until ? `${item.name} is sold out until ${clockText(until)}.` : `${item.name} is switched off.`);
    } catch (e) {
      notify('danger', 'Error', errorMessage(e));
    }
    await refetch();
  };

  const row = (kind: 'product' | 'addition', item: Item) => (
    <li key={item.id} className={`mm-row mm-row--product${item.available ? '' : ' is-off'}`} data-testid={`switch-${kind}-${item.id}`}>
      <span className="mm-product-name">{item.name}</span>
      <span className="mm-price">{formatMoney(item.price)}</span>
      {item.isHidden && <Tag minimal>Hidden for the brand</Tag>}
      <Tag minimal intent={item.available ? 'success' : 'warning'} className="mm-state">{availabilityText(item)}</Tag>
      <Switch className="mm-switch" checked={item.available} label="On" aria-label={`${item.name} available at this branch`}
        onChange={() => void change(kind, item, !item.available)} />
      <Popover placement="bottom-end" content={(
        <Menu aria-label={`Sold out: ${item.name}`}>
          {SOLD_OUT_CHOICES.map((c) => <MenuItem key={c.value} text={`Sold out ${c.label}`} onClick={() => void change(kind, item, false, soldOutUntil(c.value))} />)}
        </Menu>
      )}>
        <Button minimal icon={<TimeIcon />} text="Sold out…" aria-label={`Sold out until: ${item.name}`} />
      </Popover>
    </li>
  );

  if (!branchId) return <NonIdealState className="console-page" title="Menu Management" description="There is no branch to manage." />;
  const tree = (data?.tree ?? []).filter((t): t is NonNullable<typeof t> => !!t);
  const groups = (data?.additions ?? []).filter((g): g is NonNullable<typeof g> => !!g);
  const products = (
    <ul className="mm-tree">
      {tree.map((type) => (
        <li key={type.id} className="mm-type">
          <div className="mm-row mm-row--type"><strong>{type.name}</strong></div>
          {(type.subtypes ?? []).map((sub) => sub && (
            <div key={sub.id} className="mm-subtype">
              <div className="mm-row mm-row--subtype">{sub.name}</div>
              <ul className="mm-products">{(sub.products ?? []).map((p) => p && row('product', p))}</ul>
            </div>
          ))}
        </li>
      ))}
    </ul>
  );
  const additions = groups.length ? (
    <ul className="mm-tree">
      {groups.map((g) => (
        <li key={g.id} className="mm-type">
          <div className="mm-row mm-row--type"><strong>{g.name}</strong></div>
          <ul className="mm-products">{(g.subItems ?? []).map((s) => s && row('addition', s))}</ul>
        </li>
      ))}
    </ul>
  ) : <NonIdealState title="No addition groups" description="The brand's addition groups are set up on the Menu screen." />;
  return (
    <div className="console-page mm-page">
      <header className="mm-toolbar">
        <H2 className="mm-title">Menu Management</H2>
        {branchPicker}
      </header>
      {loading && !data && <Spinner aria-label="Loading the menu" />}
      {error && <Callout intent="danger" role="alert">{errorMessage(error)}</Callout>}
      <Tabs id="mm-management-tabs" selectedTabId={tab} onChange={(id) => setTab(id as 'products' | 'additions')}>
        <Tab id="products" title="Products" panel={products} />
        <Tab id="additions" title="Additions" panel={additions} />
      </Tabs>
    </div>
  );
}
