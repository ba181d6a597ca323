import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { graphql } from '../../gql';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { money, t } from '../../i18n';
import '../../i18n/screens';
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
        <h2 id="profile-details-title">{t('profile.details')}</h2>
        {details && !editing && <button type="button" className="acct-btn acct-btn--ghost acct-btn--small" onClick={() => setEditing(true)}>{t('profile.edit')}</button>}
      </div>
      {error && !details && <p className="shop-error" role="alert">{t('profile.detailsFailed')}</p>}
      {editing && details ? (
        <DetailsForm
          initial={{ fullName: details.fullName, emailAddress: details.emailAddress ?? '' }}
          brandId={brandId}
          onDone={() => setEditing(false)}
        />
      ) : (
        <dl className="profile-details">
          <dt>{t('profile.name')}</dt><dd data-testid="profile-name">{details?.fullName ?? fallbackName}</dd>
          <dt>{t('profile.email')}</dt><dd>{details ? details.emailAddress || '—' : '…'}</dd>
          <dt>{t('profile.phone')}</dt><dd className="profile-phone"><bdi dir="ltr">{details ? details.phoneNumber || '—' : '…'}</bdi></dd>
          {details && (
            <>
              <dt>{t('profile.wallet')}</dt><dd data-testid="profile-wallet">{money(details.balance, currency)}</dd>
              {details.credit > 0 && <><dt>{t('profile.credit')}</dt><dd data-testid="profile-credit">{money(details.credit, currency)}</dd></>}
              <dt>{t('profile.points')}</dt><dd data-testid="profile-points">{details.points}</dd>
              <dt>{t('profile.punches')}</dt><dd data-testid="profile-punches">{details.punches}</dd>
              <dt>{t('profile.freeItems')}</dt><dd data-testid="profile-free-items">{details.freeItems}</dd>
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
      notify('success', 'Success', t('profile.saved'));
      onDone();
    } catch (err) {
      setFormError(errorMessage(err));
    }
  };
  return (
    <form className="profile-form" onSubmit={submit} aria-busy={loading}>
      <label className="acct-field">{t('profile.fullName')}
        <input name="fullName" autoComplete="name" value={values.fullName} onChange={(e) => setValues((v) => ({ ...v, fullName: e.target.value }))} required />
      </label>
      <label className="acct-field">{t('profile.email')}
        <input name="emailAddress" type="email" autoComplete="email" value={values.emailAddress} onChange={(e) => setValues((v) => ({ ...v, emailAddress: e.target.value }))} />
      </label>
      {formError && <p className="acct-field__error" role="alert">{formError}</p>}
      <div className="acct-actions">
        <button type="submit" className="acct-btn" disabled={loading || !values.fullName.trim()}>{loading ? t('profile.saving') : t('profile.save')}</button>
        <button type="button" className="acct-btn acct-btn--ghost" onClick={onDone} disabled={loading}>{t('profile.cancel')}</button>
      </div>
    </form>
  );
}
