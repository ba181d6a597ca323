import './common.css';

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return <div className="app-loading" role="status" aria-live="polite"><span className="app-loading__spinner" />{label}</div>;
}
