import '../account.css';
import './profile.css';
import { useSession } from '../../lib/session';
import { useSignOutEverywhere } from '../../lib/signOutEverywhere';
import { CustomerDetailsCard } from './CustomerDetailsCard';
import { AddressesCard } from './AddressesCard';
import { CarsCard } from './CarsCard';
import { t } from '../../i18n';
import '../../i18n/screens';

/** Logout here, or end every session of the customer, on every device, this one too (then back to sign-in). */
function SessionsCard() {
  const { signOutEverywhere, pending } = useSignOutEverywhere();
  const { send } = useSession();
  return (
    <section className="acct-card" aria-labelledby="profile-sessions-title">
      <h2 id="profile-sessions-title">{t('profile.sessions')}</h2>
      <p>{t('profile.signOutEverywhereHint')}</p>
      {/* Logout on this device is here too: in the header it is inside the account menu. */}
      <div className="acct-actions">
        <button type="button" className="acct-btn" onClick={() => send({ type: 'auth.logout' })}>{t('layout.logout')}</button>
        <button type="button" className="acct-btn acct-btn--ghost" disabled={pending} onClick={() => void signOutEverywhere()}>{t('profile.signOutEverywhere')}</button>
      </div>
    </section>
  );
}

/** /profile (customers only): details, saved delivery addresses and cars. */
export default function ProfilePage() {
  const { profile } = useSession();
  return (
    <div className="profile-page">
      <h1 className="shop-title">{t('profile.title')}</h1>
      <div className="profile-page__grid">
        <CustomerDetailsCard fallbackName={profile?.fullName ?? ''} />
        <div className="profile-page__side">
          {profile && <AddressesCard userId={profile.id} />}
          <CarsCard />
          <SessionsCard />
        </div>
      </div>
    </div>
  );
}
