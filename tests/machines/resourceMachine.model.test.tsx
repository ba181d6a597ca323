import { readFileSync } from 'node:fs';
import { beforeAll, expect } from 'vitest';
import { assign, type SnapshotFrom } from 'xstate';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { atomicStateIds, describeModel, type ModelPath } from '../support/describeModel';
import { useServerProcess } from '../support/harness';
import { renderApp, resetBrowser } from '../support/renderApp';
import { resourceMachine, ResourceError } from '../../machines/resourceMachine';
import { selectForm } from '../../machines/resourceSelectors';
import { taxScreen } from '../../src/console/resources/configs/tax';

/**
 * The resource shape as a company admin lives it on the real Tax screen (/brands/taxes/7),
 * generated from the real resource machine (machines/resourceMachine.ts) with the Tax screen's own
 * fields, defaults and sorting: the Table2 list sorted with the mouse and searched, the form's rules
 * on blur and on save, a save the server refuses (input kept, the server's message beside the
 * field), pessimistic saves, the History tab and the delete confirmation. Real view in jsdom, real
 * server process. The machine's actors answer as the server does (a percent with 4 decimals is
 * refused); its `notify` port records what the machine tells the user ('Saved.', 'Deleted.'), so
 * the list after a write is a state of its own. Each state checks what the screen shows against
 * the machine's selectors, and what the server holds.
 */
type Res = SnapshotFrom<typeof resourceMachine>;
type Ctx = Res['context'] & { notice?: string };
const ALPHA = { id: 1, brandId: 7, name: 'Alpha', percent: 1, isActive: true };
const BETA = { id: 2, brandId: 7, name: 'Beta', percent: 2, isActive: false };
const TOO_PRECISE = '1.2345';
const tooPrecise = new ResourceError('Percent must be multiple of 0.001.', { percent: 'Percent must be multiple of 0.001.' });
const withNotices = (machine: typeof resourceMachine) =>
  machine.provide({ actions: { notify: assign((_: unknown, p: { message: string }) => ({ notice: p.message }) as never) as never } });

/**
 * What the admin does next in each state: a bounded set. The list's own events only on the first
 * list (after a sort, a search or a write the walk checks the list and ends); one field at a time,
 * in the form's order; the History tab ends an edit's walk; while a call is out, only its answer.
 */
function nextEvents(s: Res) {
  const c = s.context as Ctx;
  if (s.matches({ panel: 'closed' })) {
    return c.notice || c.search || c.sorting?.direction !== 'asc' ? [] : [
      { type: 'resource.sort', sorting: { field: 'name', direction: 'desc' } }, { type: 'resource.search', search: 'et' },
      { type: 'resource.create' }, { type: 'resource.edit', id: ALPHA.id }, { type: 'resource.delete', id: ALPHA.id },
    ];
  }
  if (s.matches({ panel: 'confirmDelete' })) return [{ type: 'resource.confirmDelete' }];
  if (!s.matches({ history: 'idle' })) return [];
  if (c.editId !== null) {
    return c.values.name === 'Alpha' ? [{ type: 'resource.change', field: 'name', value: 'Alpha 2' }, { type: 'resource.history' }]
      : c.values.percent === ALPHA.percent ? [{ type: 'resource.change', field: 'percent', value: '1.5' }] : [{ type: 'resource.save' }];
  }
  // A new tax: a rule's message (the name left empty, or a save tried on the empty form), or filled in.
  if (c.values.name === undefined) {
    return c.touched.name || c.triedSave ? [] : [{ type: 'resource.blur', field: 'name' }, { type: 'resource.save' }, { type: 'resource.change', field: 'name', value: 'Gamma' }];
  }
  if (c.values.percent === undefined) return [TOO_PRECISE, '1.25'].map((value) => ({ type: 'resource.change', field: 'percent', value }));
  if (c.values.percent === TOO_PRECISE && s.matches({ panel: { edit: 'saveFailed' } })) return [{ type: 'resource.change', field: 'percent', value: '1.25' }];
  return [{ type: 'resource.save' }];
}

