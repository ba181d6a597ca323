import { and, assertEvent, assign, fromCallback, fromPromise, raise, setup } from 'xstate';
import { checkFields } from './resourceFields';
import {
  ResourceError, type HistoryEntry, type PageRequest, type PageResult, type ResourceContext, type ResourceEvent, type ResourceInput, type ResourceView, type Row,
  type SaveRequest, type Sorting, type ViewWrite,
} from './resourceTypes';

export type { FieldErrors, FieldRule } from './resourceFields';
export * from './resourceTypes';

/**
 * One admin screen (a resource: taxes, app updates, validation codes…): a server page of rows,
 * the edit form, the delete confirmation and a row's history. Every screen of the shape runs this
 * machine; they differ only by their config (src/console/resources/).
 *
 *   list:    loading ──▶ ready | error        resource.page / sort / filter / search / refresh / restore ──▶ loading
 *            (a page past the end, once loaded, goes to the last page: a shortened list or an old link)
 *   panel:   closed ──resource.create / resource.edit──▶ edit
 *              edit: loading (loadRow) ──▶ editing ──resource.save (valid)──▶ saving ──▶ closed + list reloads
 *                                          (input confirmSave: editing ──save──▶ confirming ──resource.confirmSave──▶ saving; cancel ──▶ editing)
 *                                                   saving ──(refused)──▶ saveFailed (input kept, server messages beside the fields)
 *            closed ──resource.delete──▶ confirmDelete: asking ──resource.confirmDelete──▶ deleting ──▶ closed + list reloads
 *   history: idle ──resource.history──▶ loading ──▶ ready | error    (of the row being edited)
 *
 * Writes are pessimistic: the list shows a saved row only once the server answered and the page
 * was read again. Field rules are checked on blur and on save: a field's message shows once it was
 * left or a save was tried. The server's field messages (ABP validationErrors) stand beside the
 * fields until the field changes.
 *
 * The list's view (search, filters, sorting, page) is kept in the address: it is read at the start
 * (input `view`), written on each change (action `writeView`: a page, filter, sort or page size is a
 * history entry of its own; typed search is one entry per burst of typing, each keystroke replacing
 * it), and restored when the address changes under the screen (Back: `resource.restore`, sent by
 * the actor `watchView`), without writing it again.
 *
 * Ports: actors `loadPage`, `loadRow`, `saveRow`, `deleteRow`, `loadHistory` (a failure rejects
 * with a ResourceError), `watchView` (sends `resource.restore`); actions `notify` (intent, message)
 * for what is not shown in place, `writeView` (view, push or replace). Unbound, the view stays here.
 */

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export const DEFAULT_TAKE = 25;
/** What a save announces (a screen may say more: ResourceConfig.savedNotice). */
export const SAVED = 'Saved.';
export const sortingText = (s: Sorting | null) => (s ? `${s.field} ${s.direction}` : undefined);
const unbound = (name: string) => async (): Promise<never> => { throw new Error(`${name} is not bound`); };
const reload = { target: '#resource.list.loading' } as const;
const freshForm = { touched: {}, triedSave: false, serverErrors: {}, saveError: null };
export const viewOf = (c: ResourceView): ResourceView => ({ search: c.search, filter: c.filter, sorting: c.sorting, skip: c.skip, take: c.take });
const sameSorting = (a: Sorting | null, b: Sorting | null) => a === b || (!!a && !!b && a.field === b.field && a.direction === b.direction);
const sameFilter = (a: ResourceView['filter'], b: ResourceView['filter']) => {
  const set = (f: ResourceView['filter']) => Object.entries(f).filter(([, v]) => v !== undefined);
  return set(a).length === set(b).length && set(a).every(([k, v]) => b[k] === v);
};
export const sameView = (a: ResourceView, b: ResourceView) =>
  a.search === b.search && a.skip === b.skip && a.take === b.take && sameSorting(a.sorting, b.sorting) && sameFilter(a.filter, b.filter);

const resourceSetup = setup({
  types: { context: {} as ResourceContext, events: {} as ResourceEvent, input: {} as ResourceInput, tags: {} as 'pending' },
  actors: {
    loadPage: fromPromise<PageResult, PageRequest>(unbound('loadPage')),
    loadRow: fromPromise<Row, { id: number }>(unbound('loadRow')),
    saveRow: fromPromise<Row, SaveRequest>(unbound('saveRow')),
    deleteRow: fromPromise<unknown, { id: number }>(unbound('deleteRow')),
    loadHistory: fromPromise<HistoryEntry[], { id: number }>(unbound('loadHistory')),
    watchView: fromCallback<ResourceEvent>(() => {}),
  },
  actions: {
    notify: (_, _params: { intent: 'success' | 'danger'; message: string }) => {},
    writeView: (_, _params: { view: ResourceView; history: ViewWrite }) => {},
  },
  guards: {
    isFormValid: ({ context }) => Object.keys(checkFields(context.fields, context.values, context.editId === null)).length === 0,
    asksFirst: ({ context }) => context.confirmSave,
  },
});

