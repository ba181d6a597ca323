import { useApolloClient } from '@apollo/client/react';
import { useActorRef, useSelector } from '@xstate/react';
import { fromPromise } from 'xstate';
import { Button, Callout, Checkbox, Classes, Drawer, FormGroup, HTMLSelect, InputGroup, Intent, Spinner, Tab, Tabs, TextArea } from '@blueprintjs/core';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { imageInput } from '../resources/ImageInput';
import { CreateProduct, DeleteImage1, DeleteImage2, DeleteImage3, UpdateProduct } from './operations';
import { MenuProductForm, PRODUCT_FORM_FIELDS, type ProductFormField } from './productConfig';
import { GroupEditor } from './GroupEditor';
import { ProductHistory } from './ProductHistory';
import type { Additions, Tree } from './productTree';
import { AddIcon, TrashIcon } from '@blueprintjs/icons';
import {
  fieldError, IMAGE_FIELDS, problemsOf, productFormMachine,
  type ImageRequest, type LoadedProduct, type ProductDraft, type ProductFormEvent, type SaveRequest,
} from '../../../machines/productForm';

const IMAGE_DELETES = [DeleteImage1, DeleteImage2, DeleteImage3];
const ProductImageInput = imageInput('UploadProductImage');
/** A gateway call whose failure reaches the machine as the server's message. */
const call = async <T,>(run: () => Promise<T>) => {
  try {
    return await run();
  } catch (e) {
    throw new Error(errorMessage(e));
  }
};

/**
 * The product form (/store): name and description, the price in KD with 3 decimals, up to three
 * images (each uploaded, and on a saved product each removed, on its own), the delivery text, the
 * calories, the option groups with their items and prices, and the addition groups of its type
 * that apply. Its machine (machines/productForm.ts) loads, checks and saves through the gateway;
 * ProductFormView renders what it is given.
 */
export function ProductForm({ brandId, target, tree, additions, onClose }: {
  brandId: number;
  target: { productId: number } | { subtypeId: number; typeId: number };
  tree: Tree; additions: Additions;
  onClose: (saved: boolean) => void;
}) {
  const client = useApolloClient();
  const productId = 'productId' in target ? target.productId : null;
  const actor = useActorRef(productFormMachine.provide({
    actors: {
      loadProduct: fromPromise<LoadedProduct, { productId: number }>(({ input }) => call(async () => {
        const { data, error } = await client.query({ query: MenuProductForm, variables: { productId: input.productId }, fetchPolicy: 'network-only' });
        if (error) throw error;
        return data!.product as unknown as LoadedProduct;
      })),
      saveProduct: fromPromise<{ name: string }, SaveRequest>(({ input }) => call(async () => {
        if (input.productId) await client.mutate({ mutation: UpdateProduct, variables: { input: { id: input.productId, ...input.input } as never }, context: { silent: true } });
        else await client.mutate({ mutation: CreateProduct, variables: { input: { ...input.input, brandId } as never }, context: { silent: true } });
        return { name: input.input.name as string };
      })),
      changeImage: fromPromise<ImageRequest, ImageRequest>(({ input }) => call(async () => {
        if (input.url) await client.mutate({ mutation: UpdateProduct, variables: { input: { id: input.productId, [IMAGE_FIELDS[input.slot]]: input.url } }, context: { silent: true } });
        else await client.mutate({ mutation: IMAGE_DELETES[input.slot], variables: { productId: input.productId }, context: { silent: true } });
        return input;
      })),
    },
    actions: {
      saved: (_, { name }) => {
        notify('success', 'Saved', `${name} is saved.`);
        onClose(true);
      },
    },
  }), { input: { productId, subtypeId: 'subtypeId' in target ? target.subtypeId : 0, fields: PRODUCT_FORM_FIELDS } });
  const snapshot = useSelector(actor, (s) => s);
  const { draft, error, tried, tab, savedName } = snapshot.context;
  return (
    <ProductFormView draft={draft} error={error} tried={tried} tab={tab} productName={savedName}
      loadFailed={snapshot.matches('loadFailed')} saving={snapshot.matches('saving') || snapshot.matches('saved')}
      productId={productId} tree={tree} additions={additions}
      typeIdOfNew={'typeId' in target ? target.typeId : null} send={actor.send} onClose={onClose} />
  );
}

/** What the view is given: the machine's state, the menu it picks from, and a way to tell the machine what the user did. */
export interface ProductFormViewProps {
  productId: number | null;
  /** The saved product's name, for the title. */
  productName: string | null;
  draft: ProductDraft | null;
  /** Why it could not be loaded, or the server's refusal of the last save or image change. */
  error: string | null;
  loadFailed: boolean;
  tried: boolean;
  saving: boolean;
  tab: 'details' | 'history';
  tree: Tree; additions: Additions;
  /** A new product's type (its sub-type's), before the tree says. */
  typeIdOfNew: number | null;
  send: (event: ProductFormEvent) => void;
  onClose: (saved: boolean) => void;
}

const typeOf = (tree: Tree, subtypeId: number | undefined) => tree.find((t) => t.subtypes?.some((s) => s?.id === subtypeId))?.id ?? null;
const additionsOfType = (additions: Additions, id: number | null) => additions.find((t) => t.id === id)?.additionGroups?.filter((g): g is NonNullable<typeof g> => !!g) ?? [];

