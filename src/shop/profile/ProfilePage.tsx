import '../account.css';
import './profile.css';
import { useSession } from '../../lib/session';
import { CustomerDetailsCard } from './CustomerDetailsCard';
import { AddressesCard } from './AddressesCard';
import { CarsCard } from './CarsCard';
import { t } from '../../i18n';
import '../../i18n/enScreens';

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
        </div>
      </div>
    </div>
  );
}
