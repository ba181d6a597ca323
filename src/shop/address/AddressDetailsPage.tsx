import { t, translateMessage, type TextKey } from '../../i18n';
import '../account.css';
import './address.css';
import { Component, Suspense, useMemo, type ReactNode } from 'react';
import { lazyChunk } from '../../lib/lazy';
import { Link, useLocation, useSearch } from 'wouter';
import { useApolloClient } from '@apollo/client/react';
import { useActorRef, useSelector } from '@xstate/react';
import { useSession } from '../../lib/session';
import { Loading } from '../../common/Loading';
import { provideAddressForm, type AddressOwner } from './addressPorts';
import { clearDraft, draftFor, rememberAddress, updateDraft } from './addressStorage';
import {
  digitsOnly, selectIsLoading, selectIsNew, selectIsPending, selectLoadError, selectValues, selectVisibleErrors,
  type AddressErrors, type AddressValues, type RequiredField, type TextField,
} from '../../../machines/addressForm';

// OpenLayers is big: it loads with the map, after the form is on screen.
const AddressMap = lazyChunk(() => import('./AddressMap'));
/** OpenLayers needs ResizeObserver (every current browser; not jsdom). Without it the form works without a map. */
const canShowMap = () => typeof window !== 'undefined' && 'ResizeObserver' in window;

/**
 * /address-details (SPEC.md 2.1): `?id=` edits that address (0 or none: a new one); `?address=`
 * (guest_checkout or user_checkout) means we came from checkout and go back there when saved.
 */
export default function AddressDetailsPage() {
  const params = new URLSearchParams(useSearch());
  const id = Number(params.get('id')) || 0;
  const checkout = params.get('address');
  const { isAuthenticated, isGuest, isRestoring, profile } = useSession();
  if (isRestoring || (isAuthenticated && !profile)) return <Loading />;
  const owner: AddressOwner = isAuthenticated && !isGuest && profile ? { kind: 'customer', userId: profile.id } : isAuthenticated ? { kind: 'guest' } : { kind: 'visitor' };
  return <AddressForm key={`${owner.kind}:${id}`} id={id} owner={owner} checkout={checkout} />;
}

function AddressForm({ id, owner, checkout }: { id: number; owner: AddressOwner; checkout: string | null }) {
  const client = useApolloClient();
  const [, navigate] = useLocation();
  const machine = useMemo(() => provideAddressForm(client, owner, (saved, temporary) => {
    rememberAddress(saved, temporary);
    clearDraft();
    // Lists of addresses (profile, checkout) read the server again.
    client.cache.evict({ fieldName: 'CustomerDeliveryAddress_GetCustomerDeliveryAddressListByUserId' });
    client.cache.gc();
    // From checkout, back to it for delivery; otherwise to where addresses are listed.
    navigate(checkout ? '/check-out?mode=delivery' : owner.kind === 'customer' ? '/profile' : '/', { replace: true });
  }), [client, owner.kind, checkout, navigate]); // eslint-disable-line react-hooks/exhaustive-deps
  const ref = useActorRef(machine, { input: { id, initial: draftFor(id) } });
  const values = useSelector(ref, selectValues);
  const errors = useSelector(ref, selectVisibleErrors);
  const pending = useSelector(ref, selectIsPending);
  const loading = useSelector(ref, selectIsLoading);
  const loadError = useSelector(ref, selectLoadError);
  const isNew = useSelector(ref, selectIsNew);
  const query = new URLSearchParams({ ...(id ? { id: String(id) } : {}), ...(checkout ? { address: checkout } : {}) }).toString();
  const pickerHref = `/select-location${query ? `?${query}` : ''}`;

  if (loading) return <Loading />;
  if (loadError) {
    return (
      <section className="shop-section">
        <h1 className="shop-title">{t('address.title')}</h1>
        <p className="shop-error" role="alert">{translateMessage(loadError)}</p>
        <div className="acct-actions">
          <button type="button" className="acct-btn" onClick={() => ref.send({ type: 'address.retry' })}>{t('checkout.tryAgain')}</button>
          <Link href="/profile" className="acct-btn acct-btn--ghost">{t('address.backToProfile')}</Link>
        </div>
      </section>
    );
  }
  return (
    <AddressFormView
      title={isNew ? t('address.add') : t('address.edit')}
      values={values}
      errors={errors}
      pending={pending}
      pickerHref={pickerHref}
      onPickArea={() => updateDraft(id, values)}
      onChange={(field, value) => ref.send({ type: 'address.change', field, value })}
      onBlur={(field) => ref.send({ type: 'address.blur', field })}
      onMove={(latitude, longitude) => ref.send({ type: 'address.move', latitude, longitude })}
      onSubmit={() => ref.send({ type: 'address.submit' })}
    />
  );
}

