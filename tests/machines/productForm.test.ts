import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { fieldError, productFormMachine, type ImageRequest, type LoadedProduct, type PlainField, type SaveRequest } from '../../machines/productForm';

/**
 * The product form's machine (machines/productForm.ts), with its ports stubbed: a new product is
 * checked before anything is sent, a saved one is loaded into text and read back by each field's
 * kind (calories: empty is null), a refusal keeps the draft, and a saved product's images change at once.
 */
const FIELDS: PlainField[] = [
  { name: 'name', label: 'Name', kind: 'trimmed', required: 'Give the product a name.' },
  { name: 'nameAr', label: 'Arabic name', kind: 'arabicName' },
  { name: 'description', label: 'Description', kind: 'text' },
  { name: 'price', label: 'Price', kind: 'money' },
  { name: 'calories', label: 'Calories', kind: 'integer', min: 0, max: 10000 },
];

function start(productId: number | null, ports: { load?: () => Promise<LoadedProduct>; save?: (r: SaveRequest) => Promise<{ name: string }>; image?: (r: ImageRequest) => Promise<ImageRequest> } = {}) {
  const sent: SaveRequest[] = [];
  const images: ImageRequest[] = [];
  const saved: string[] = [];
  const actor = createActor(productFormMachine.provide({
    actors: {
      loadProduct: fromPromise(async () => ports.load!()),
      saveProduct: fromPromise(async ({ input }: { input: SaveRequest }) => { sent.push(input); return ports.save ? ports.save(input) : { name: String(input.input.name) }; }),
      changeImage: fromPromise(async ({ input }: { input: ImageRequest }) => { images.push(input); return ports.image ? ports.image(input) : input; }),
    },
    actions: { saved: (_, { name }) => { saved.push(name); } },
  }), { input: { productId, subtypeId: 4, fields: FIELDS } }).start();
  const value = (name: string, v: string) => actor.send({ type: 'product.value', name, value: v });
  return { actor, sent, images, saved, value };
}

describe('the product form machine', () => {
  it('checks a new product before sending anything, then sends every field read by its kind', async () => {
    const { actor, sent, saved, value } = start(null);
    expect(actor.getSnapshot().matches('editing')).toBe(true);
    actor.send({ type: 'product.save' });
    expect(actor.getSnapshot().matches('editing')).toBe(true);
    expect(actor.getSnapshot().context.tried).toBe(true);
    expect(sent).toEqual([]);
    value('name', '  Rose latte ');
    value('price', '1.750');
    value('calories', '10001');
    actor.send({ type: 'product.save' });
    expect(sent).toEqual([]);
    value('calories', '');
    actor.send({ type: 'product.image', slot: 1, url: '/uploads/a.png' });
    actor.send({ type: 'product.save' });
    await waitFor(actor, (s) => s.matches('saved'));
    expect(sent[0]).toEqual({
      productId: null,
      input: {
        name: 'Rose latte', nameAr: '', description: '', price: 1.75, calories: null, subtypeId: 4, optionGroups: [], additionGroupIds: [],
        productImage: null, productSecondImage: '/uploads/a.png', productThirdImage: null,
      },
    });
    expect(saved).toEqual(['Rose latte']);
  });

  it('loads a saved product as text, keeps the draft when the server refuses, and changes its images at once', async () => {
    const { actor, sent, images, saved, value } = start(9, {
      load: async () => ({ id: 9, subtypeId: 4, name: 'Bun', nameAr: null, description: 'Soft', price: 0.5, calories: 320, productImage: '/uploads/b.png', optionGroups: [], additionGroupIds: [3, null] }),
      save: async (r) => { if (r.input.calories === 0) throw new Error('Refused by the server.'); return { name: 'Bun' }; },
    });
    await waitFor(actor, (s) => s.matches('editing'));
    const { draft, savedName } = actor.getSnapshot().context;
    expect(savedName).toBe('Bun');
    expect(draft?.values).toEqual({ name: 'Bun', nameAr: '', description: 'Soft', price: '0.500', calories: '320' });
    expect(draft?.images).toEqual(['/uploads/b.png', null, null]);
    expect(draft?.additionGroupIds).toEqual([3]);

    actor.send({ type: 'product.image', slot: 0, url: null });
    await waitFor(actor, (s) => s.matches('editing') && s.context.draft!.images[0] === null);
    expect(images).toEqual([{ productId: 9, slot: 0, url: null }]);

    value('calories', '0');
    actor.send({ type: 'product.save' });
    await waitFor(actor, (s) => s.matches('editing') && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe('Refused by the server.');
    expect(actor.getSnapshot().context.draft?.values.calories).toBe('0');
    expect(sent[0]).toMatchObject({ productId: 9, input: { calories: 0, price: 0.5 } });
    expect(sent[0].input).not.toHaveProperty('productImage');
    expect(saved).toEqual([]);
  });

  it('says what is wrong with a field, or null', () => {
    const calories = FIELDS[4];
    for (const bad of ['-5', '2.5', '10001', 'abc']) expect(fieldError(calories, bad)).toBe('Calories: a whole number from 0 to 10000, or empty.');
    for (const good of ['', '0', '10000', ' 250 ']) expect(fieldError(calories, good)).toBeNull();
    expect(fieldError(FIELDS[0], '  ')).toBe('Give the product a name.');
    expect(fieldError(FIELDS[3], '1.7505')).toBe('A price in KD with up to 3 decimals, e.g. 1.250.');
  });
});