/** A deliberate change of the view: written to the address as an entry of its own; typing starts afresh. */
const stepped = [
  resourceSetup.assign({ typing: false }),
  { type: 'writeView', params: ({ context }: { context: ResourceContext }) => ({ view: viewOf(context), history: 'push' as const }) },
] as const;

/** The form's events, the same while editing and after a refused save (the input is kept). */
const formState = resourceSetup.createStateConfig({
  on: {
    'resource.change': {
      actions: resourceSetup.assign(({ context, event }) => {
        assertEvent(event, 'resource.change');
        const { [event.field]: _cleared, ...serverErrors } = context.serverErrors;
        return { values: { ...context.values, [event.field]: event.value }, serverErrors };
      }),
    },
    'resource.blur': {
      actions: resourceSetup.assign(({ context, event }) => {
        assertEvent(event, 'resource.blur');
        return { touched: { ...context.touched, [event.field]: true } };
      }),
    },
    'resource.save': [
      { guard: and(['isFormValid', 'asksFirst']), target: 'confirming', actions: resourceSetup.assign({ triedSave: true, saveError: null }) },
      { guard: 'isFormValid', target: 'saving', actions: resourceSetup.assign({ triedSave: true, saveError: null }) },
      { actions: resourceSetup.assign({ triedSave: true }) },
    ],
  },
});

