import type { ReactNode } from 'react';
import { PRODUCT_NAME } from '../../domain/constants';

export function AuthCard({ title, subtitle, children }: { title: string; subtitle?: ReactNode; children: ReactNode }) {
  return (
    <main className="auth-page">
      <section className="auth-card">
        <p className="auth-product" lang="en">{PRODUCT_NAME}</p>
        <h1>{title}</h1>
        {subtitle && <p className="auth-subtitle">{subtitle}</p>}
        {children}
      </section>
    </main>
  );
}
