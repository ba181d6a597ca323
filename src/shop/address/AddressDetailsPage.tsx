import { language, t, translateMessage, type TextKey } from '../../i18n';
import '../account.css';
import './address.css';
import { Component, Suspense, useMemo, type ReactNode } from 'react';
import { lazyChunk } from '../../lib/lazy';
import { Link, useLocation, useSearch } from 'wouter';
import { useApolloClient, useQuery } from '@apollo/client/react';
import { useActorRef, useSelector } from '@xstate/react';
import { useSession } from '../../lib/session';
import { Loading } from '../../common/Loading';
import { provideAddressForm, type AddressOwner } from './addressPorts';
import { useShop } from '../shopContext';
import { BrandAddressForm } from './graphql';
import { ADDRESS_FIELD_NAMES, type AddressFormField } from '../../../domain/addressFields';
import { clearDraft, draftFor, rememberAddress, updateDraft } from './addressStorage';
import {
  digitsOnly, selectFields, selectIsLoading, selectIsNew, selectIsPending, selectLoadError, selectValues, selectVisibleErrors,
  type AddressErrors, type AddressValues, type CheckedField, type TextField,
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
  // The shop's brand decides which optional fields the form asks, in what order, and which are required.
  const { brandId } = useShop();
  const form = useQuery(BrandAddressForm, { variables: { brandId }, fetchPolicy: 'cache-and-network' });
  const fields = form.data?.BrandAddressFields_GetAddressFormForShop;
  if (isRestoring || (isAuthenticated && !profile) || (!fields && form.loading)) return <Loading />;
  if (!fields) {
    return (
      <section className="shop-section">
        <h1 className="shop-title">{t('address.title')}</h1>
        <p className="shop-error" role="alert">{t('address.formFailed')}</p>
        <div className="acct-actions">
          <button type="button" className="acct-btn" onClick={() => void form.refetch()}>{t('checkout.tryAgain')}</button>
        </div>
      </section>
    );
  }
  const owner: AddressOwner = isAuthenticated && !isGuest && profile ? { kind: 'customer', userId: profile.id } : isAuthenticated ? { kind: 'guest' } : { kind: 'visitor' };
  const brandFields = fields.filter((f): f is AddressFormField => !!f && (ADDRESS_FIELD_NAMES as readonly string[]).includes(f.fieldName));
  // The brand's form read anew (cache, then network) and changed: the form starts again with it, from the draft (the area chosen).
  const formKey = JSON.stringify(brandFields.map((f) => [f.fieldName, f.label, f.isRequired]));
  return <AddressForm key={`${owner.kind}:${id}:${brandId}:${formKey}`} id={id} owner={owner} checkout={checkout} brandId={brandId} fields={brandFields} />;
}

function AddressForm({ id, owner, checkout, brandId, fields }: { id: number; owner: AddressOwner; checkout: string | null; brandId: number; fields: AddressFormField[] }) {
  const client = useApolloClient();
  const [, navigate] = useLocation();
  const machine = useMemo(() => provideAddressForm(client, owner, brandId, (saved, temporary) => {
    rememberAddress(saved, temporary);
    clearDraft();
    // Lists of addresses (profile, checkout) read the server again.
    client.cache.evict({ fieldName: 'CustomerDeliveryAddress_GetCustomerDeliveryAddressListByUserId' });
    client.cache.gc();
    // From checkout, back to it for delivery; otherwise to where addresses are listed.
    navigate(checkout ? '/check-out?mode=delivery' : owner.kind === 'customer' ? '/profile' : '/', { replace: true });
  }), [client, owner.kind, brandId, checkout, navigate]); // eslint-disable-line react-hooks/exhaustive-deps
  const ref = useActorRef(machine, { input: { id, initial: draftFor(id), fields } });
  const formFields = useSelector(ref, selectFields);
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
      fields={formFields}
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

type FieldView = { field: TextField; label: string; required: boolean; multiline?: boolean };
/** Always asked and required (SPEC.md 5), above the brand's fields. */
const FIXED_FIELDS: { field: TextField; label: TextKey }[] = [
  { field: 'block', label: 'address.block' },
  { field: 'street', label: 'address.street' },
  { field: 'house_no', label: 'address.house' },
];

/**
 * A brand's field as the form names it: the brand's own label in English; in Arabic the shop's
 * name of the field (a brand's label is typed once, in English).
 */
const brandFieldLabel = (f: AddressFormField) => (language() === 'ar' ? t(`address.${f.fieldName}` as const) : f.label);

/** The form's fields in order: block, street and house, then the brand's, each with its label. */
const fieldViews = (fields: readonly AddressFormField[]): FieldView[] => [
  ...FIXED_FIELDS.map((f) => ({ field: f.field, label: t(f.label), required: true })),
  ...fields.map((f) => ({ field: f.fieldName, label: brandFieldLabel(f), required: f.isRequired, multiline: f.fieldName === 'instructions' })),
];

/** Presentational: the map and the address fields. */
export function AddressFormView(props: {
  title: string;
  values: AddressValues;
  /** The brand's optional fields, in order (machines/addressForm.ts selectFields). */
  fields: readonly AddressFormField[];
  errors: AddressErrors;
  pending: boolean;
  pickerHref: string;
  onPickArea(): void;
  onChange(field: TextField, value: string): void;
  onBlur(field: CheckedField): void;
  onMove(latitude: number, longitude: number): void;
  onSubmit(): void;
}) {
  const { values, errors, pending } = props;
  // A brand's field's message names it as the form does (in Arabic too); the others are SPEC.md's texts.
  const brandField = (f: CheckedField) => props.fields.find((b) => b.fieldName === f);
  const message = (f: CheckedField) => { const b = brandField(f); return b ? t('address.fieldRequired', { field: brandFieldLabel(b) }) : translateMessage(errors[f]); };
  const fieldError = (f: CheckedField) => errors[f] && <span className="acct-field__error" id={`address-${f}-error`}>{message(f)}</span>;
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
          {fieldViews(props.fields).map(({ field, label, required, multiline }) => {
            const common = {
              name: field,
              value: values[field],
              'aria-invalid': (required && !!errors[field]) || undefined,
              'aria-describedby': required && errors[field] ? `address-${field}-error` : undefined,
              onBlur: required ? () => props.onBlur(field) : undefined,
            };
            return (
              <label key={field} className={`acct-field${multiline ? ' acct-field--wide' : ''}`}>
                <span>{label}{required && <em className="acct-field__required" aria-hidden> *</em>}</span>
                {multiline ? (
                  <textarea {...common} required={required} rows={3} maxLength={500} onChange={(e) => props.onChange(field, e.target.value)} />
                ) : field === 'block' ? (
                  <input {...common} inputMode="numeric" pattern="[0-9]*" autoComplete="off" required
                    onChange={(e) => props.onChange(field, digitsOnly(e.target.value))}
                    onKeyDown={(e) => { if (e.key.length === 1 && !/\d/.test(e.key) && !e.ctrlKey && !e.metaKey) e.preventDefault(); }}
                    onPaste={(e) => e.preventDefault()} onDrop={(e) => e.preventDefault()} />
                ) : (
                  <input {...common} required={required} onChange={(e) => props.onChange(field, e.target.value)} />
                )}
                {required && fieldError(field)}
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
