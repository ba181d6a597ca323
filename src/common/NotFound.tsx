import { Link } from 'wouter';
import { useTitle } from '../lib/title';
import { t, useShopLanguage } from '../i18n';
import './common.css';

/** An unknown address: most are a customer's, so it speaks the shop's language (issue 12). */
export function NotFound() {
  useShopLanguage();
  useTitle(t('notFound.title'));
  return (
    <main className="not-found" role="main">
      <p className="not-found__code">404</p>
      <h1>{t('notFound.title')}</h1>
      <p>{t('notFound.text')}</p>
      <Link href="/" className="not-found__home">{t('notFound.home')}</Link>
    </main>
  );
}
