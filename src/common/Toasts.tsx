import { useEffect, useState } from 'react';
import { onNotice, type Notice } from '../lib/notify';
import './common.css';

/**
 * The customer side's rendering of notifications (shop and sign-in pages): a small stack at the
 * top. A success replaces the error notices still showing, so a stale 'Validation Error' never
 * stands next to the success that followed it.
 */
export function Toasts({ translate = (text: string) => text }: {
  /** The shop's language for titles and messages that arrive as English (translateMessage); the sign-in pages pass none. */
  translate?: (text: string) => string;
} = {}) {
  const [notices, setNotices] = useState<Notice[]>([]);
  useEffect(() => onNotice((n) => {
    setNotices((list) => [...(n.intent === 'success' ? list.filter((x) => x.intent !== 'danger') : list), n]);
    // Confirmations go quickly; errors stay long enough to read.
    setTimeout(() => setNotices((list) => list.filter((x) => x.id !== n.id)), n.intent === 'success' ? 2500 : 5000);
  }), []);
  return (
    <div className="shop-toasts" aria-live="assertive">
      {notices.map((n) => (
        <div key={n.id} className={`shop-toast shop-toast--${n.intent}`} role="alert" onClick={() => setNotices((list) => list.filter((x) => x.id !== n.id))}>
          <strong>{translate(n.title)}</strong>
          <span>{translate(n.message)}</span>
        </div>
      ))}
    </div>
  );
}