const resourceModel = {
  machine: withNotices(resourceMachine),
  input: { fields: taxScreen.fields, defaults: taxScreen.defaults, fixed: { brandId: 7 }, sorting: taxScreen.defaultSorting },
  events: nextEvents,
  answers: {
    loadPage: { done: [{ rows: [ALPHA, BETA], totalCount: 2 }] },
    loadRow: { done: [ALPHA] },
    saveRow: {
      done: (s: Res) => (s.context.values.percent === TOO_PRECISE ? [] : [{ ...ALPHA, ...s.context.values }]),
      error: (s: Res) => (s.context.values.percent === TOO_PRECISE ? [tooPrecise] : []),
    },
    deleteRow: { done: [true] },
    loadHistory: { done: [[{ id: 1, at: '2026-01-01T00:00:00Z', userName: 'admin', action: 'Created', before: null, after: ALPHA }]] },
  },
  // Only nextEvents' events, so every variant's graph stays finite (paging, filters, refresh and cancel are other screens' walks).
  filterEvents: (s: Res, e: { type: string }) => (s.hasTag('pending') ? e.type.startsWith('xstate.') : nextEvents(s).some((n) => n.type === e.type)),
  serialize: (s: Res) => {
    const c = s.context as Ctx;
    return [s.value, c.editId, c.values.name, c.values.percent, !!c.touched.name, c.triedSave, c.sorting?.direction, c.search, c.notice ?? null];
  },
};

const BRAND = 7;
const TAX = '/api/services/app/Tax';
const server = useServerProcess();
let admin: string;
let companyAdmin: { token: string; userId: number };
beforeAll(async () => {
  admin = await server.api.login('admin');
  const res = await server.api.post('/api/TokenAuth/Authenticate', { body: { userNameOrEmailAddress: 'companyadmin', password: '123qwe' } });
  companyAdmin = { token: res.body.result.accessToken, userId: res.body.result.userId };
  // Blueprint's table styles and the screen's own, so the sort control's pointer behaviour is the browser's.
  for (const file of ['node_modules/@blueprintjs/table/lib/css/table.css', 'src/console/resources/resources.css', 'src/console/table/table.css']) {
    const style = document.createElement('style');
    style.textContent = readFileSync(file, 'utf8');
    document.head.appendChild(style);
  }
});

/** The brand's taxes on the server, by name. */
async function serverTaxes() {
  const res = await server.api.get(`${TAX}/GetAllByBrandId`, { token: admin, query: { brandId: BRAND, MaxResultCount: 100, Sorting: 'name asc' } });
  return res.body.result.data as { id: number; name: string; percent: number; isActive: boolean }[];
}
/** Each path starts from the same two taxes: Alpha 1 % (active) and Beta 2 % (inactive). */
async function resetTaxes() {
  for (const t of await serverTaxes()) await server.api.delete(`${TAX}/Delete`, { token: admin, query: { TaxId: t.id } });
  for (const { name, percent, isActive } of [ALPHA, BETA]) {
    await server.api.post(`${TAX}/Create`, { token: admin, body: { brandId: BRAND, name, percent, isActive } });
  }
}

const listedNames = () => [...document.querySelectorAll('.resource-table [data-column="name"]')].map((e) => e.textContent);
const expectListed = (names: string[]) => waitFor(() => expect(listedNames()).toEqual(names), { timeout: 10_000 });
const drawer = () => {
  const el = document.querySelector<HTMLElement>('.bp6-drawer');
  if (!el) throw new Error('the form is not open');
  return el;
};
const findDrawer = () => waitFor(drawer, { timeout: 10_000 });
const drawerClosed = () => waitFor(() => expect(document.querySelector('.bp6-drawer')).toBeNull(), { timeout: 10_000 });
/** Table2 draws the header in more than one quadrant; they are the same control. */
const sortControl = (name: string) => screen.getAllByRole('button', { name: `Sort by ${name}` })[0];
const LABELS: Record<string, RegExp> = { name: /^Name/, percent: /^Percent/ };
const field = (name: string) => within(drawer()).getByLabelText(LABELS[name]) as HTMLInputElement;
const fieldMessage = (name: string) => document.getElementById(`field-${name}-message`)?.textContent ?? '';
const rowButton = (label: string, name: string) => {
  const id = [...document.querySelectorAll('.resource-table [data-column="name"]')].find((e) => e.textContent === name)?.getAttribute('data-row-id');
  return screen.getByRole('button', { name: `${label} tax ${id}` });
};
const confirmText = 'Delete this tax? This cannot be undone.';

