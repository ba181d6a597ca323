import { language, t, translateMessage } from '../../i18n';
import { useMemo, useState, type FormEvent } from 'react';
import { fromPromise } from 'xstate';
import { useActorRef, useSelector } from '@xstate/react';
import { useGateway } from '../../lib/gateway';
import { graphql } from '../../gql';
import { errorMessage } from '../../lib/errors';
import {
  customerCarsMachine, describeCar, selectCars, selectCarsError, selectCarsFailed, selectCarsPending, selectDictionaries, selectIsSaving,
  type CarDraft, type CustomerCar,
} from '../../../machines/customerCars';

export const CheckoutCars = graphql(`
  query CheckoutCars($mine: Boolean!) {
    Cars_GetCustomerCars @include(if: $mine) { id carBrandId carBrandName carTypeId carTypeName carColorId carColorName plateNumber description }
    Cars_GetCarBrands { id name }
    Cars_GetCarTypes { id name }
    Cars_GetCarColors { id name }
  }
`);

export const AddCustomerCar = graphql(`
  mutation AddCustomerCar($carBrandId: Int!, $carColorId: Int!, $carTypeId: Int!, $plateNumber: String!, $description: String) {
    Cars_AddCustomerCar(carBrandId: $carBrandId, carColorId: $carColorId, carTypeId: $carTypeId, plateNumber: $plateNumber, description: $description) {
      id carBrandId carBrandName carTypeId carTypeName carColorId carColorName plateNumber description
    }
  }
`);

const present = <T,>(xs: readonly (T | null | undefined)[] | null | undefined) => (xs ?? []).filter((x): x is T => !!x);

/**
 * Car service: a customer picks one of their cars or saves a new one (Cars/AddCustomerCar); the
 * guest keeps no cars, so the same form describes the car for this order only.
 */
export function CarPicker({ canSave, carId, onChange }: {
  canSave: boolean;
  carId: number | null;
  onChange(car: { carId: number | null; carDetails: string | null }): void;
}) {
  const gateway = useGateway();
  const machine = useMemo(() => customerCarsMachine.provide({
    actors: {
      loadCars: fromPromise(async ({ input }) => {
        const d = await gateway.query(CheckoutCars, { mine: input.canSave }, { silent: true }, 'network-only')
          .catch((e) => { throw new Error(errorMessage(e, 'Your cars could not be loaded.')); });
        return { cars: present(d?.Cars_GetCustomerCars), brands: present(d?.Cars_GetCarBrands), types: present(d?.Cars_GetCarTypes), colors: present(d?.Cars_GetCarColors) };
      }),
      saveCar: fromPromise(async ({ input }): Promise<CustomerCar> => {
        const res = await gateway.mutate(AddCustomerCar, input, { silent: true })
          .catch((e) => { throw new Error(errorMessage(e)); });
        const car = res?.Cars_AddCustomerCar;
        if (!car) throw new Error(errorMessage(null));
        return car;
      }),
    },
    actions: { carSaved: (_, car) => onChange({ carId: car.id, carDetails: null }) },
  }), [gateway]); // eslint-disable-line react-hooks/exhaustive-deps
  const ref = useActorRef(machine, { input: { canSave } });
  const cars = useSelector(ref, selectCars);
  const dictionaries = useSelector(ref, selectDictionaries);
  const pending = useSelector(ref, selectCarsPending);
  const saving = useSelector(ref, selectIsSaving);
  const failed = useSelector(ref, selectCarsFailed);
  const error = useSelector(ref, selectCarsError);
  const [adding, setAdding] = useState(false);

  if (failed) {
    return <div className="shop-card"><p className="shop-error" role="alert">{translateMessage(error)}</p><button type="button" className="shop-button" onClick={() => ref.send({ type: 'car.reload' })}>{t('checkout.tryAgain')}</button></div>;
  }
  if (pending && !dictionaries.brands.length) return <p className="shop-muted" role="status">{t('car.loading')}</p>;

  if (!canSave) {
    // The guest: the car is described for this order.
    return <CarForm dictionaries={dictionaries} submitLabel={null} onDraft={(draft, text) => onChange({ carId: null, carDetails: draft ? text : null })} />;
  }
  return (
    <div className="car-picker">
      {cars.length > 0 && (
        <fieldset className="choice-list">
          <legend>{t('car.yourCar')}</legend>
          {cars.map((c) => (
            <label key={c.id} className={`choice${carId === c.id ? ' is-chosen' : ''}`}>
              <input type="radio" name="car" checked={carId === c.id} onChange={() => onChange({ carId: c.id, carDetails: null })} />
              {/* English reads as staff do (describeCar); Arabic names the plate in Arabic, its number left to right. */}
              <span>{language() === 'ar'
                ? <>{c.carColorName} {c.carBrandName} {c.carTypeName}، {t('car.plate')} <bdi dir="ltr">{c.plateNumber}</bdi>{c.description ? ` (${c.description})` : ''}</>
                : describeCar(c)}</span>
            </label>
          ))}
        </fieldset>
      )}
      {cars.length === 0 && !adding && <p className="shop-muted">{t('car.none')}</p>}
      {adding || cars.length === 0 ? (
        <CarForm
          dictionaries={dictionaries}
          submitLabel={saving ? t('car.saving') : t('car.save')}
          busy={saving}
          error={error}
          onSubmit={(draft) => { ref.send({ type: 'car.save', car: draft }); setAdding(false); }}
        />
      ) : (
        <button type="button" className="shop-link" onClick={() => setAdding(true)}>{t('car.addAnother')}</button>
      )}
    </div>
  );
}

