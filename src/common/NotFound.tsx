import { Link } from 'wouter';
import { useTitle } from '../lib/title';
import './common.css';

export function NotFound() {
  useTitle('Page not found');
  return (
    <main className="not-found" role="main">
      <p className="not-found__code">404</p>
      <h1>Page not found</h1>
      <p>The page you are looking for does not exist or was moved.</p>
      <Link href="/" className="not-found__home">Back home</Link>
    </main>
  );
}
