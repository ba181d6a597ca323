import { useSyncExternalStore } from 'react';
import { TEXT } from '../../domain/constants';
import './common.css';

const subscribe = (cb: () => void) => {
  window.addEventListener('online', cb);
  window.addEventListener('offline', cb);
  return () => { window.removeEventListener('online', cb); window.removeEventListener('offline', cb); };
};

/** 'You are offline.' while the browser has no network. */
export function OfflineBanner() {
  const online = useSyncExternalStore(subscribe, () => navigator.onLine, () => true);
  if (online) return null;
  return <div className="offline-banner" role="alert">{TEXT.offline}</div>;
}
