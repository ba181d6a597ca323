import { Fragment, useState } from 'react';
import { Link } from 'wouter';
import { useApolloClient, useQuery } from '@apollo/client/react';
import { Alert, Button, ButtonGroup, Callout, H2, H4, HTMLSelect, NonIdealState, Spinner, Switch, Tag } from '@blueprintjs/core';
import type { StoreCell } from './productTree';
import { SUBTYPE_CELLS, TYPE_CELLS } from './storeConfig';
import { PRODUCT_CELLS } from './productConfig';
import { formatMoney } from '../../../domain/money';
import { can } from '../../../domain/permissions';
import { useSession } from '../../lib/session';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { useBrands } from '../users/places';
import { useManagerBrand } from '../shell/managerBrand';
import {
  CreateSubtype, CreateType, DeleteAdditionGroup, DeleteProduct, DeleteSubtype, DeleteType, DuplicateProduct, MenuTree, UpdateProduct,
  UpdateSubtype, UpdateType,
} from './operations';
import { ProductForm } from './ProductForm';
import { AdditionGroupDialog, NameDialog, type AdditionTarget, type NameAsk } from './dialogs';
import { MenuHoursDialog, type HoursTarget } from './MenuHoursDialog';
import { AddIcon, ArrowDownIcon, ArrowUpIcon, DuplicateIcon, EditIcon, TimeIcon, TrashIcon } from '@blueprintjs/icons';
import './menu.css';

/** The brand /store works on: a brand manager's chosen brand (top bar), else one picked here from the caller's brands. */
function useStoreBrand(): [number | null, React.ReactNode] {
  const { role } = useSession();
  const managerBrand = useManagerBrand();
  const brands = useBrands();
  const [picked, setPicked] = useState<number | null>(null);
  if (role === 'BRAND_MANAGER') return [managerBrand, null];
  const brandId = picked ?? brands[0]?.id ?? null;
  const picker = brands.length > 1 && (
    <HTMLSelect aria-label="Brand" value={brandId ?? ''} onChange={(e) => setPicked(Number(e.target.value))}
      options={brands.map((b) => ({ value: b.id, label: b.name }))} />
  );
  return [brandId, picker];
}

type Editing = { productId: number } | { subtypeId: number; typeId: number } | null;
type Ask = NameAsk | null;
type Confirm = { text: string; run: () => Promise<unknown> } | null;

/**
 * /store (Menu): the brand's type → sub-type → product tree with hide and unhide, the product
 * form, duplicate and delete, and the brand's addition groups. Every change is a server call;
 * the tree is read again after it (the server's answer is what shows). The tree's document is
 * generated (scripts/resourceDocuments.ts READS); what a row shows is its config's
 * (storeConfig.tsx for types and sub-types, productConfig.tsx for products).
 */
