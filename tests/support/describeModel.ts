import { describe, expect, it } from 'vitest';
import { initialTransition, transition, type AnyStateMachine, type EventObject, type InputFrom, type SnapshotFrom } from 'xstate';
import { TestModel } from 'xstate/graph';

/**
 * One runner for every model-based test (issue 22): the model IS the product's machine.
 *
 * The paths are generated from the real machine's graph with `xstate/graph`. `createTestModel`
 * refuses machines that invoke actors or wait (`after`), so the runner builds the same
 * `TestModel` without that check: the traversal is pure (`machine.transition` with a mock actor
 * scope, nothing is started), and an invoked actor's answers are supplied to it as events
 * (`answers`: each `xstate.done.actor.*` output and `xstate.error.actor.*` error the test can
 * produce). Every path is then walked against the system under test (the real view against a real
 * server, or an actor of the machine bound to its real ports): each step runs what the test does
 * for that event (`steps`, keyed by the event's type, `<actor src>.done`, `<actor src>.error` or
 * `after.<delay>`), and each state runs its view assertion (`states`, keyed by a state value
 * `matches` accepts, or `*`) and, where the test holds the real actor, checks its state value.
 *
 * Each step's function also sees the next step (`next`), so a user action can be chosen to
 * produce the answer the path asks for (wrong password before `authenticate.error`).
 */
export interface ModelStep<TMachine extends AnyStateMachine = AnyStateMachine> {
  event: EventObject & Record<string, unknown>;
  state: SnapshotFrom<TMachine>;
  /** The step after this one, if any (the invoked actor's answer that this action must produce). */
  next?: { key: string; event: EventObject & Record<string, unknown>; state: SnapshotFrom<TMachine> };
  /** The state before this step. */
  from: SnapshotFrom<TMachine>;
}

export interface ModelSpec<TMachine extends AnyStateMachine, H> {
  /** The product's machine, with its ports stubbed through `machine.provide` where the traversal needs them (guards, delays). */
  machine: TMachine;
  input?: InputFrom<TMachine>;
  /** Events the traversal sends with their data (by type); types not listed are sent bare, as createTestModel does. */
  events?: EventObject[] | ((snapshot: SnapshotFrom<TMachine>) => EventObject[]);
  /** Each invoked actor's possible answers, by its `src`: outputs (done) and errors. */
  answers?: Record<string, { done?: unknown[] | ((s: SnapshotFrom<TMachine>) => unknown[]); error?: unknown[] | ((s: SnapshotFrom<TMachine>) => unknown[]) }>;
  /** The part of a snapshot that makes it a distinct state of the model (default: value and context). */
  serialize?: (snapshot: SnapshotFrom<TMachine>) => unknown;
  /** Leave out events the test cannot produce, or that would make the graph unbounded. */
  filterEvents?: (snapshot: SnapshotFrom<TMachine>, event: EventObject) => boolean;
  /** How an event reads in a path's title (default: its step key). */
  describeEvent?: (event: EventObject & Record<string, unknown>) => string;
  /** 'states' (the default): one path to each state; 'transitions': one path through each transition (a state reached by each event from each state), as createTestModel does by default. */
  cover?: 'states' | 'transitions';
  /** With `cover: 'transitions'`: what makes two events the same transition (default: the whole event). */
  transitionKey?: (event: EventObject & Record<string, unknown>) => string;
  /** 'shortest' (one path per model state, the default) or 'simple' (every loop-free path). */
  paths?: 'shortest' | 'simple';
  /** A cap on the number of paths walked (after removing paths that are prefixes of others). */
  maxPaths?: number;
  /** States of the machine (ids of atomic state nodes, e.g. `checkout.loading`) no path may miss; default: every atomic state. */
  mustVisit?: string[];
  /**
   * Starts the system under test for one path (renders the view, starts the actor); returns the test's handle.
   * It sees the path, so a start can set up what the first answer asks for (a stored session the server refuses).
   */
  start: (path: ModelPath<TMachine>) => H | Promise<H>;
  /** Ends the walk (`failed`: the walk threw, and work it started may still be in flight). */
  stop?: (handle: H, walk: { failed: boolean }) => void | Promise<void>;
  steps: Record<string, (handle: H, step: ModelStep<TMachine>) => unknown>;
  states?: Record<string, (handle: H, snapshot: SnapshotFrom<TMachine>) => unknown>;
  /** The real actor's snapshot, where the test holds it: after each step its state value must be the model's. */
  actual?: (handle: H) => { value: unknown } | Promise<{ value: unknown }>;
}

