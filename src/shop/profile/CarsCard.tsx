import { useMemo, useState, type FormEvent } from 'react';
import { fromPromise } from 'xstate';
import { useActorRef, useSelector } from '@xstate/react';
import { useApolloClient } from '@apollo/client/react';
import { graphql } from '../../gql';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { t, translateMessage } from '../../i18n';
import '../../i18n/screens';
import { CAR_TEXT } from '../../../domain/constants';
import {
  customerCarsMachine, selectCars, selectCarsError, selectCarsFailed, selectCarsPending, selectDictionaries, selectIsSaving,
  type CarDictionaries, type CarDraft, type CustomerCar,
} from '../../../machines/customerCars';

const CustomerCarsWithDictionaries = graphql(`
  query CustomerCarsWithDictionaries {
    Cars_GetCustomerCars { id carBrandId carBrandName carTypeId carTypeName carColorId carColorName plateNumber description }
    Cars_GetCarBrands { id name }
    Cars_GetCarTypes { id name }
    Cars_GetCarColors { id name }
  }
`);

const AddCustomerCar = graphql(`
  mutation AddCustomerCar($carBrandId: Int!, $carColorId: Int!, $carTypeId: Int!, $plateNumber: String!, $description: String) {
    Cars_AddCustomerCar(carBrandId: $carBrandId, carColorId: $carColorId, carTypeId: $carTypeId, plateNumber: $plateNumber, description: $description) {
      id carBrandId carBrandName carTypeId carTypeName carColorId carColorName plateNumber description
    }
  }
`);

const present = <T,>(items: (T | null | undefined)[] | null | undefined) => (items ?? []).filter((i): i is T => !!i);

/** The customer's cars (for car service), and adding one; machines/customerCars.ts re-reads the list 3 s after a save. */
export function CarsCard() {
  const client = useApolloClient();
  const [formOpen, setFormOpen] = useState(false);
  const machine = useMemo(() => customerCarsMachine.provide({
    actors: {
      loadCars: fromPromise(async () => {
        const res = await client.query({ query: CustomerCarsWithDictionaries, fetchPolicy: 'network-only', context: { silent: true } })
          .catch((e) => { throw new Error(errorMessage(e)); });
        const d = res.data;
        return {
          cars: present(d?.Cars_GetCustomerCars) as CustomerCar[],
          brands: present(d?.Cars_GetCarBrands), types: present(d?.Cars_GetCarTypes), colors: present(d?.Cars_GetCarColors),
        };
      }),
      saveCar: fromPromise(async ({ input }: { input: CarDraft }) => {
        const res = await client.mutate({
          mutation: AddCustomerCar,
          variables: { ...input, plateNumber: input.plateNumber.trim(), description: input.description.trim() },
          context: { silent: true },
        }).catch((e) => { throw new Error(errorMessage(e)); });
        const car = res.data?.Cars_AddCustomerCar;
        if (!car) throw new Error(errorMessage(null));
        return car;
      }),
    },
    actions: {
      carSaved: () => {
        notify('success', 'Success', t('profile.carAdded'));
        setFormOpen(false);
      },
    },
  }), [client]);
  const ref = useActorRef(machine, { input: { canSave: true } });
  const cars = useSelector(ref, selectCars);
  const dictionaries = useSelector(ref, selectDictionaries);
  const pending = useSelector(ref, selectCarsPending);
  const saving = useSelector(ref, selectIsSaving);
  const failed = useSelector(ref, selectCarsFailed);
  const error = useSelector(ref, selectCarsError);
  return (
    <section className="acct-card" aria-labelledby="profile-cars-title">
      <div className="acct-card__head">
        <h2 id="profile-cars-title">{t('profile.cars')}</h2>
        {!formOpen && <button type="button" className="acct-btn acct-btn--ghost acct-btn--small" onClick={() => setFormOpen(true)}>{t('profile.addCar')}</button>}
      </div>
      {pending && !saving && !cars.length && <p className="acct-empty" role="status">{t('profile.loadingCars')}</p>}
      {failed && (
        <p className="shop-error" role="alert">
          {t('profile.carsFailed')} <button type="button" className="acct-btn acct-btn--ghost acct-btn--small" onClick={() => ref.send({ type: 'car.reload' })}>{t('profile.tryAgain')}</button>
        </p>
      )}
      {!pending && !failed && !cars.length && <p className="acct-empty">{t('profile.noCars')}</p>}
      <ul className="acct-list" aria-label={t('profile.carList')}>
        {cars.map((c) => (
          <li key={c.id} className="acct-item">
            <span className="acct-item__body">
              <strong>{c.carColorName} {c.carBrandName} {c.carTypeName}</strong>
              <span className="shop-muted">{t('profile.plate')} <bdi className="profile-plate" dir="ltr">{c.plateNumber}</bdi>{c.description ? ` · ${c.description}` : ''}</span>
            </span>
          </li>
        ))}
      </ul>
      {formOpen && (
        <CarForm dictionaries={dictionaries} saving={saving} error={failed ? null : error}
          onSubmit={(car) => ref.send({ type: 'car.save', car })} onCancel={() => setFormOpen(false)} />
      )}
    </section>
  );
}

