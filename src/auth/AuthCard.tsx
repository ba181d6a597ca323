import type { ReactNode } from 'react';
import { PRODUCT_NAME } from '../../domain/constants';
import { useKnownBrandName } from './brandName';

/** Sign-in and registration, headed with the brand's name as the shop's header is (issue 24); the platform's until the brands are loaded. */
export function AuthCard({ title, subtitle, children }: { title: string; subtitle?: ReactNode; children: ReactNode }) {
  const brand = useKnownBrandName();
  return (
    <main className="auth-page">
      <section className="auth-card">
        {brand ? <p className="auth-product" data-testid="auth-brand">{brand}</p> : <p className="auth-product" lang="en">{PRODUCT_NAME}</p>}
        <h1>{title}</h1>
        {subtitle && <p className="auth-subtitle">{subtitle}</p>}
        {children}
      </section>
    </main>
  );
}
