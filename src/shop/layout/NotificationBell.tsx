import './notificationBell.css';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useDismiss } from './useDismiss';
import { BellIcon } from './BellIcon';
import { useMutation, useQuery } from '@apollo/client/react';
import { graphql } from '../../gql';
import { dateTime, t } from '../../i18n';

const Inbox = graphql(`
  query MyNotifications($take: Int!) {
    inbox: Notifications_GetMyNotifications(SkipCount: 0, MaxResultCount: $take) {
      totalCount unreadCount data { id brandName title text createdAt isRead }
    }
  }
`);
const MarkRead = graphql(`
  mutation MarkNotificationsAsRead($input: MarkNotificationsAsReadInput_Input) { Notifications_MarkNotificationsAsRead(input: $input) { unreadCount } }
`);
const PushKey = graphql(`query PushPublicKey { key: Notifications_GetPushPublicKey { publicKey } }`);
const Subscribe = graphql(`mutation SubscribeToPush($input: SubscribeToPushInput_Input) { Notifications_SubscribeToPush(input: $input) { subscribed } }`);

/** How often the bell asks for new notifications while the shop is open (a push, when configured, also wakes it). */
const POLL_MS = 60_000;
const when = (v: string) => dateTime(v, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * The customer's inbox in the shop's header (docs/decisions.md "Notifications"): a bell with the
 * unread count, and a list that opens under it. Opening an unread notification marks it read;
 * "Mark all as read" marks them all. Only a signed-in customer has an inbox (the layout mounts it).
 */
export function NotificationBell() {
  const [open, setOpen] = useState(false);
  // The list opens under the whole header, never over it: on a phone the header wraps into rows and
  // the bell sits on the first, so opening under the bell hid the rows below it.
  const [top, setTop] = useState(0);
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);
  const { data, refetch } = useQuery(Inbox, { variables: { take: 20 }, pollInterval: POLL_MS, context: { silent: true }, fetchPolicy: 'cache-and-network' });
  const [markRead] = useMutation(MarkRead, { context: { silent: true } });
  const unread = data?.inbox?.unreadCount ?? 0;
  const items = (data?.inbox?.data ?? []).filter((n) => !!n);

  useDismiss(open, root, useCallback(() => setOpen(false), []));
  // A push that arrives while the shop is open refreshes the list at once (public/push-sw.js posts it).
  useEffect(() => {
    const onMessage = (e: MessageEvent) => { if (e.data?.type === 'notification') void refetch(); };
    navigator.serviceWorker?.addEventListener('message', onMessage);
    return () => navigator.serviceWorker?.removeEventListener('message', onMessage);
  }, [refetch]);

  const read = async (notificationId?: number) => {
    await markRead({ variables: { input: notificationId ? { notificationId } : {} } }).catch(() => undefined);
    await refetch().catch(() => undefined);
  };

  return (
    <div className="bell" ref={root}>
      <button type="button" className="shop-link-button bell__button" aria-expanded={open} aria-controls={panelId}
        aria-label={t('inbox.bellLabel', { count: unread })} data-testid="notification-bell" onClick={() => { setTop(Math.max(0, (root.current?.closest('header') ?? root.current)?.getBoundingClientRect().bottom ?? 60) + 8); setOpen((o) => !o); }}>
        <BellIcon />
        {unread > 0 && <span className="shop-nav__badge bell__count" data-testid="notification-count">{unread}</span>}
      </button>
      {open && (
        <section id={panelId} className="bell__panel" style={{ top, maxHeight: `calc(100dvh - ${top + 8}px)` }} aria-label={t('inbox.title')} data-testid="notification-panel">
          <header className="bell__head">
            <h2>{t('inbox.title')}</h2>
            {unread > 0 && <button type="button" className="bell__all" onClick={() => void read()}>{t('inbox.markAllRead')}</button>}
          </header>
          {items.length === 0 ? <p className="bell__empty">{t('inbox.empty')}</p> : (
            <ul className="bell__list">
              {items.map((n) => (
                <li key={n.id}>
                  <button type="button" className={`bell__item${n.isRead ? '' : ' bell__item--unread'}`} data-testid="notification-item"
                    onClick={() => { if (!n.isRead) void read(n.id); }}>
                    <span className="bell__title">{n.title}{!n.isRead && <span className="bell__new">{t('inbox.unread')}</span>}</span>
                    <span className="bell__text">{n.text}</span>
                    <span className="bell__meta">{n.brandName} · {when(n.createdAt)}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
          <PushSwitch />
        </section>
      )}
    </div>
  );
}

const pushSupported = () => typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
/**
 * iOS and iPadOS deliver web push only to a web app added to the Home Screen (Safari 16.4+): in a
 * Safari tab there is no PushManager at all. There the shop first explains how to add it.
 */
export const needsHomeScreen = (nav: Navigator = navigator, win: Window = window) => {
  const ios = /iPad|iPhone|iPod/.test(nav.userAgent) || (nav.platform === 'MacIntel' && nav.maxTouchPoints > 1);
  const standalone = (nav as Navigator & { standalone?: boolean }).standalone === true || win.matchMedia?.('(display-mode: standalone)').matches === true;
  return ios && !standalone;
};
const keyBytes = (base64url: string) => Uint8Array.from(atob(base64url.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));

/** Web push on this device: offered only when the server has VAPID keys and the browser can take pushes. */
function PushSwitch() {
  const homeScreenFirst = typeof window !== 'undefined' && needsHomeScreen();
  const publicKey = useQuery(PushKey, { context: { silent: true }, skip: !pushSupported() && !homeScreenFirst }).data?.key?.publicKey ?? null;
  const [subscribe] = useMutation(Subscribe, { context: { silent: true } });
  const [state, setState] = useState<'idle' | 'on' | 'refused'>(() => (pushSupported() && Notification.permission === 'denied' ? 'refused' : 'idle'));
  if (!publicKey) return null;
  if (homeScreenFirst) return <p className="bell__push" data-testid="add-to-home-screen">{t('inbox.addToHomeScreen')}</p>;
  if (state !== 'idle') return <p className="bell__push">{state === 'on' ? t('inbox.alertsDone') : t('inbox.alertsRefused')}</p>;
  const turnOn = async () => {
    try {
      if ((await Notification.requestPermission()) !== 'granted') return setState('refused');
      const registration = await navigator.serviceWorker.register('/push-sw.js');
      const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) });
      const json = subscription.toJSON();
      await subscribe({ variables: { input: { endpoint: json.endpoint!, keys: { p256dh: json.keys!.p256dh, auth: json.keys!.auth } } } });
      setState('on');
    } catch {
      setState('refused');
    }
  };
  return <button type="button" className="bell__all bell__push" onClick={() => void turnOn()}>{t('inbox.alertsOn')}</button>;
}
