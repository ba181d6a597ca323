import { Link } from 'wouter';
import { AuthCard } from '../../auth/AuthCard';
import { useTitle } from '../../lib/title';

export default function RegistrationPage() {
  useTitle('Registration');
  return (
    <AuthCard title="Create an account" subtitle="Registration by phone is not available in this release yet.">
      <nav className="auth-links"><Link href="/login">Back to sign in</Link></nav>
    </AuthCard>
  );
}