function CarForm({ dictionaries, submitLabel, busy, error, onSubmit, onDraft }: {
  dictionaries: { brands: { id: number; name: string }[]; types: { id: number; name: string }[]; colors: { id: number; name: string }[] };
  /** null: no submit button, every change is reported through onDraft (the guest). */
  submitLabel: string | null;
  busy?: boolean;
  error?: string | null;
  onSubmit?(draft: CarDraft): void;
  onDraft?(draft: CarDraft | null, text: string): void;
}) {
  const [draft, setDraft] = useState({ carBrandId: 0, carTypeId: 0, carColorId: 0, plateNumber: '', description: '' });
  const complete = draft.carBrandId > 0 && draft.carTypeId > 0 && draft.carColorId > 0 && draft.plateNumber.trim().length > 0;
  const change = (patch: Partial<typeof draft>) => {
    const next = { ...draft, ...patch };
    setDraft(next);
    if (onDraft) {
      const ok = next.carBrandId > 0 && next.carTypeId > 0 && next.carColorId > 0 && next.plateNumber.trim().length > 0;
      const name = (list: { id: number; name: string }[], id: number) => list.find((x) => x.id === id)?.name ?? '';
      onDraft(ok ? next : null, describeCar({
        carColorName: name(dictionaries.colors, next.carColorId), carBrandName: name(dictionaries.brands, next.carBrandId),
        carTypeName: name(dictionaries.types, next.carTypeId), plateNumber: next.plateNumber.trim(), description: next.description.trim(),
      }));
    }
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (complete && onSubmit) onSubmit({ ...draft, plateNumber: draft.plateNumber.trim(), description: draft.description.trim() });
  };
  const select = (label: string, key: 'carBrandId' | 'carTypeId' | 'carColorId', list: { id: number; name: string }[]) => (
    <label className="field">
      <span>{label}</span>
      <select value={draft[key]} onChange={(e) => change({ [key]: Number(e.target.value) })}>
        <option value={0}>{t('car.choose')}</option>
        {list.map((x) => <option key={x.id} value={x.id}>{x.name}</option>)}
      </select>
    </label>
  );
  const fields = (
    <>
      <div className="field-row">
        {select(t('car.brand'), 'carBrandId', dictionaries.brands)}
        {select(t('car.type'), 'carTypeId', dictionaries.types)}
        {select(t('car.color'), 'carColorId', dictionaries.colors)}
      </div>
      <div className="field-row">
        <label className="field"><span>{t('car.plate')}</span><input dir="ltr" value={draft.plateNumber} maxLength={20} onChange={(e) => change({ plateNumber: e.target.value })} /></label>
        <label className="field"><span>{t('car.description')}</span><input value={draft.description} maxLength={200} onChange={(e) => change({ description: e.target.value })} /></label>
      </div>
    </>
  );
  if (submitLabel === null) return <div className="car-form" aria-label={t('car.yourCar')}>{fields}</div>;
  return (
    <form className="car-form" onSubmit={submit} aria-label={t('car.add')}>
      {fields}
      {error && <p className="shop-error" role="alert">{translateMessage(error)}</p>}
      <button type="submit" className="shop-button shop-button--ghost" disabled={!complete || busy}>{submitLabel}</button>
    </form>
  );
}
