import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { graphql } from '../../gql';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { formatMoney } from '../../../domain/money';
import { useShop } from '../shopContext';

const CustomerDetails = graphql(`
  query CustomerDetails($brandId: Int) {
    Customer_GetCurrentCustomerDetails(brandId: $brandId) { id fullName emailAddress phoneNumber gender birthDate brandId points balance credit punches freeItems }
  }
`);

const UpdateCustomerDetails = graphql(`
  mutation UpdateCustomerDetails($input: UpdateCustomerDetailsInput_Input) {
    Customer_UpdateCustomerDetails(input: $input) { id fullName emailAddress phoneNumber gender birthDate brandId points balance credit punches freeItems }
  }
`);

/** The customer's details for the selected brand (wallet figures are per brand), with an edit form. */
export function CustomerDetailsCard({ fallbackName }: { fallbackName: string }) {
  const { brandId, currency } = useShop();
  const { data, error } = useQuery(CustomerDetails, { variables: { brandId } });
  const details = data?.Customer_GetCurrentCustomerDetails;
  const [editing, setEditing] = useState(false);
  return (
    <section className="acct-card" aria-labelledby="profile-details-title">
      <div className="acct-card__head">
        <h2 id="profile-details-title">My details</h2>
        {details && !editing && <button type="button" className="acct-btn acct-btn--ghost acct-btn--small" onClick={() => setEditing(true)}>Edit</button>}
      </div>
      {error && !details && <p className="shop-error" role="alert">Your details could not be loaded.</p>}
      {editing && details ? (
        <DetailsForm
          initial={{ fullName: details.fullName, emailAddress: details.emailAddress ?? '' }}
          brandId={brandId}
          onDone={() => setEditing(false)}
        />
      ) : (
        <dl className="profile-details">
          <dt>Name</dt><dd data-testid="profile-name">{details?.fullName ?? fallbackName}</dd>
          <dt>E-mail</dt><dd>{details ? details.emailAddress || '—' : '…'}</dd>
          <dt>Phone</dt><dd className="profile-phone">{details ? details.phoneNumber || '—' : '…'}</dd>
          {details && (
            <>
              <dt>Wallet</dt><dd data-testid="profile-wallet">{formatMoney(details.balance, currency)}</dd>
              {details.credit > 0 && <><dt>Credit</dt><dd data-testid="profile-credit">{formatMoney(details.credit, currency)}</dd></>}
              <dt>Points</dt><dd data-testid="profile-points">{details.points}</dd>
              <dt>Punches</dt><dd data-testid="profile-punches">{details.punches}</dd>
              <dt>Free items</dt><dd data-testid="profile-free-items">{details.freeItems}</dd>
            </>
          )}
        </dl>
      )}
    </section>
  );
}

function DetailsForm({ initial, brandId, onDone }: { initial: { fullName: string; emailAddress: string }; brandId: number; onDone(): void }) {
  const [values, setValues] = useState(initial);
  const [formError, setFormError] = useState<string | null>(null);
  const [update, { loading }] = useMutation(UpdateCustomerDetails, { context: { silent: true } });
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFormError(null);
    try {
      await update({ variables: { input: { fullName: values.fullName.trim(), emailAddress: values.emailAddress.trim() || null, brandId } } });
      notify('success', 'Success', 'Your details were saved.');
      onDone();
    } catch (err) {
      setFormError(errorMessage(err));
    }
  };
  return (
    <form className="profile-form" onSubmit={submit} aria-busy={loading}>
      <label className="acct-field">Full name
        <input name="fullName" autoComplete="name" value={values.fullName} onChange={(e) => setValues((v) => ({ ...v, fullName: e.target.value }))} required />
      </label>
      <label className="acct-field">E-mail
        <input name="emailAddress" type="email" autoComplete="email" value={values.emailAddress} onChange={(e) => setValues((v) => ({ ...v, emailAddress: e.target.value }))} />
      </label>
      {formError && <p className="acct-field__error" role="alert">{formError}</p>}
      <div className="acct-actions">
        <button type="submit" className="acct-btn" disabled={loading || !values.fullName.trim()}>{loading ? 'Saving…' : 'Save'}</button>
        <button type="button" className="acct-btn acct-btn--ghost" onClick={onDone} disabled={loading}>Cancel</button>
      </div>
    </form>
  );
}
