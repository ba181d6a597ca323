import '../account.css';
import './profile.css';
import { useSession } from '../../lib/session';
import { CustomerDetailsCard } from './CustomerDetailsCard';
import { AddressesCard } from './AddressesCard';
import { CarsCard } from './CarsCard';

/** /profile (customers only): details, saved delivery addresses and cars. */
export default function ProfilePage() {
  const { profile } = useSession();
  return (
    <div className="profile-page">
      <h1 className="shop-title">My profile</h1>
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
