import { useEffect, useState } from 'react';
import { useApolloClient, useQuery } from '@apollo/client/react';
import { Button, Callout, Checkbox, Classes, Drawer, FormGroup, HTMLSelect, InputGroup, Intent, Spinner, Tab, Tabs, TextArea } from '@blueprintjs/core';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { imageInput } from '../resources/ImageInput';
import { CreateProduct, DeleteImage1, DeleteImage2, DeleteImage3, MenuProductForm, UpdateProduct } from './operations';
import { GroupEditor } from './GroupEditor';
import { ProductHistory } from './ProductHistory';
import type { Additions, Tree } from './productTree';
import { emptyGroup, groupError, groupInput, priceError, toDraft, type GroupDraft } from './groupDrafts';
import { arabicNameError } from '../../../domain/arabicName';
import { moneyDecimal } from '../../../domain/money';

const IMAGE_FIELDS = ['productImage', 'productSecondImage', 'productThirdImage'] as const;
const IMAGE_DELETES = [DeleteImage1, DeleteImage2, DeleteImage3];
const ProductImageInput = imageInput('UploadProductImage');

interface Draft {
  name: string; nameAr: string; description: string; descriptionAr: string; price: string; productDeliveryText: string; productDeliveryTextAr: string; subtypeId: number;
  images: (string | null)[]; groups: GroupDraft[]; additionGroupIds: number[];
}

/**
 * The product form (/store): name and description, the price in KD with 3 decimals, up to three
 * images (each uploaded, and on a saved product each removed, on its own), the delivery text, the
 * option groups with their items and prices, and the addition groups of its type that apply.
 */
