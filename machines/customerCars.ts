import { assign, fromPromise, setup } from 'xstate';
import { TIMINGS } from '../domain/constants';

/**
 * The customer's cars for car service at checkout (SPEC.md 3 "Car", 7 "Cars/*", 9 timings).
 *
 *   loading ──▶ ready ──car.save──▶ saving ──▶ saved ──(3 s)──▶ loading (the list is refreshed)
 *                 ▲                    └─(refused)─▶ ready, with the server's message
 *
 * The guest account keeps no cars (the server refuses to save one), so a guest describes the car
 * at checkout instead; `canSave` is false for the guest.
 *
 * Ports, bound by whoever runs the machine: actors `loadCars` (the customer's cars and the car
 * brand, type and color dictionaries) and `saveCar` (Cars/AddCustomerCar); action `carSaved`
 * (the new car, which the checkout selects).
 */

export interface DictionaryItem { id: number; name: string }
export interface CustomerCar {
  id: number;
  carBrandId: number; carBrandName: string;
  carTypeId: number; carTypeName: string;
  carColorId: number; carColorName: string;
  plateNumber: string;
  description: string;
}
export interface CarDraft { carBrandId: number; carTypeId: number; carColorId: number; plateNumber: string; description: string }
export interface CarDictionaries { brands: DictionaryItem[]; types: DictionaryItem[]; colors: DictionaryItem[] }

export interface CustomerCarsContext extends CarDictionaries {
  canSave: boolean;
  cars: CustomerCar[];
  error: string | null;
}

export type CustomerCarsEvent = { type: 'car.save'; car: CarDraft } | { type: 'car.reload' };

export const customerCarsMachine = setup({
  types: {
    context: {} as CustomerCarsContext,
    events: {} as CustomerCarsEvent,
    input: {} as { canSave: boolean },
    tags: {} as 'pending',
  },
  actors: {
    loadCars: fromPromise<CarDictionaries & { cars: CustomerCar[] }, { canSave: boolean }>(async () => {
      throw new Error('loadCars is not bound');
    }),
    saveCar: fromPromise<CustomerCar, CarDraft>(async () => {
      throw new Error('saveCar is not bound');
    }),
  },
  actions: {
    carSaved: (_, _params: CustomerCar) => {},
  },
  guards: {
    canSave: ({ context }) => context.canSave,
  },
  delays: {
    carSaveRefresh: TIMINGS.carSaveRefreshMs,
  },
}).createMachine({
  id: 'customerCars',
  context: ({ input }) => ({ canSave: input.canSave, cars: [], brands: [], types: [], colors: [], error: null }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['pending'],
      invoke: {
        src: 'loadCars',
        input: ({ context }) => ({ canSave: context.canSave }),
        onDone: { target: 'ready', actions: assign(({ event }) => ({ ...event.output, error: null })) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => (event.error as Error)?.message ?? null }) },
      },
    },
    failed: { on: { 'car.reload': 'loading' } },
    ready: {
      on: { 'car.save': { guard: 'canSave', target: 'saving', actions: assign({ error: null }) } },
    },
    saving: {
      tags: ['pending'],
      invoke: {
        src: 'saveCar',
        input: ({ event }) => (event as Extract<CustomerCarsEvent, { type: 'car.save' }>).car,
        onDone: {
          target: 'saved',
          actions: [
            assign({ cars: ({ context, event }) => [...context.cars.filter((c) => c.id !== event.output.id), event.output] }),
            { type: 'carSaved', params: ({ event }) => event.output },
          ],
        },
        onError: { target: 'ready', actions: assign({ error: ({ event }) => (event.error as Error)?.message ?? null }) },
      },
    },
    // The saved car is shown at once; the list is read again from the server after a moment.
    saved: {
      after: { carSaveRefresh: 'loading' },
      on: { 'car.save': { guard: 'canSave', target: 'saving' } },
    },
  },
});

type Snapshot = { context: CustomerCarsContext; hasTag(t: 'pending'): boolean; matches(v: 'saving' | 'failed'): boolean };

/** Selectors: views read these, never state paths. */
export const selectCars = (s: Snapshot) => s.context.cars;
export const selectDictionaries = (s: Snapshot): CarDictionaries => ({ brands: s.context.brands, types: s.context.types, colors: s.context.colors });
export const selectIsSaving = (s: Snapshot) => s.matches('saving');
export const selectCarsPending = (s: Snapshot) => s.hasTag('pending');
export const selectCarsError = (s: Snapshot) => s.context.error;
export const selectCarsFailed = (s: Snapshot) => s.matches('failed');

/** How a car reads at checkout and for staff: "White Toyota SUV, plate 12345". */
export const describeCar = (c: Pick<CustomerCar, 'carColorName' | 'carBrandName' | 'carTypeName' | 'plateNumber' | 'description'>) =>
  `${c.carColorName} ${c.carBrandName} ${c.carTypeName}, plate ${c.plateNumber}${c.description ? ` (${c.description})` : ''}`;