/**
 * What a browser gives `pointer-events` on an element: its own declared value, else its
 * parent's (the property is inherited). Blueprint declares `none` on the column name's text.
 */
function pointerEvents(el: Element | null): string {
  for (; el; el = el.parentElement) {
    let declared = '';
    for (const sheet of [...document.styleSheets]) {
      for (const rule of [...sheet.cssRules] as CSSStyleRule[]) {
        if (rule.style?.getPropertyValue('pointer-events') && rule.selectorText && el.matches(rule.selectorText)) declared = rule.style.getPropertyValue('pointer-events');
      }
    }
    if (declared) return declared;
  }
  return 'auto';
}

/** The list as the machine has it: the server's taxes under its search, in its order; after a write, what it said it did. */
async function expectList(s: Res) {
  const c = s.context as Ctx;
  const held = await serverTaxes();
  const names = held.map((t) => t.name).filter((n) => n.toLowerCase().includes(c.search.trim().toLowerCase()));
  await expectListed(c.sorting?.direction === 'desc' ? names.reverse() : names);
  expect(sortControl('Name').getAttribute('aria-sort')).toBe(c.sorting?.direction === 'desc' ? 'descending' : 'ascending');
  if (c.notice === 'Deleted.') expect(held.map((t) => t.name)).toEqual(['Beta']);
  if (c.notice === 'Saved.') expect(held.find((t) => t.name === c.values.name)).toMatchObject({ percent: Number(c.values.percent), isActive: c.values.isActive });
}

/** The form as the machine's selector has it: title, values, and each field's message (the field's help when it has none). */
async function expectForm(s: Res) {
  const form = selectForm(s);
  await findDrawer();
  if (form.isNew) expect(within(drawer()).getByText('New tax')).toBeTruthy();
  for (const f of ['name', 'percent']) {
    const want = form.values[f];
    await waitFor(() => expect(field(f).value).toBe(want === undefined ? '' : String(want)));
    // The server's refusal reads as the server words it; the form's own rules as the machine does.
    if (s.context.serverErrors[f]) await waitFor(() => expect(fieldMessage(f)).toMatch(/^Percent must be multiple of 0.001/));
    else await waitFor(() => expect(fieldMessage(f)).toBe(form.errors[f] ?? taxScreen.fields?.find((x) => x.name === f)?.help ?? ''));
  }
  expect((within(drawer()).getByLabelText('Active') as HTMLInputElement).checked).toBe(!!form.values.isActive);
}

type Step = { event: Record<string, unknown>; state: Res };

