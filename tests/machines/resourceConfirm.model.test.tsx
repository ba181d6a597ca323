import { beforeAll, expect } from 'vitest';
import { assign, type SnapshotFrom } from 'xstate';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describeModel, type ModelPath } from '../support/describeModel';
import { useServerProcess } from '../support/harness';
import { renderApp, resetBrowser } from '../support/renderApp';
import { resourceMachine } from '../../machines/resourceMachine';
import { notificationSendScreen } from '../../src/console/notifications/notificationScreens';

/**
 * A save that acts at once, asked for first (the resource machine's `confirmSave`), as ADMIN lives it
 * on /NotificationRequest, where Save sends a notification to the brand's customers. Generated from
 * the real resource machine with the send screen's own fields: the form filled in, Save asks "Send …
 * now?", Back to the form keeps what was typed and sends nothing, Send now sends once. Real view in
 * jsdom, real server process; each state checks the screen against the machine and the server's
 * sent notifications. (The Tax screen's walk, resourceMachine.model.test.tsx, covers the rest of the shape.)
 */
type Res = SnapshotFrom<typeof resourceMachine>;
type Ctx = Res['context'] & { notice?: string };
const BRAND = 7;
let walk = 0;
let title = '';
const withNotices = (machine: typeof resourceMachine) =>
  machine.provide({ actions: { notify: assign((_: unknown, p: { message: string }) => ({ notice: p.message }) as never) as never } });

/** ADMIN's next step: the form's fields in order, then Save; asked, Back to the form or Send now. */
function nextEvents(s: Res) {
  const c = s.context as Ctx;
  if (s.matches({ panel: 'closed' })) return c.notice ? [] : [{ type: 'resource.create' }];
  if (s.matches({ panel: { edit: 'confirming' } })) return [{ type: 'resource.cancel' }, { type: 'resource.confirmSave' }];
  if (c.values.brandId == null) return [{ type: 'resource.change', field: 'brandId', value: BRAND }];
  if (c.values.title === undefined) return [{ type: 'resource.change', field: 'title', value: 'TITLE' }];
  if (c.values.text === undefined) return [{ type: 'resource.change', field: 'text', value: 'Fresh bread from six.' }];
  return [{ type: 'resource.save' }];
}

const server = useServerProcess();
let admin: { token: string; userId: number };
beforeAll(async () => {
  const res = await server.api.post('/api/TokenAuth/Authenticate', { body: { userNameOrEmailAddress: 'admin', password: '123qwe' } });
  admin = { token: res.body.result.accessToken, userId: res.body.result.userId };
});

/** The notifications sent with this walk's title. */
async function sentNow() {
  const res = await server.api.get('/api/services/app/Notifications/GetSentNotifications', { token: admin.token, query: { MaxResultCount: 100 } });
  return (res.body.result.data as { title: string }[]).filter((n) => n.title === title);
}
const drawer = () => {
  const el = document.querySelector<HTMLElement>('.bp6-drawer');
  if (!el) throw new Error('the form is not open');
  return el;
};
const LABELS: Record<string, RegExp> = { brandId: /^Brand/, title: /^Title/, text: /^Text/ };
const field = (name: string) => within(drawer()).getByLabelText(LABELS[name]) as HTMLInputElement;
const asking = () => screen.queryByText(/^Send ".*" now to all the brand's customers\? It reaches their phones at once and cannot be taken back\.$/);

type Step = { event: Record<string, unknown>; state: Res };

describeModel('a save asked for first: ADMIN sends a notification (model-based on the real machine, real view, real server)', {
  machine: withNotices(resourceMachine),
  input: { fields: notificationSendScreen.fields, confirmSave: true },
  events: nextEvents,
  answers: { loadPage: { done: [{ rows: [], totalCount: 0 }] }, saveRow: { done: [{ id: 1 }] } },
  filterEvents: (s: Res, e: { type: string }) => (s.hasTag('pending') ? e.type.startsWith('xstate.') : nextEvents(s).some((n) => n.type === e.type)),
  serialize: (s: Res) => {
    const c = s.context as Ctx;
    return [s.value, c.values.brandId, c.values.title, c.values.text, c.triedSave, c.notice ?? null];
  },
  minPaths: 2,
  mustVisit: ['resource.panel.edit.editing', 'resource.panel.edit.confirming', 'resource.panel.edit.saving', 'resource.panel.closed'],
  start: async () => {
    resetBrowser();
    title = `Bread ${++walk} ${Math.random().toString(36).slice(2, 7)}`;
    localStorage.setItem('token', admin.token);
    localStorage.setItem('userId', String(admin.userId));
    renderApp(server, '/NotificationRequest');
    await screen.findByRole('button', { name: 'New notification' }, { timeout: 30_000 });
  },
  steps: {
    'loadPage.done': () => {},
    'saveRow.done': async () => {
      await waitFor(() => expect(document.querySelector('.bp6-drawer')).toBeNull(), { timeout: 10_000 });
      await screen.findByText('Notification sent');
    },
    'resource.create': async () => {
      fireEvent.click(screen.getByRole('button', { name: 'New notification' }));
      await waitFor(drawer);
    },
    'resource.change': async (_: void, step: Step) => {
      const name = step.event.field as string;
      if (name === 'brandId') {
        const select = await waitFor(() => field('brandId'));
        await waitFor(() => expect(select.querySelector(`option[value="${BRAND}"]`)).not.toBeNull(), { timeout: 10_000 });
        fireEvent.change(select, { target: { value: String(BRAND) } });
      } else fireEvent.change(field(name), { target: { value: step.event.value === 'TITLE' ? title : step.event.value } });
    },
    'resource.save': () => { fireEvent.click(within(drawer()).getByRole('button', { name: 'Save' })); },
    'resource.cancel': async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Back to the form' }));
      await waitFor(() => expect(asking()).toBeNull());
    },
    'resource.confirmSave': () => { fireEvent.click(screen.getByRole('button', { name: 'Send now' })); },
  },
  states: {
    'panel.edit.editing': async (_: void, s: Res) => {
      await waitFor(drawer);
      // Back from the question: the form as it was, and nothing sent.
      if (s.context.triedSave) {
        expect(field('title').value).toBe(title);
        expect(field('text').value).toBe('Fresh bread from six.');
        expect(await sentNow()).toEqual([]);
      }
    },
    'panel.edit.confirming': async () => {
      await waitFor(() => expect(asking()?.textContent).toContain(`Send "${title}" now`));
      expect(await sentNow()).toEqual([]);
    },
    // Checked at once after the click: the form is busy.
    'panel.edit.saving': () => {
      expect(drawer().querySelector('button[type="submit"]')?.classList.contains('bp6-loading'), 'the Save button is busy').toBe(true);
    },
    'list.ready': async (_: void, s: Res) => {
      if ((s.context as Ctx).notice) await waitFor(async () => expect(await sentNow()).toHaveLength(1), { timeout: 10_000 });
    },
  },
  broken: [{
    // A machine that sends on Save without asking: the model expects the busy form, the view asks first.
    name: 'a machine that sends on Save without asking',
    spec: { machine: withNotices(resourceMachine.provide({ guards: { asksFirst: () => false } })) },
    pick: (p: ModelPath<typeof resourceMachine>) => p.steps.some((st) => st.event.type === 'resource.save'),
    failsWith: /the Save button is busy/,
  }],
} as never);