interface Draft { carBrandId: number | null; carTypeId: number | null; carColorId: number | null; plateNumber: string; description: string }

/** The first missing field, in the server's own words, or null. */
function carProblem(c: Draft): string | null {
  if (!c.carBrandId) return CAR_TEXT.brand;
  if (!c.carTypeId) return CAR_TEXT.type;
  if (!c.carColorId) return CAR_TEXT.color;
  if (!c.plateNumber.trim()) return CAR_TEXT.plate;
  return null;
}

/** Presentational: the add-a-car form. */
function CarForm({ dictionaries, saving, error, onSubmit, onCancel }: {
  dictionaries: CarDictionaries; saving: boolean; error: string | null; onSubmit(car: CarDraft): void; onCancel(): void;
}) {
  const [draft, setDraft] = useState<Draft>({ carBrandId: null, carTypeId: null, carColorId: null, plateNumber: '', description: '' });
  const [problem, setProblem] = useState<string | null>(null);
  const change = (d: Partial<Draft>) => { setDraft((x) => ({ ...x, ...d })); setProblem(null); };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const p = carProblem(draft);
    if (p) return setProblem(p);
    onSubmit({ carBrandId: draft.carBrandId!, carTypeId: draft.carTypeId!, carColorId: draft.carColorId!, plateNumber: draft.plateNumber, description: draft.description });
  };
  const select = (label: string, key: 'carBrandId' | 'carTypeId' | 'carColorId', items: { id: number; name: string }[]) => (
    <label className="acct-field">{label}
      <select name={key} value={draft[key] ?? ''} onChange={(e) => change({ [key]: Number(e.target.value) || null })}>
        <option value="">{t('profile.choose')}</option>
        {items.map((i) => <option key={i.id} value={i.id}>{i.name}</option>)}
      </select>
    </label>
  );
  const message = translateMessage(problem ?? error);
  return (
    <form className="profile-car-form" aria-label={t('profile.addACar')} aria-busy={saving} onSubmit={submit}>
      {select(t('profile.carBrand'), 'carBrandId', dictionaries.brands)}
      {select(t('profile.carType'), 'carTypeId', dictionaries.types)}
      {select(t('profile.carColor'), 'carColorId', dictionaries.colors)}
      <label className="acct-field">{t('profile.plateNumber')}
        <input name="plateNumber" dir="ltr" maxLength={20} autoComplete="off" value={draft.plateNumber} onChange={(e) => change({ plateNumber: e.target.value })} />
      </label>
      <label className="acct-field profile-car-form__wide">{t('profile.description')}
        <input name="description" maxLength={200} placeholder={t('profile.descriptionHint')} value={draft.description} onChange={(e) => change({ description: e.target.value })} />
      </label>
      {message && <p className="acct-field__error profile-car-form__wide" role="alert">{message}</p>}
      <div className="acct-actions profile-car-form__wide">
        <button type="submit" className="acct-btn" disabled={saving}>{saving ? t('profile.saving') : t('profile.saveCar')}</button>
        <button type="button" className="acct-btn acct-btn--ghost" onClick={onCancel} disabled={saving}>{t('profile.cancel')}</button>
      </div>
    </form>
  );
}