export function ProductForm({ brandId, target, tree, additions, onClose }: {
  brandId: number;
  target: { productId: number } | { subtypeId: number; typeId: number };
  tree: Tree; additions: Additions;
  onClose: (saved: boolean) => void;
}) {
  const client = useApolloClient();
  const productId = 'productId' in target ? target.productId : null;
  const loaded = useQuery(MenuProductForm, { variables: { productId: productId ?? 0 }, skip: !productId, fetchPolicy: 'network-only' });
  const [draft, setDraft] = useState<Draft | null>(productId ? null : {
    name: '', nameAr: '', description: '', descriptionAr: '', price: '', productDeliveryText: '', productDeliveryTextAr: '', subtypeId: (target as { subtypeId: number }).subtypeId,
    images: [null, null, null], groups: [], additionGroupIds: [],
  });
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [tried, setTried] = useState(false);
  const [tab, setTab] = useState<'details' | 'history'>('details');

  const product = loaded.data?.product;
  useEffect(() => {
    if (!product || draft) return;
    setDraft({
      name: product.name, nameAr: product.nameAr ?? '', description: product.description, descriptionAr: product.descriptionAr ?? '', price: moneyDecimal(product.price), productDeliveryText: product.productDeliveryText, productDeliveryTextAr: product.productDeliveryTextAr ?? '',
      subtypeId: product.subtypeId, images: IMAGE_FIELDS.map((f) => product[f] ?? null),
      groups: (product.optionGroups ?? []).filter((g): g is NonNullable<typeof g> => !!g).map((g) => toDraft({ ...g, subItems: g.subItems ?? [] })),
      additionGroupIds: (product.additionGroupIds ?? []).filter((x): x is number => x != null),
    });
  }, [product, draft]);

  const set = (patch: Partial<Draft>) => setDraft((d) => (d ? { ...d, ...patch } : d));
  const typeId = tree.find((t) => t.subtypes?.some((s) => s?.id === draft?.subtypeId))?.id ?? ('typeId' in target ? target.typeId : null);
  const additionsOfType = (id: number | null) => additions.find((t) => t.id === id)?.additionGroups?.filter((g): g is NonNullable<typeof g> => !!g) ?? [];
  const typeAdditions = additionsOfType(typeId);
  /** Another sub-type may be of another product type, whose addition groups are others: keep only those that still apply. */
  const chooseSubtype = (subtypeId: number) => {
    const nextType = tree.find((t) => t.subtypes?.some((s) => s?.id === subtypeId))?.id ?? null;
    const offered = new Set(additionsOfType(nextType).map((g) => g.id));
    set({ subtypeId, additionGroupIds: (draft?.additionGroupIds ?? []).filter((id) => offered.has(id)) });
  };
  const problems = draft ? [
    !draft.name.trim() && 'Give the product a name.',
    arabicNameError(draft.nameAr),
    priceError(draft.price),
    ...draft.groups.map(groupError),
  ].filter((x): x is string => !!x) : [];

  /** On a saved product an image is set or removed at once; on a new one it goes with the create. */
  const setImage = async (slot: number, url: string | null) => {
    if (!draft) return;
    if (productId) {
      try {
        if (url) await client.mutate({ mutation: UpdateProduct, variables: { input: { id: productId, [IMAGE_FIELDS[slot]]: url } }, context: { silent: true } });
        else await client.mutate({ mutation: IMAGE_DELETES[slot], variables: { productId }, context: { silent: true } });
      } catch (e) {
        setError(errorMessage(e));
        return;
      }
    }
    set({ images: draft.images.map((u, i) => (i === slot ? url : u)) });
  };

  const save = async () => {
    setTried(true);
    if (!draft || problems.length) return;
    setSaving(true);
    setError(null);
    const input = {
      name: draft.name.trim(), nameAr: draft.nameAr.trim(), description: draft.description, descriptionAr: draft.descriptionAr.trim(), price: Number(draft.price), productDeliveryText: draft.productDeliveryText, productDeliveryTextAr: draft.productDeliveryTextAr.trim(),
      subtypeId: draft.subtypeId, optionGroups: draft.groups.map(groupInput), additionGroupIds: draft.additionGroupIds,
    };
    try {
      if (productId) {
        await client.mutate({ mutation: UpdateProduct, variables: { input: { id: productId, ...input } }, context: { silent: true } });
      } else {
        const images = Object.fromEntries(IMAGE_FIELDS.map((f, i) => [f, draft.images[i]]));
        await client.mutate({ mutation: CreateProduct, variables: { input: { ...input, brandId, ...images } }, context: { silent: true } });
      }
      notify('success', 'Saved', `${input.name} is saved.`);
      onClose(true);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setSaving(false);
    }
  };

  const title = productId ? `Edit ${product?.name ?? 'product'}` : 'New product';
  const details = !draft
    ? (loaded.error ? <Callout intent="danger" role="alert">{errorMessage(loaded.error)}</Callout> : <Spinner aria-label="Loading the product" />)
    : (
      <form className="mm-product-form" aria-label={title} noValidate onSubmit={(e) => { e.preventDefault(); void save(); }}>
        {error && <Callout intent="danger" role="alert">{error}</Callout>}
        {tried && problems.length > 0 && <Callout intent="warning" role="alert">{problems[0]}</Callout>}
        <FormGroup label="Name" labelFor="product-name" labelInfo="(required)">
          <InputGroup id="product-name" value={draft.name} disabled={saving} onChange={(e) => set({ name: e.target.value })} />
        </FormGroup>
        <FormGroup label="Arabic name" labelFor="product-name-ar" labelInfo="(shown in the Arabic shop; empty: the name above)"
          intent={tried && arabicNameError(draft.nameAr) ? Intent.DANGER : Intent.NONE} helperText={tried ? arabicNameError(draft.nameAr) ?? undefined : undefined}>
          <InputGroup id="product-name-ar" dir="rtl" lang="ar" value={draft.nameAr} disabled={saving} onChange={(e) => set({ nameAr: e.target.value })} />
        </FormGroup>
        <FormGroup label="Description" labelFor="product-description">
          <TextArea id="product-description" fill value={draft.description} disabled={saving} onChange={(e) => set({ description: e.target.value })} />
        </FormGroup>
        <FormGroup label="Arabic description" labelFor="product-description-ar">
          <TextArea id="product-description-ar" dir="rtl" lang="ar" fill value={draft.descriptionAr} disabled={saving} onChange={(e) => set({ descriptionAr: e.target.value })} />
        </FormGroup>
        <div className="mm-form-row">
          <FormGroup label="Price" labelFor="product-price" labelInfo="(KD, 3 decimals)" intent={tried && priceError(draft.price) ? Intent.DANGER : Intent.NONE}
            helperText={tried ? priceError(draft.price) ?? undefined : undefined}>
            <InputGroup id="product-price" inputMode="decimal" value={draft.price} disabled={saving} placeholder="1.250"
              onChange={(e) => set({ price: e.target.value })} onBlur={() => setTried((t) => t || !!draft.price)} />
          </FormGroup>
          <FormGroup label="Sub-type" labelFor="product-subtype">
            <HTMLSelect id="product-subtype" value={draft.subtypeId} disabled={saving} onChange={(e) => chooseSubtype(Number(e.target.value))}>
              {tree.map((t) => (
                <optgroup key={t.id} label={t.name}>
                  {(t.subtypes ?? []).map((s) => s && <option key={s.id} value={s.id}>{s.name}</option>)}
                </optgroup>
              ))}
            </HTMLSelect>
          </FormGroup>
        </div>
        <FormGroup label="Delivery text" labelFor="product-delivery">
          <InputGroup id="product-delivery" value={draft.productDeliveryText} disabled={saving} placeholder="Ready in about 10 minutes"
            onChange={(e) => set({ productDeliveryText: e.target.value })} />
        </FormGroup>
        <FormGroup label="Arabic delivery text" labelFor="product-delivery-ar" helperText="Shown in the Arabic shop; empty: the delivery text above.">
          <InputGroup id="product-delivery-ar" dir="rtl" lang="ar" value={draft.productDeliveryTextAr} disabled={saving} placeholder="جاهز خلال 10 دقائق تقريبًا"
            onChange={(e) => set({ productDeliveryTextAr: e.target.value })} />
        </FormGroup>
        <FormGroup label="Images" helperText="Up to three; each is uploaded on its own.">
          <div className="mm-images">
            {[0, 1, 2].map((slot) => (
              <div key={slot} className="mm-image-slot" aria-label={`Image ${slot + 1}`}>
                <ProductImageInput id={`product-image-${slot + 1}`} value={draft.images[slot]} disabled={saving} invalid={false}
                  onChange={(url) => void setImage(slot, url as string)} onBlur={() => {}} />
                {draft.images[slot] && <Button small minimal icon="trash" text="Remove" disabled={saving} onClick={() => void setImage(slot, null)} />}
              </div>
            ))}
          </div>
        </FormGroup>
        <FormGroup label="Option groups">
          {draft.groups.map((g, i) => (
            <GroupEditor key={g.id ?? `new-${i}`} group={g} index={i} disabled={saving}
              onChange={(next) => set({ groups: draft.groups.map((x, j) => (j === i ? next : x)) })}
              onRemove={() => set({ groups: draft.groups.filter((_, j) => j !== i) })} />
          ))}
          <Button icon="add" text="Option group" disabled={saving} onClick={() => set({ groups: [...draft.groups, emptyGroup()] })} />
        </FormGroup>
        <FormGroup label="Addition groups that apply" helperText={typeAdditions.length ? undefined : 'This product type has no addition groups yet.'}>
          {typeAdditions.map((g) => (
            <Checkbox key={g.id} label={g.name} checked={draft.additionGroupIds.includes(g.id)} disabled={saving}
              onChange={() => set({ additionGroupIds: draft.additionGroupIds.includes(g.id) ? draft.additionGroupIds.filter((x) => x !== g.id) : [...draft.additionGroupIds, g.id] })} />
          ))}
        </FormGroup>
        <div className={Classes.DIALOG_FOOTER_ACTIONS}>
          <Button text="Cancel" disabled={saving} onClick={() => onClose(false)} />
          <Button type="submit" intent={Intent.PRIMARY} text="Save" loading={saving} />
        </div>
      </form>
    );
  return (
    <Drawer isOpen onClose={() => onClose(false)} title={title} size="min(720px, 100%)" canOutsideClickClose={!saving}>
      <div className={Classes.DRAWER_BODY}>
        <div className={Classes.DIALOG_BODY}>
          {!productId ? details : (
            <Tabs id="mm-product-tabs" renderActiveTabPanelOnly selectedTabId={tab} onChange={(id) => setTab(id as 'details' | 'history')}>
              <Tab id="details" title="Details" panel={details} />
              <Tab id="history" title="History" panel={<ProductHistory productId={productId} tree={tree} additions={additions} />} />
            </Tabs>
          )}
        </div>
      </div>
    </Drawer>
  );
}