export function ProductFormView({ productId, productName, draft, error, loadFailed, tried, saving, tab, tree, additions, typeIdOfNew, send, onClose }: ProductFormViewProps) {
  const title = productId ? `Edit ${productName ?? 'product'}` : 'New product';
  const set = (patch: Partial<ProductDraft>) => send({ type: 'product.edit', patch });
  const details = !draft
    ? (loadFailed ? <Callout intent="danger" role="alert">{error}</Callout> : <Spinner aria-label="Loading the product" />)
    : <Details {...{ draft, error, tried, saving, tree, additions, typeIdOfNew, send, set, title, onClose }} />;
  return (
    <Drawer isOpen onClose={() => onClose(false)} title={title} size="min(720px, 100%)" canOutsideClickClose={!saving}>
      <div className={Classes.DRAWER_BODY}>
        <div className={Classes.DIALOG_BODY}>
          {!productId ? details : (
            <Tabs id="mm-product-tabs" renderActiveTabPanelOnly selectedTabId={tab} onChange={(id) => send({ type: 'product.tab', tab: id as 'details' | 'history' })}>
              <Tab id="details" title="Details" panel={details} />
              <Tab id="history" title="History" panel={<ProductHistory productId={productId} tree={tree} additions={additions} />} />
            </Tabs>
          )}
        </div>
      </div>
    </Drawer>
  );
}

function Details({ draft, error, tried, saving, tree, additions, typeIdOfNew, send, set, title, onClose }: Pick<ProductFormViewProps, 'error' | 'tried' | 'saving' | 'tree' | 'additions' | 'typeIdOfNew' | 'send' | 'onClose'> & {
  draft: ProductDraft; set: (patch: Partial<ProductDraft>) => void; title: string;
}) {
  const problems = problemsOf(PRODUCT_FORM_FIELDS, draft);
  const typeAdditions = additionsOfType(additions, typeOf(tree, draft.subtypeId) ?? typeIdOfNew);
  /** Another sub-type may be of another product type, whose addition groups are others: keep only those that still apply. */
  const chooseSubtype = (subtypeId: number) => {
    const offered = new Set(additionsOfType(additions, typeOf(tree, subtypeId)).map((g) => g.id));
    set({ subtypeId, additionGroupIds: draft.additionGroupIds.filter((id) => offered.has(id)) });
  };
  const field = (f: ProductFormField) => {
    const value = draft.values[f.name] ?? '';
    const problem = tried && f.kind !== 'trimmed' && f.kind !== 'text' ? fieldError(f, value) : null;
    const props = {
      id: f.id, value, disabled: saving, placeholder: f.placeholder, ...(f.rtl && { dir: 'rtl', lang: 'ar' }),
      onChange: (e: { target: { value: string } }) => send({ type: 'product.value', name: f.name, value: e.target.value }),
    };
    return (
      <FormGroup key={f.name} label={f.label} labelFor={f.id} labelInfo={f.labelInfo} intent={problem ? Intent.DANGER : Intent.NONE} helperText={problem ?? f.helperText}>
        {f.multiline ? <TextArea fill {...props} />
          : <InputGroup {...props} inputMode={f.inputMode} onBlur={f.besideSubtype ? () => { if (value) send({ type: 'product.touch' }); } : undefined} />}
      </FormGroup>
    );
  };
  const subtype = (
    <FormGroup label="Sub-type" labelFor="product-subtype">
      <HTMLSelect id="product-subtype" value={draft.subtypeId} disabled={saving} onChange={(e) => chooseSubtype(Number(e.target.value))}>
        {tree.map((t) => (
          <optgroup key={t.id} label={t.name}>
            {(t.subtypes ?? []).map((s) => s && <option key={s.id} value={s.id}>{s.name}</option>)}
          </optgroup>
        ))}
      </HTMLSelect>
    </FormGroup>
  );
  return (
    <form className="mm-product-form" aria-label={title} noValidate onSubmit={(e) => { e.preventDefault(); send({ type: 'product.save' }); }}>
      {error && <Callout intent="danger" role="alert">{error}</Callout>}
      {tried && problems.length > 0 && <Callout intent="warning" role="alert">{problems[0]}</Callout>}
      {PRODUCT_FORM_FIELDS.map((f) => (f.besideSubtype ? <div key={f.name} className="mm-form-row">{field(f)}{subtype}</div> : field(f)))}
      <FormGroup label="Images" helperText="Up to three; each is uploaded on its own.">
        <div className="mm-images">
          {[0, 1, 2].map((slot) => (
            <div key={slot} className="mm-image-slot" aria-label={`Image ${slot + 1}`}>
              <ProductImageInput id={`product-image-${slot + 1}`} value={draft.images[slot]} disabled={saving} invalid={false}
                onChange={(url) => send({ type: 'product.image', slot, url: url as string })} onBlur={() => {}} />
              {draft.images[slot] && <Button small minimal icon={<TrashIcon />} text="Remove" disabled={saving} onClick={() => send({ type: 'product.image', slot, url: null })} />}
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
        <Button icon={<AddIcon />} text="Option group" disabled={saving} onClick={() => send({ type: 'product.addGroup' })} />
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
}
