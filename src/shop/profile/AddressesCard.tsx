import { useState } from 'react';
import { Link } from 'wouter';
import { useMutation, useQuery } from '@apollo/client/react';
import { notify } from '../../lib/notify';
import { CustomerAddresses, DeleteAddress } from '../address/graphql';
import { forgetAddress } from '../address/addressStorage';

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
      notify('success', 'Success', 'Your address was deleted.');
      setConfirming(null);
      await refetch();
    } catch { /* the Error notification is shown by the client */ }
  };
  return (
    <section className="acct-card" aria-labelledby="profile-addresses-title">
      <div className="acct-card__head">
        <h2 id="profile-addresses-title">Delivery addresses</h2>
        <Link href="/select-location" className="acct-btn acct-btn--ghost acct-btn--small">Add address</Link>
      </div>
      {loading && !addresses.length && <p className="acct-empty" role="status">Loading your addresses…</p>}
      {error && !addresses.length && <p className="shop-error" role="alert">Your addresses could not be loaded.</p>}
      {!loading && !error && !addresses.length && <p className="acct-empty">No saved addresses yet.</p>}
      <ul className="acct-list" aria-label="Saved addresses">
        {addresses.map((a) => (
          <li key={a.id} className="acct-item">
            <span className="acct-item__body">
              <strong>{a.area}, {a.region}</strong>
              <span className="shop-muted">Block {a.block}, {a.street}, House {a.house_no}{a.floor ? `, Floor ${a.floor}` : ''}{a.jadda ? `, Jadda ${a.jadda}` : ''}</span>
            </span>
            {confirming === a.id ? (
              <span className="acct-actions" role="group" aria-label="Delete this address?">
                <button type="button" className="acct-btn acct-btn--danger acct-btn--small" disabled={deleting} onClick={() => confirmDelete(a.id)}>Confirm delete</button>
                <button type="button" className="acct-btn acct-btn--ghost acct-btn--small" disabled={deleting} onClick={() => setConfirming(null)}>Cancel</button>
              </span>
            ) : (
              <span className="acct-actions">
                <Link href={`/address-details?id=${a.id}`} className="acct-btn acct-btn--ghost acct-btn--small" aria-label={`Edit ${a.area}, block ${a.block}`}>Edit</Link>
                <button type="button" className="acct-btn acct-btn--danger acct-btn--small" aria-label={`Delete ${a.area}, block ${a.block}`} onClick={() => setConfirming(a.id)}>Delete</button>
              </span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
