import { useEffect, useSyncExternalStore } from 'react';
import { NoticeQueue, notify, type Intent } from '../lib/notify';
import './common.css';

/** Confirmations go quickly; errors stay long enough to read. */
const shopNotices = new NoticeQueue({ success: 2500, primary: 5000, warning: 5000, danger: 5000 }, true);

/**
 * The customer side's rendering of notifications (shop and sign-in pages): a small stack at the
 * top. A success replaces the error notices still showing, so a stale 'Validation Error' never
 * stands next to the success that followed it. The queue owns their lifetimes (src/lib/notify.ts).
 */
export function Toasts({ translate = (text: string) => text }: {
  /** The shop's language for titles and messages that arrive as English (translateMessage); the sign-in pages pass none. */
  translate?: (text: string) => string;
} = {}) {
  const notices = useSyncExternalStore(shopNotices.subscribe, shopNotices.notices, shopNotices.notices);
  // A notice carried from the page the user was sent away from shows here, once.
  useEffect(() => {
    const held = carried.splice(0);
    held.forEach((n) => notify(n.intent, n.title, n.message));
  }, []);
  return (
    <div className="shop-toasts" aria-live="assertive">
      {notices.map((n) => (
        <div key={n.id} className={`shop-toast shop-toast--${n.intent}`} role="alert" onClick={() => shopNotices.dismiss(n.id)}>
          <strong>{translate(n.title)}</strong>
          <span>{translate(n.message)}</span>
        </div>
      ))}
    </div>
  );
}

const carried: { intent: Intent; title: string; message: string }[] = [];

/**
 * A notice for the page the user is being sent to, outside the console (the route guard's refusal
 * sends a brand manager to the shop): the shop's toaster shows it when it mounts.
 */
export function carryNotice(intent: Intent, title: string, message: string) {
  carried.push({ intent, title, message });
}