const FIELDS: { field: TextField; label: TextKey; required?: RequiredField; multiline?: boolean }[] = [
  { field: 'block', label: 'address.block', required: 'block' },
  { field: 'street', label: 'address.street', required: 'street' },
  { field: 'house_no', label: 'address.house', required: 'house_no' },
  { field: 'floor', label: 'address.floor' },
  { field: 'jadda', label: 'address.jadda' },
  { field: 'instructions', label: 'address.instructions', multiline: true },
];

/** Presentational: the map and the address fields. */
export function AddressFormView(props: {
  title: string;
  values: AddressValues;
  errors: AddressErrors;
  pending: boolean;
  pickerHref: string;
  onPickArea(): void;
  onChange(field: TextField, value: string): void;
  onBlur(field: RequiredField): void;
  onMove(latitude: number, longitude: number): void;
  onSubmit(): void;
}) {
  const { values, errors, pending } = props;
  const fieldError = (f: RequiredField) => errors[f] && <span className="acct-field__error" id={`address-${f}-error`}>{translateMessage(errors[f])}</span>;
  return (
    <div className="address-page">
      <h1 className="shop-title address-page__title">{props.title}</h1>
      <div className="address-page__map">
        <MapBoundary failed={!canShowMap()}>
          <Suspense fallback={<div className="address-map address-map--loading" role="status">{t('address.loadingMap')}</div>}>
            <AddressMap latitude={values.latitude} longitude={values.longitude} onMove={props.onMove} label={values.area || undefined} />
          </Suspense>
        </MapBoundary>
        <p className="shop-muted address-map__hint">{t('address.mapHint')}</p>
      </div>
      <form className="address-form" noValidate aria-busy={pending} onSubmit={(e) => { e.preventDefault(); props.onSubmit(); }}>
        <div className="address-form__area">
          <label className="acct-field">
            <span>{t('address.region')}</span>
            <input name="region" value={values.region} readOnly aria-readonly placeholder={t('address.chooseArea')}
              aria-invalid={!!errors.region || undefined} aria-describedby={errors.region ? 'address-region-error' : undefined}
              onBlur={() => props.onBlur('region')} />
            {fieldError('region')}
          </label>
          <label className="acct-field">
            <span>{t('address.area')}</span>
            <input name="area" value={values.area} readOnly aria-readonly placeholder={t('address.chooseArea')}
              aria-invalid={!!errors.area || undefined} aria-describedby={errors.area ? 'address-area-error' : undefined}
              onBlur={() => props.onBlur('area')} />
            {fieldError('area')}
          </label>
          <Link href={props.pickerHref} className="address-form__change" onClick={props.onPickArea}>
            {values.areaId ? t('address.change') : t('address.choose')}
          </Link>
        </div>
        <div className="address-form__grid">
          {FIELDS.map(({ field, label, required, multiline }) => {
            const common = {
              name: field,
              value: values[field],
              'aria-invalid': (required && !!errors[required]) || undefined,
              'aria-describedby': required && errors[required] ? `address-${required}-error` : undefined,
              onBlur: required ? () => props.onBlur(required) : undefined,
            };
            return (
              <label key={field} className={`acct-field${multiline ? ' acct-field--wide' : ''}`}>
                <span>{t(label)}{required && <em className="acct-field__required" aria-hidden> *</em>}</span>
                {multiline ? (
                  <textarea {...common} rows={3} maxLength={500} onChange={(e) => props.onChange(field, e.target.value)} />
                ) : field === 'block' ? (
                  <input {...common} inputMode="numeric" pattern="[0-9]*" autoComplete="off" required
                    onChange={(e) => props.onChange(field, digitsOnly(e.target.value))}
                    onKeyDown={(e) => { if (e.key.length === 1 && !/\d/.test(e.key) && !e.ctrlKey && !e.metaKey) e.preventDefault(); }}
                    onPaste={(e) => e.preventDefault()} onDrop={(e) => e.preventDefault()} />
                ) : (
                  <input {...common} required={!!required} onChange={(e) => props.onChange(field, e.target.value)} />
                )}
                {required && fieldError(required)}
              </label>
            );
          })}
        </div>
        <button type="submit" className="acct-btn address-form__save" disabled={pending}>{pending ? t('address.saving') : t('address.save')}</button>
      </form>
    </div>
  );
}

/** A map that cannot start (no WebGL/canvas, chunk failed) must not take the form down with it. */
class MapBoundary extends Component<{ children: ReactNode; failed?: boolean }, { failed: boolean }> {
  state = { failed: !!this.props.failed };
  static getDerivedStateFromError() { return { failed: true }; }
  render() {
    return this.state.failed
      ? <div className="address-map address-map--loading" role="status">{t('address.noMap')}</div>
      : this.props.children;
  }
}