export interface ModelPath<TMachine extends AnyStateMachine = AnyStateMachine> {
  description: string;
  state: SnapshotFrom<TMachine>;
  steps: { event: EventObject & Record<string, unknown>; state: SnapshotFrom<TMachine> }[];
}

type Snap = { value: unknown; context: unknown; matches(v: unknown): boolean; _nodes: { ownEvents: string[]; type: string; id: string }[] };

/** Invoked actors of the machine by invoke id → their `src` name. */
function invokeSources(machine: AnyStateMachine) {
  const sources = new Map<string, string>();
  const visit = (node: AnyStateMachine['root']) => {
    for (const inv of node.invoke) sources.set(inv.id, typeof inv.src === 'string' ? inv.src : inv.id);
    for (const child of Object.values(node.states)) visit(child as AnyStateMachine['root']);
  };
  visit(machine.root);
  return sources;
}

/** Every atomic (or final) state node's id. */
export function atomicStateIds(machine: AnyStateMachine): string[] {
  const ids: string[] = [];
  const visit = (node: AnyStateMachine['root']) => {
    const children = Object.values(node.states) as AnyStateMachine['root'][];
    if (!children.length) ids.push(node.id);
    children.forEach(visit);
  };
  visit(machine.root);
  return ids;
}

/** The step key of an event: its type, or `<src>.done` / `<src>.error` for an invoked actor's answer, `after.<delay>` for a wait. */
export function stepKey(machine: AnyStateMachine, event: EventObject): string {
  const sources = invokeSources(machine);
  for (const [kind, prefix] of [['done', 'xstate.done.actor.'], ['error', 'xstate.error.actor.']] as const) {
    if (event.type.startsWith(prefix)) return `${sources.get(event.type.slice(prefix.length)) ?? event.type.slice(prefix.length)}.${kind}`;
  }
  const after = /^xstate\.after\.([^.]+)\./.exec(event.type);
  return after ? `after.${after[1]}` : event.type;
}

