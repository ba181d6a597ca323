import { useSyncExternalStore } from 'react';
import { TEXT } from '../../domain/constants';
import { translateMessage } from '../i18n';
import './common.css';

const subscribe = (cb: () => void) => {
  window.addEventListener('online', cb);
  window.addEventListener('offline', cb);
  return () => { window.removeEventListener('online', cb); window.removeEventListener('offline', cb); };
};

/**
 * 'You are offline.' while the browser has no network, in the page's language: the Arabic shop
 * reads 'أنت غير متصل بالإنترنت.' (the console and the sign-in pages stay English). The text sets
 * its own direction, so an English sentence keeps its full stop at its end on a right-to-left page.
 */
export function OfflineBanner() {
  const online = useSyncExternalStore(subscribe, () => navigator.onLine, () => true);
  if (online) return null;
  const arabic = document.documentElement.lang === 'ar';
  return (
    <div className="offline-banner" role="alert" lang={arabic ? 'ar' : 'en'} dir={arabic ? 'rtl' : 'ltr'}>
      {arabic ? translateMessage(TEXT.offline) : TEXT.offline}
    </div>
  );
}