export const resourceMachine = resourceSetup.createMachine({
  id: 'resource',
  type: 'parallel',
  context: ({ input }) => ({
    fields: input.fields, confirmSave: input.confirmSave ?? false, defaults: input.defaults ?? {}, fixed: input.fixed ?? {},
    skip: input.view?.skip ?? 0, take: input.view?.take ?? input.take ?? DEFAULT_TAKE,
    sorting: input.view?.sorting !== undefined ? input.view.sorting : input.sorting ?? null, filter: input.view?.filter ?? {}, search: input.view?.search ?? '',
    typing: false,
    rows: [], totalCount: 0, listError: null,
    editId: null, values: {}, touched: {}, triedSave: false, serverErrors: {}, saveError: null, deleteId: null, deleteError: null,
    history: [], historyError: null,
  }),
  // The address's changes under the screen (Back, Forward), for as long as the screen runs.
  invoke: { src: 'watchView' },
  states: {
    list: {
      initial: 'loading',
      on: {
        'resource.page': { ...reload, actions: [assign({ skip: ({ event }) => Math.max(0, event.skip) }), ...stepped] },
        'resource.pageSize': { ...reload, actions: [assign({ take: ({ event }) => event.take, skip: 0 }), ...stepped] },
        'resource.sort': { ...reload, actions: [assign({ sorting: ({ event }) => event.sorting, skip: 0 }), ...stepped] },
        'resource.filter': { ...reload, actions: [assign({ filter: ({ event }) => event.filter, skip: 0 }), ...stepped] },
        'resource.search': {
          ...reload,
          actions: [
            assign({ search: ({ event }) => event.search, skip: 0 }),
            // The first keystroke is an entry of its own (Back leaves the search); the next ones replace it.
            { type: 'writeView', params: ({ context }) => ({ view: viewOf(context), history: context.typing ? 'replace' as const : 'push' as const }) },
            assign({ typing: true }),
          ],
        },
        'resource.refresh': reload,
        // The address already holds this view: nothing is written.
        'resource.restore': {
          guard: ({ context, event }) => !sameView(viewOf(context), event.view),
          ...reload,
          actions: assign(({ event }) => ({ ...viewOf(event.view), typing: false })),
        },
      },
      states: {
        loading: {
          tags: ['pending'],
          invoke: {
            src: 'loadPage',
            input: ({ context: c }) => ({
              skip: c.skip, take: c.take, sorting: sortingText(c.sorting), search: c.search.trim() || undefined, filter: { ...c.filter, ...c.fixed },
            }),
            onDone: [
              {
                // Past the end (a page beyond the last, or its rows gone): the last page instead, in place of the address's.
                guard: ({ context, event }) => context.skip > 0 && event.output.rows.length === 0 && context.skip >= event.output.totalCount,
                target: '#resource.list.loading',
                reenter: true,
                actions: [
                  assign({ skip: ({ context, event }) => Math.max(0, Math.ceil(event.output.totalCount / context.take) - 1) * context.take }),
                  { type: 'writeView', params: ({ context }) => ({ view: viewOf(context), history: 'replace' as const }) },
                ],
              },
              { target: 'ready', actions: assign({ rows: ({ event }) => event.output.rows, totalCount: ({ event }) => event.output.totalCount, listError: null }) },
            ],
            onError: { target: 'error', actions: assign({ listError: ({ event }) => messageOf(event.error) }) },
          },
        },
        ready: {},
        error: {},
      },
    },
    panel: {
      initial: 'closed',
      states: {
        closed: {
          on: {
            'resource.create': {
              target: 'edit.editing',
              actions: assign(({ context }) => ({ editId: null, values: { ...context.defaults, ...context.fixed }, ...freshForm })),
            },
            'resource.edit': { target: 'edit.loading', actions: assign(({ event }) => ({ editId: event.id, values: {}, ...freshForm })) },
            'resource.delete': { target: 'confirmDelete', actions: assign({ deleteId: ({ event }) => event.id, deleteError: null }) },
          },
        },
        edit: {
          initial: 'editing',
          on: { 'resource.cancel': '#resource.panel.closed' },
          states: {
            loading: {
              tags: ['pending'],
              invoke: {
                src: 'loadRow',
                input: ({ context }) => ({ id: context.editId! }),
                onDone: { target: 'editing', actions: assign({ values: ({ event }) => ({ ...event.output }) }) },
                onError: {
                  target: '#resource.panel.closed',
                  actions: { type: 'notify', params: ({ event }) => ({ intent: 'danger' as const, message: messageOf(event.error) }) },
                },
              },
            },
            editing: formState,
            saveFailed: formState,
            // A save that acts at once (input `confirmSave`): asked for first; Cancel goes back to the form as it was.
            confirming: { on: { 'resource.confirmSave': 'saving', 'resource.cancel': 'editing' } },
            saving: {
              tags: ['pending'],
              invoke: {
                src: 'saveRow',
                input: ({ context }) => ({ id: context.editId, values: context.values, fixed: context.fixed }),
                onDone: {
                  target: '#resource.panel.closed',
                  // The list shows the row as the server now holds it.
                  actions: [assign({ editId: null }), { type: 'notify', params: { intent: 'success' as const, message: SAVED } }, raise({ type: 'resource.refresh' })],
                },
                onError: {
                  target: 'saveFailed',
                  actions: assign({
                    saveError: ({ event }) => messageOf(event.error),
                    serverErrors: ({ event }) => (event.error instanceof ResourceError ? event.error.fieldErrors : {}),
                  }),
                },
              },
            },
          },
        },
        confirmDelete: {
          initial: 'asking',
          on: { 'resource.cancel': { target: 'closed', actions: assign({ deleteId: null }) } },
          states: {
            asking: { on: { 'resource.confirmDelete': 'deleting' } },
            deleting: {
              tags: ['pending'],
              invoke: {
                src: 'deleteRow',
                input: ({ context }) => ({ id: context.deleteId! }),
                onDone: {
                  target: '#resource.panel.closed',
                  actions: [assign({ deleteId: null }), { type: 'notify', params: { intent: 'success' as const, message: 'Deleted.' } }, raise({ type: 'resource.refresh' })],
                },
                // e.g. 409: other records refer to it. The dialog stays, with the server's sentence.
                onError: { target: 'asking', actions: assign({ deleteError: ({ event }) => messageOf(event.error) }) },
              },
            },
          },
        },
      },
    },
    history: {
      initial: 'idle',
      on: {
        'resource.history': { guard: ({ context }) => context.editId !== null, target: '.loading' },
        'resource.cancel': '.idle',
        'resource.edit': '.idle',
      },
      states: {
        idle: {},
        loading: {
          tags: ['pending'],
          invoke: {
            src: 'loadHistory',
            input: ({ context }) => ({ id: context.editId! }),
            onDone: { target: 'ready', actions: assign({ history: ({ event }) => event.output, historyError: null }) },
            onError: { target: 'error', actions: assign({ historyError: ({ event }) => messageOf(event.error) }) },
          },
        },
        ready: {},
        error: {},
      },
    },
  },
});