/** The paths of the real machine's graph. */
export function modelPaths<TMachine extends AnyStateMachine>(spec: Pick<ModelSpec<TMachine, unknown>, 'machine' | 'input' | 'events' | 'answers' | 'serialize' | 'filterEvents' | 'paths' | 'maxPaths' | 'describeEvent' | 'cover' | 'transitionKey'>): ModelPath<TMachine>[] {
  const { machine } = spec;
  const sources = invokeSources(machine);
  const serialize = spec.serialize ?? ((s: SnapshotFrom<TMachine>) => ({ value: (s as unknown as Snap).value, context: (s as unknown as Snap).context }));
  const events = (snapshot: Snap): EventObject[] => {
    const given = typeof spec.events === 'function' ? spec.events(snapshot as never) : spec.events ?? [];
    return [...new Set(snapshot._nodes.flatMap((n) => n.ownEvents))].flatMap((type) => {
      const done = /^xstate\.done\.actor\.(.+)$/.exec(type);
      const error = /^xstate\.error\.actor\.(.+)$/.exec(type);
      if (done || error) {
        const answers = spec.answers?.[sources.get((done ?? error)![1]) ?? ''];
        if (done) {
          const outputs = typeof answers?.done === 'function' ? answers.done(snapshot as never) : answers?.done ?? [];
          return outputs.map((output) => ({ type, output }));
        }
        const errors = typeof answers?.error === 'function' ? answers.error(snapshot as never) : answers?.error ?? [];
        // `answer` names the error in the path's description and its serialisation (an Error serialises as {}).
        return errors.map((e) => ({ type, error: e, answer: (e as Error)?.message ?? String(e) }));
      }
      const matching = given.filter((e) => e.type === type);
      return matching.length ? matching : [{ type }];
    });
  };
  /**
   * The graph keeps one snapshot per serialised state, the last one it met: where `serialize` leaves
   * part of the context out, a path's stored steps may hold another snapshot of the same model state
   * (another quantity, other ids) than its events lead to. So each path is replayed on the machine
   * from its start: each step takes the event that leads, from the snapshot reached so far, to the
   * step's model state (the stored event, or another of the same kind from `events`, e.g. one
   * naming this snapshot's cart line), and the snapshot it leads to. The walk then checks exactly
   * what the events it performs produce.
   */
  const keyOf = (s: unknown) => JSON.stringify(serialize(s as never));
  const replay = (p: ModelPath<TMachine>): ModelPath<TMachine> => {
    let s = (initialTransition as unknown as (m: AnyStateMachine, input: unknown) => [unknown])(machine, spec.input)[0] as Snap;
    const steps = [{ ...p.steps[0], state: s as never }];
    for (const step of p.steps.slice(1)) {
      const want = keyOf(step.state);
      const kind = stepKey(machine, step.event);
      const allowed = (e: EventObject) => stepKey(machine, e) === kind && (!spec.filterEvents || spec.filterEvents(s as never, e));
      const tries = [step.event, ...events(s).filter(allowed)] as (EventObject & Record<string, unknown>)[];
      const found = tries.map((event) => ({ event, state: transition(machine, s as never, event as never)[0] as unknown as Snap })).find((t) => keyOf(t.state) === want);
      if (!found) throw new Error(`the path "${p.steps.map((x) => stepKey(machine, x.event)).join(' → ')}" cannot be replayed at ${kind}`);
      steps.push({ event: found.event, state: found.state as never });
      s = found.state;
    }
    return { ...p, steps, state: s as never };
  };
  const model = new TestModel(machine, {
    events,
    serializeState: (s: Snap, event?: EventObject, prev?: Snap) => JSON.stringify(serialize(s as never))
      + (spec.cover === 'transitions' && event && prev ? ` via ${(spec.transitionKey ?? JSON.stringify)(event as never)} from ${JSON.stringify(serialize(prev as never))}` : ''),
    filterEvents: spec.filterEvents as never,
    stateMatcher: (s: Snap, key: string) => key !== '*' && s.matches(key),
    input: spec.input,
  } as never);
  const generated = (spec.paths === 'simple' ? model.getSimplePaths() : model.getShortestPaths()) as unknown as ModelPath<TMachine>[];
  const paths = generated.slice(0, spec.maxPaths ?? Infinity).map((p) => replay(p));
  return paths.map((p) => ({
    ...p,
    description: `reaches ${JSON.stringify((p.state as unknown as Snap).value)}: ${p.steps.slice(1).map((s) => spec.describeEvent?.(s.event) ?? stepKey(machine, s.event) + (typeof s.event.answer === 'string' ? ` (${s.event.answer})` : '')).join(' → ') || '(start)'}`,
  }));
}

