import { useSession } from '../../lib/session';

/** The signed-in customer's details. */
export default function ProfilePage() {
  const { profile } = useSession();
  return (
    <section className="shop-section">
      <h1 className="shop-title">My profile</h1>
      <dl className="profile-details">
        <dt>Name</dt><dd data-testid="profile-name">{profile?.fullName}</dd>
        <dt>E-mail</dt><dd>{profile?.emailAddress ?? '—'}</dd>
      </dl>
    </section>
  );
}
