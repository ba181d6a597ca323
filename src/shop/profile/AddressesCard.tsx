import { useState } from 'react';
import { Link } from 'wouter';
import { useMutation, useQuery } from '@apollo/client/react';
import { notify } from '../../lib/notify';
import { CustomerAddresses, DeleteAddress } from '../address/graphql';
import { forgetAddress } from '../address/addressStorage';
import { joinList, t } from '../../i18n';
import { addressLine } from '../address/addressText';
import '../../i18n/screens';

/** The customer's saved delivery addresses: edit (on /address-details?id=) and delete. */
export function AddressesCard({ userId }: { userId: number }) {
  const { data, loading, error, refetch } = useQuery(CustomerAddresses, { variables: { userId } });
  const addresses = (data?.CustomerDeliveryAddress_GetCustomerDeliveryAddressListByUserId ?? []).filter((a) => !!a);
  const [confirming, setConfirming] = useState<number | null>(null);
  const [remove, { loading: deleting }] = useMutation(DeleteAddress);
  const confirmDelete = async (id: number) => {
    try {
      await remove({ variables: { id } });
      forgetAddress(id);
      notify('success', 'Success', t('profile.addressDeleted'));
      setConfirming(null);
      await refetch();
    } catch { /* the Error notification is shown by the client */ }
  };
  return (
    <section className="acct-card" aria-labelledby="profile-addresses-title">
      <div className="acct-card__head">
        <h2 id="profile-addresses-title">{t('profile.addresses')}</h2>
        <Link href="/select-location" className="acct-btn acct-btn--ghost acct-btn--small">{t('profile.addAddress')}</Link>
      </div>
      {loading && !addresses.length && <p className="acct-empty" role="status">{t('profile.loadingAddresses')}</p>}
      {error && !addresses.length && <p className="shop-error" role="alert">{t('profile.addressesFailed')}</p>}
      {!loading && !error && !addresses.length && <p className="acct-empty">{t('profile.noAddresses')}</p>}
      <ul className="acct-list" aria-label={t('profile.savedAddresses')}>
        {addresses.map((a) => (
          <li key={a.id} className="acct-item">
            <span className="acct-item__body">
              <strong>{joinList([a.area, a.region])}</strong>
              <span className="shop-muted">{addressLine(a)}{a.floor ? t('profile.floor', { floor: a.floor }) : ''}{a.jadda ? t('profile.jadda', { jadda: a.jadda }) : ''}</span>
            </span>
            {confirming === a.id ? (
              <span className="acct-actions" role="group" aria-label={t('profile.deleteAsk')}>
                <button type="button" className="acct-btn acct-btn--danger acct-btn--small" disabled={deleting} onClick={() => confirmDelete(a.id)}>{t('profile.confirmDelete')}</button>
                <button type="button" className="acct-btn acct-btn--ghost acct-btn--small" disabled={deleting} onClick={() => setConfirming(null)}>{t('profile.cancel')}</button>
              </span>
            ) : (
              <span className="acct-actions">
                <Link href={`/address-details?id=${a.id}`} className="acct-btn acct-btn--ghost acct-btn--small" aria-label={t('profile.editAddress', { area: a.area, block: a.block })}>{t('profile.edit')}</Link>
                <button type="button" className="acct-btn acct-btn--danger acct-btn--small" aria-label={t('profile.deleteAddress', { area: a.area, block: a.block })} onClick={() => setConfirming(a.id)}>{t('profile.delete')}</button>
              </span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
