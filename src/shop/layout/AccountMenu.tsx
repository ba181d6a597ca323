import { useCallback, useId, useRef, useState } from 'react';
import { useDismiss } from './useDismiss';
import { Link } from 'wouter';
import { language, switchLanguage, t } from '../../i18n';

/**
 * A signed-in customer's account menu in the shop's header (issue 24: on a 390 px phone the
 * signed-in header had six items and ran into the brand's name). One person icon, named for
 * screen readers, opens a short list under the header: the profile (by first name), the language
 * switch and Logout. Escape, a click outside or choosing an item closes it.
 */
export function AccountMenu({ firstName, onLogout }: { firstName: string | null; onLogout(): void }) {
  const [open, setOpen] = useState(false);
  const [top, setTop] = useState(0);
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);
  useDismiss(open, root, useCallback(() => setOpen(false), []));
  const other = language() === 'ar' ? 'en' : 'ar';
  return (
    <div className="account-menu" ref={root}>
      <button type="button" className="shop-link-button account-menu__button" aria-expanded={open} aria-controls={panelId}
        aria-label={t('layout.account')} data-testid="account-menu"
        onClick={() => { setTop((root.current?.closest('header')?.getBoundingClientRect().bottom ?? 56) + 8); setOpen((o) => !o); }}>
        <svg aria-hidden="true" viewBox="0 0 24 24" width="22" height="22"><path fill="currentColor" d="M12 12a4.5 4.5 0 1 0 0-9 4.5 4.5 0 0 0 0 9Zm0 2c-4.4 0-8 2.2-8 5v2h16v-2c0-2.8-3.6-5-8-5Z" /></svg>
      </button>
      {open && (
        <ul id={panelId} className="account-menu__panel" style={{ top }}>
          <li><Link href="/profile" onClick={() => setOpen(false)}>{firstName ?? t('layout.profile')}</Link></li>
          {/* Named in the language it switches to, marked so screen readers pronounce it in that language. */}
          <li><button type="button" className="shop-link-button" lang={other} data-testid="language-switch" onClick={() => switchLanguage(other)}>{t('layout.otherLanguage')}</button></li>
          <li><button type="button" className="shop-link-button" onClick={() => { setOpen(false); onLogout(); }}>{t('layout.logout')}</button></li>
        </ul>
      )}
    </div>
  );
}