export default function StorePage() {
  const client = useApolloClient();
  const { role } = useSession();
  const [brandId, brandPicker] = useStoreBrand();
  const { data, loading, error, refetch } = useQuery(MenuTree, { variables: { brandId: brandId ?? 0 }, skip: !brandId, fetchPolicy: 'network-only' });
  const [editing, setEditing] = useState<Editing>(null);
  const [ask, setAsk] = useState<Ask>(null);
  const [confirm, setConfirm] = useState<Confirm>(null);
  const [additionTarget, setAdditionTarget] = useState<AdditionTarget>(null);
  const [hours, setHours] = useState<HoursTarget | null>(null);
  /** Opens the menu hours of a row. */
  const editHours = (kind: HoursTarget['kind'], row: { id: number; name: string; availabilityWindows?: readonly ({ weekday: number; fromMinute: number; toMinute: number } | null)[] | null }) => () =>
    setHours({ kind, id: row.id, name: row.name, windows: (row.availabilityWindows ?? []).filter((w) => !!w) });
  const tree = (data?.tree ?? []).filter((t): t is NonNullable<typeof t> => !!t);
  const additions = (data?.additions ?? []).filter((t): t is NonNullable<typeof t> => !!t);

  /** Runs a change, tells what happened, reads the tree again. */
  const act = async (done: string, run: () => Promise<unknown>) => {
    try {
      await run();
      notify('success', 'Saved', done);
    } catch (e) {
      notify('danger', 'Error', errorMessage(e));
    }
    await refetch();
  };
  const mutate = (mutation: Parameters<typeof client.mutate>[0]['mutation'], variables: Record<string, unknown>) => client.mutate({ mutation, variables, context: { silent: true } });
  /** The server numbers the siblings again; `sortOrder` in an update is the new place among them. */
  const move = (mutation: Parameters<typeof mutate>[0], id: number, name: string) => (place: number) =>
    act(`${name} moved.`, () => mutate(mutation, { input: { id, sortOrder: place } }));
  const rename = (mutation: Parameters<typeof mutate>[0], row: { id: number; name: string; nameAr?: string | null }, what: string) => () => setAsk({
    title: `Rename the ${what} ${row.name}`, label: 'Name', initial: row.name, initialAr: row.nameAr,
    run: (next, nameAr) => act(next === row.name ? `${row.name} is saved.` : `${row.name} is now called ${next}.`, () => mutate(mutation, { input: { id: row.id, name: next, nameAr } })),
  });

  if (!can(role, 'menu.manage')) return null;
  if (!brandId) return <NonIdealState className="console-page" title="Menu" description="Choose a brand first." />;
  return (
    <div className="console-page mm-page">
      <header className="mm-toolbar">
        <H2 className="mm-title">Menu</H2>
        {brandPicker}
        {can(role, 'deliveryAreas.manage') && <Link href={`/DeliveryAreas/${brandId}`} className="bp6-button bp6-minimal">Delivery areas</Link>}
        <Button icon={<AddIcon />} intent="primary" text="New product type" onClick={() => setAsk({
          title: 'New product type', label: 'Name',
          run: (name, nameAr) => act(`Product type "${name}" added.`, () => mutate(CreateType, { input: { brandId, name, nameAr } })),
        })} />
      </header>
      {loading && !tree.length && <Spinner aria-label="Loading the menu" />}
      {error && <Callout intent="danger" role="alert">{errorMessage(error)}</Callout>}
      {!loading && !error && !tree.length && <NonIdealState title="No products yet" description="Start with a product type, e.g. Coffee." />}
      <ul className="mm-tree" aria-label="Menu tree">
        {tree.map((type, typeIndex) => (
          <li key={type.id} className={`mm-type${type.isHidden ? ' is-hidden' : ''}`}>
            <div className="mm-row mm-row--type">
              <Cells cells={TYPE_CELLS} row={type} />
              <Switch className="mm-switch" checked={!type.isHidden} label="Shown in the shop" aria-label={`Show ${type.name} in the shop`}
                onChange={() => act(`${type.name} is ${type.isHidden ? 'shown' : 'hidden'}.`, () => mutate(UpdateType, { input: { id: type.id, isHidden: !type.isHidden } }))} />
              <ButtonGroup minimal>
                <Button icon={<AddIcon />} text="Sub-type" onClick={() => setAsk({
                  title: `New sub-type of ${type.name}`, label: 'Name',
                  run: (name, nameAr) => act(`Sub-type "${name}" added.`, () => mutate(CreateSubtype, { input: { typeId: type.id, name, nameAr } })),
                })} />
                <Button icon={<EditIcon />} aria-label={`Rename ${type.name}`} onClick={rename(UpdateType, type, 'product type')} />
                <Button icon={<TimeIcon />} aria-label={`Menu hours of ${type.name}`} onClick={editHours('type', type)} />
                <MoveButtons name={type.name} index={typeIndex} count={tree.length} onMove={move(UpdateType, type.id, type.name)} />
                <Button icon={<TrashIcon />} aria-label={`Delete ${type.name}`} onClick={() => setConfirm({
                  text: `Delete the product type "${type.name}"?`, run: () => act(`${type.name} deleted.`, () => mutate(DeleteType, { id: type.id })),
                })} />
              </ButtonGroup>
            </div>
            <ul>
              {(type.subtypes ?? []).map((sub, subIndex, subs) => sub && (
                <li key={sub.id} className={`mm-subtype${sub.isHidden ? ' is-hidden' : ''}`}>
                  <div className="mm-row mm-row--subtype">
                    <Cells cells={SUBTYPE_CELLS} row={sub} />
                    <Switch className="mm-switch" checked={!sub.isHidden} label="Shown" aria-label={`Show ${sub.name} in the shop`}
                      onChange={() => act(`${sub.name} is ${sub.isHidden ? 'shown' : 'hidden'}.`, () => mutate(UpdateSubtype, { input: { id: sub.id, isHidden: !sub.isHidden } }))} />
                    <ButtonGroup minimal>
                      <Button icon={<AddIcon />} text="Product" onClick={() => setEditing({ subtypeId: sub.id, typeId: type.id })} />
                      <Button icon={<EditIcon />} aria-label={`Rename ${sub.name}`} onClick={rename(UpdateSubtype, sub, 'sub-type')} />
                      <Button icon={<TimeIcon />} aria-label={`Menu hours of ${sub.name}`} onClick={editHours('subtype', sub)} />
                      <MoveButtons name={sub.name} index={subIndex} count={subs.length} onMove={move(UpdateSubtype, sub.id, sub.name)} />
                      <Button icon={<TrashIcon />} aria-label={`Delete ${sub.name}`} onClick={() => setConfirm({
                        text: `Delete the sub-type "${sub.name}"?`, run: () => act(`${sub.name} deleted.`, () => mutate(DeleteSubtype, { id: sub.id })),
                      })} />
                    </ButtonGroup>
                  </div>
                  <ul className="mm-products">
                    {(sub.products ?? []).map((p, productIndex, list) => p && (
                      <li key={p.id} className={`mm-row mm-row--product${p.isHidden ? ' is-hidden' : ''}`} data-testid={`mm-product-${p.id}`}>
                        <Cells cells={PRODUCT_CELLS} row={p} />
                        <Switch className="mm-switch" checked={!p.isHidden} label="Shown" aria-label={`Show ${p.name} in the shop`}
                          onChange={() => act(`${p.name} is ${p.isHidden ? 'shown' : 'hidden'}.`, () => mutate(UpdateProduct, { input: { id: p.id, isHidden: !p.isHidden } }))} />
                        <ButtonGroup minimal>
                          <Button icon={<EditIcon />} text="Edit" aria-label={`Edit ${p.name}`} onClick={() => setEditing({ productId: p.id })} />
                          <Button icon={<TimeIcon />} aria-label={`Menu hours of ${p.name}`} onClick={editHours('product', p)} />
                          <MoveButtons name={p.name} index={productIndex} count={list.length} onMove={move(UpdateProduct, p.id, p.name)} />
                          <Button icon={<DuplicateIcon />} aria-label={`Duplicate ${p.name}`} onClick={() => act(`${p.name} duplicated (hidden until you show it).`, () => mutate(DuplicateProduct, { input: { productId: p.id } }))} />
                          <Button icon={<TrashIcon />} aria-label={`Delete ${p.name}`} onClick={() => setConfirm({
                            text: `Delete "${p.name}"? It leaves the menu; past orders keep its name and price.`,
                            run: () => act(`${p.name} deleted.`, () => mutate(DeleteProduct, { productId: p.id })),
                          })} />
                        </ButtonGroup>
                      </li>
                    ))}
                  </ul>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>

      <section className="mm-additions" aria-label="Addition groups">
        <H4>Addition groups</H4>
        {additions.map((type) => (
          <div key={type.id} className="mm-additions-type">
            <div className="mm-row">
              <strong>{type.name}</strong>
              <Button minimal icon={<AddIcon />} text="Addition group" aria-label={`New addition group of ${type.name}`} onClick={() => setAdditionTarget({ productTypeId: type.id, typeName: type.name })} />
            </div>
            {(type.additionGroups ?? []).map((g) => g && (
              <div key={g.id} className="mm-row mm-row--subtype">
                <span>{g.name}</span>
                <Tag minimal>{g.isRequired ? 'Required' : 'Optional'}{g.allowMultiple ? ', several' : ', one'}</Tag>
                <span className="mm-muted">{(g.subItems ?? []).map((s) => s && `${s.name} ${formatMoney(s.price)}`).join(' · ')}</span>
                <Button minimal icon={<EditIcon />} aria-label={`Edit addition group ${g.name}`} onClick={() => setAdditionTarget({ group: g })} />
                <Button minimal icon={<TrashIcon />} aria-label={`Delete ${g.name}`} onClick={() => setConfirm({
                  text: `Delete the addition group "${g.name}"?`, run: () => act(`${g.name} deleted.`, () => mutate(DeleteAdditionGroup, { id: g.id })),
                })} />
              </div>
            ))}
          </div>
        ))}
      </section>

      {editing && (
        <ProductForm
          key={'productId' in editing ? `p${editing.productId}` : `s${editing.subtypeId}`}
          brandId={brandId}
          target={editing}
          tree={tree}
          additions={additions}
          onClose={(saved) => { setEditing(null); if (saved) void refetch(); }}
        />
      )}
      <NameDialog ask={ask} onClose={() => setAsk(null)} />
      <MenuHoursDialog target={hours} onClose={(saved) => { setHours(null); if (saved) void refetch(); }} />
      <AdditionGroupDialog target={additionTarget} onClose={(saved) => { setAdditionTarget(null); if (saved) void refetch(); }} />
      <Alert isOpen={!!confirm} intent="danger" icon={<TrashIcon />} confirmButtonText="Delete" cancelButtonText="Cancel"
        onCancel={() => setConfirm(null)} onConfirm={() => { const c = confirm; setConfirm(null); void c?.run(); }}>
        {confirm?.text}
      </Alert>
    </div>
  );
}

/** What a row shows of itself, as its config (storeConfig.tsx, productConfig.tsx) says. */
function Cells<R>({ cells, row }: { cells: readonly StoreCell<R>[]; row: R }) {
  return <>{cells.map((c) => <Fragment key={c.field}>{c.render(row)}</Fragment>)}</>;
}

/** Up and down by one place among the siblings shown (the tree shows every live sibling, hidden ones too). */
function MoveButtons({ name, index, count, onMove }: { name: string; index: number; count: number; onMove: (place: number) => void }) {
  return (
    <>
      <Button icon={<ArrowUpIcon />} aria-label={`Move ${name} up`} disabled={index === 0} onClick={() => onMove(index - 1)} />
      <Button icon={<ArrowDownIcon />} aria-label={`Move ${name} down`} disabled={index >= count - 1} onClick={() => onMove(index + 1)} />
    </>
  );
}
