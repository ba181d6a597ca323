/**
 * Development only (vite dev, scripts/viteInspect.ts): stands in for '@xstate/react' so that, when
 * the page was opened with `?inspect`, every machine the app starts reports to the Stately inspector
 * (@statelyai/inspect opens it in a window). A machine's children and the actors it spawns share its
 * system, so they report too. The production build never resolves this file.
 */
import { createBrowserInspector } from '@statelyai/inspect';
import { useActorRef as useActorRefOf, useMachine as useMachineOf } from '@xstate/react';

export * from '@xstate/react';

const inspector = new URLSearchParams(window.location.search).has('inspect') ? createBrowserInspector() : null;

type Options = { inspect?: unknown } | undefined;
const inspected = <T extends Options>(options: T): T => (inspector ? ({ ...options, inspect: inspector.inspect } as T) : options);

export const useActorRef = ((logic: never, options?: Options, observer?: never) =>
  useActorRefOf(logic, inspected(options) as never, observer)) as unknown as typeof useActorRefOf;

export const useMachine = ((machine: never, options?: Options) =>
  useMachineOf(machine, inspected(options) as never)) as unknown as typeof useMachineOf;