/** Walks one path against the system under test; throws (naming the step) where the system and the model part. */
export async function walkPath<TMachine extends AnyStateMachine, H>(spec: ModelSpec<TMachine, H>, path: ModelPath<TMachine>): Promise<void> {
  const handle = await spec.start(path);
  const keys = path.steps.map((s) => stepKey(spec.machine, s.event));
  let failed = true;
  try {
    for (let i = 0; i < path.steps.length; i++) {
      const { event, state } = path.steps[i];
      const where = `step ${i} (${keys[i]} → ${JSON.stringify((state as unknown as Snap).value)})`;
      try {
        if (i > 0) {
          const exec = spec.steps[keys[i]];
          if (!exec) throw new Error(`no step for ${keys[i]}`);
          const next = path.steps[i + 1];
          await exec(handle, { event, state, from: path.steps[i - 1].state, next: next && { key: keys[i + 1], event: next.event, state: next.state } });
        }
        // While the model waits for an invoked actor's answer, the real actor may have had it already.
        const awaitingAnswer = /\.(done|error)$/.test(keys[i + 1] ?? '');
        if (spec.actual && !awaitingAnswer) expect((await spec.actual(handle)).value, 'the real actor is in the model\'s state').toEqual((state as unknown as Snap).value);
        const matching = Object.keys(spec.states ?? {}).filter((k) => k !== '*' && (state as unknown as Snap).matches(k));
        for (const k of matching.length ? matching : ('*' in (spec.states ?? {}) ? ['*'] : [])) await spec.states![k](handle, state);
      } catch (err) {
        if (err instanceof Error) err.message = `${where}: ${err.message}`;
        throw err;
      }
    }
    failed = false;
  } finally {
    await spec.stop?.(handle, { failed });
  }
}

export interface ModelOptions<TMachine extends AnyStateMachine, H> extends ModelSpec<TMachine, H> {
  /**
   * Deliberately broken variants (a machine or a view that is wrong): the walk of at least one
   * path must FAIL against each, or the model test could not catch anything. `pick` chooses the
   * path (default: the first one the broken walk fails on is enough, every path is tried).
   */
  broken: { name: string; spec: Partial<ModelSpec<TMachine, H>>; pick?: (path: ModelPath<TMachine>) => boolean; failsWith?: RegExp }[];
  /** The fewest paths the graph must give (a graph that shrinks to nothing fails). */
  minPaths?: number;
}

const BROKEN_WAIT_MS = 8_000;

/** Registers a describe block: the coverage check, one test per generated path, and one per broken variant. */
export function describeModel<TMachine extends AnyStateMachine, H>(title: string, options: ModelOptions<TMachine, H>) {
  describe(title, () => {
    const paths = modelPaths(options);

    it(`the real machine's graph gives ${paths.length} paths that visit its states`, () => {
      expect(paths.length).toBeGreaterThanOrEqual(options.minPaths ?? 1);
      const visited = new Set(paths.flatMap((p) => p.steps.flatMap((s) => (s.state as unknown as Snap)._nodes.map((n) => n.id))));
      const must = options.mustVisit ?? atomicStateIds(options.machine);
      expect(must.filter((id) => !visited.has(id)), 'states no path visits').toEqual([]);
    });

    for (const path of paths) it(path.description, () => walkPath(options, path));

    for (const variant of options.broken) {
      it(`fails against a broken variant: ${variant.name}`, async () => {
        const spec = { ...options, ...variant.spec } as ModelSpec<TMachine, H>;
        const candidates = modelPaths(spec).filter(variant.pick ?? (() => true));
        expect(candidates.length, 'the broken variant has paths to walk').toBeGreaterThan(0);
        const failures: unknown[] = [];
        // A broken view never shows what the step waits for: the wait ends after BROKEN_WAIT_MS, not
        // after the 30 s a cold render may need (the real walks above have warmed every chunk).
        const dom = typeof document === 'undefined' ? null : await import('@testing-library/dom');
        const wait = dom?.getConfig().asyncUtilTimeout;
        dom?.configure({ asyncUtilTimeout: BROKEN_WAIT_MS });
        try {
          for (const path of candidates) {
            try { await walkPath(spec, path); } catch (err) { failures.push(err); break; }
          }
        } finally {
          if (dom) dom.configure({ asyncUtilTimeout: wait });
        }
        expect(failures.length, 'some walk of the broken variant fails').toBe(1);
        if (variant.failsWith) expect(String((failures[0] as Error)?.message ?? failures[0])).toMatch(variant.failsWith);
      });
    }
  });
}