describeModel('Tax screen on the resource shape (model-based on the real machine, real view, real server)', {
  ...resourceModel,
  minPaths: 9,
  // The real server answers every read here: a list or a history that fails to load is not a walk of this screen.
  // A save asked for first (input confirmSave) is the notification send screen's walk: resourceConfirm.model.test.tsx.
  mustVisit: atomicStateIds(resourceMachine).filter((id) => !['resource.list.error', 'resource.history.error', 'resource.panel.edit.confirming'].includes(id)),
  start: async () => {
    resetBrowser();
    await resetTaxes();
    localStorage.setItem('token', companyAdmin.token);
    localStorage.setItem('userId', String(companyAdmin.userId));
    renderApp(server, `/brands/taxes/${BRAND}`);
    await screen.findByRole('heading', { name: 'Brand Taxes' });
  },
  steps: {
    // The server's answers: the action before asked for them; the states wait for what they show.
    'loadPage.done': () => {}, 'loadRow.done': () => {}, 'saveRow.error': () => {}, 'loadHistory.done': () => {},
    // What the machine's notify port says, the console's toaster shows.
    'saveRow.done': async () => { await drawerClosed(); await screen.findByText('Saved.'); },
    'deleteRow.done': async () => {
      await waitFor(() => expect(screen.queryByText(confirmText)).toBeNull());
      await screen.findByText('Deleted.');
    },
    'resource.sort': () => {
      const control = sortControl('Name');
      // A mouse reaches it only if it takes the pointer back from Blueprint's name text.
      expect(pointerEvents(control)).toBe('auto');
      expect(pointerEvents(control.closest('.bp6-table-column-name-text'))).toBe('none');
      fireEvent.click(control);
    },
    'resource.search': (_: void, step: Step) => { fireEvent.change(screen.getByLabelText('Search by name'), { target: { value: step.event.search } }); },
    'resource.create': async () => { fireEvent.click(screen.getByRole('button', { name: 'New tax' })); await findDrawer(); },
    'resource.edit': async () => { fireEvent.click(rowButton('Edit', ALPHA.name)); await findDrawer(); },
    'resource.delete': async () => { fireEvent.click(rowButton('Delete', ALPHA.name)); await screen.findByText(confirmText); },
    'resource.confirmDelete': () => { fireEvent.click(screen.getByRole('button', { name: 'Delete' })); },
    'resource.history': () => { fireEvent.click(within(drawer()).getByRole('tab', { name: 'History' })); },
    'resource.change': async (_: void, step: Step) => {
      const el = await waitFor(() => field(step.event.field as string));
      fireEvent.change(el, { target: { value: step.event.value } });
    },
    'resource.blur': (_: void, step: Step) => {
      const el = field(step.event.field as string);
      fireEvent.focus(el);
      fireEvent.blur(el);
    },
    'resource.save': () => { fireEvent.click(within(drawer()).getByRole('button', { name: 'Save' })); },
  },
  states: {
    'list.ready': async (_: void, s: Res) => { if (s.matches({ panel: 'closed' })) await expectList(s); },
    'panel.edit.editing': async (_: void, s: Res) => { if (s.matches({ history: 'idle' })) await expectForm(s); },
    // Checked at once after the click, before the server can answer: the form is busy, its fields locked.
    'panel.edit.saving': () => {
      expect(drawer().querySelector('button[type="submit"]')?.classList.contains('bp6-loading'), 'the Save button is busy').toBe(true);
      expect(field('name').disabled).toBe(true);
    },
    'panel.edit.saveFailed': async (_: void, s: Res) => {
      await expectForm(s);
      // The server's own refusal, above the fields; the input is kept, nothing is saved.
      expect(within(drawer()).getByRole('alert').textContent).toBeTruthy();
      expect((await serverTaxes()).map((t) => t.name)).toEqual(['Alpha', 'Beta']);
    },
    'panel.confirmDelete.asking': () => { expect(screen.getByText(confirmText)).toBeTruthy(); },
    'history.ready': async () => {
      const table = await within(drawer()).findByRole('table', { name: 'History' }, { timeout: 10_000 });
      expect(within(table).getByText('Created')).toBeTruthy();
      expect(within(table).getByText('admin')).toBeTruthy();
    },
  },
  broken: [{
    // A machine that saves a form its rules refuse: the model sends the empty form, the view keeps it with 'Name is required.'.
    name: 'a machine that saves a form with a required field empty',
    spec: { machine: withNotices(resourceMachine.provide({ guards: { isFormValid: () => true } })) },
    pick: (p: ModelPath<typeof resourceMachine>) => p.steps.some((st, i) => st.event.type === 'resource.save' && p.steps[i - 1]?.state.context.values.name === undefined),
    failsWith: /resource\.save → .*saving.*the Save button is busy/,
  }],
} as never);
