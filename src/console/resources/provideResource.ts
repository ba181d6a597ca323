import { fromPromise } from 'xstate';
import type { ApolloClient } from '@apollo/client';
import { graphql } from '../../gql';
import { apiErrorOf, errorMessage, statusOf } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { resourceMachine, ResourceError, SAVED, type FieldErrors, type HistoryEntry, type Row, type Values } from '../../../machines/resourceMachine';
import type { AnyResourceConfig, FieldConfig } from './types';
import { fromZoneInput } from '../../../domain/time';

/** One row's audit entries; the resource shape's History tab and the custom screens read them. */
export const EntityHistory = graphql(`
  query EntityHistory($resource: String!, $id: Int!) {
    history: AuditLog_GetEntityHistory(resource: $resource, id: $id) {
      data { id at userName action before after }
    }
  }
`);

/** The gateway's error as the machine takes it: the server's message, and its field messages by field. */
export function resourceErrorOf(error: unknown, fields: readonly FieldConfig[] = []): ResourceError {
  const fieldErrors: FieldErrors = {};
  for (const v of apiErrorOf(error)?.abp?.validationErrors ?? []) {
    const field = fields.find((f) => v.members.some((m) => m.toLowerCase() === f.name.toLowerCase()));
    if (!field || fieldErrors[field.name]) continue;
    // "percent: must be <= 100" → "Percent must be <= 100"
    const text = v.message.replace(/^[\w.]+:\s*/, '');
    fieldErrors[field.name] = /^[a-z]/.test(text) ? `${field.label} ${text}` : text;
  }
  return new ResourceError(errorMessage(error), fieldErrors, statusOf(error));
}

/** Form values as the server takes them: numbers as numbers, date-times as ISO (typed on the brand's clock, domain/time.ts), blanks of optional fields left out. */
function toInput(fields: readonly FieldConfig[], values: Values, isNew: boolean): Values {
  const input: Values = {};
  for (const f of fields) {
    if (!isNew && f.createOnly) continue;
    const v = values[f.name];
    if (v === undefined || v === null || (v === '' && f.kind !== 'text' && f.kind !== 'textarea')) continue;
    input[f.name] = f.kind === 'number' ? Number(v) : f.kind === 'datetime' ? fromZoneInput(String(v)) : v;
  }
  return input;
}

const rowsOf = (data: { list?: { totalCount: number; data: (Record<string, unknown> | null)[] } | null } | undefined) => {
  if (!data?.list) throw new ResourceError('The list did not load.');
  return { rows: data.list.data.filter((r): r is Row => !!r), totalCount: data.list.totalCount };
};

/**
 * The resource machine bound to the gateway for one config. Every call is `silent` (the screen
 * shows failures in place) and uncached: writes are pessimistic, the list is read again after each.
 */
export function provideResource(client: ApolloClient, config: AnyResourceConfig) {
  const ops = config.operations;
  const fields = config.fields ?? [];
  const silent = { silent: true };
  const call = async <T,>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw resourceErrorOf(error, fields);
    }
  };
  return resourceMachine.provide({
    actors: {
      loadPage: fromPromise(({ input }) => call(async () => rowsOf((await client.query({
        query: ops.list,
        variables: { SkipCount: input.skip, MaxResultCount: input.take, Sorting: input.sorting, Search: input.search, ...input.filter },
        fetchPolicy: 'no-cache', context: silent,
      })).data))),
      // One row through the list itself (`id` filter, in the caller's scope): no extra call per resource.
      loadRow: fromPromise(({ input }) => call(async () => {
        const { rows } = rowsOf((await client.query({
          query: ops.list, variables: { SkipCount: 0, MaxResultCount: 1, id: input.id }, fetchPolicy: 'no-cache', context: silent,
        })).data);
        if (!rows[0]) throw new ResourceError(`This ${config.noun} no longer exists.`);
        return rows[0];
      })),
      saveRow: fromPromise(({ input }) => call(async () => {
        const isNew = input.id === null;
        const mutation = isNew ? ops.create : ops.update;
        if (!mutation) throw new ResourceError(`A ${config.noun} cannot be ${isNew ? 'added' : 'changed'} here.`);
        const values = toInput(fields, input.values, isNew);
        const res = await client.mutate({ mutation, variables: { input: isNew ? { ...input.fixed, ...values } : { id: input.id, ...values } }, context: silent });
        if (!res.data?.row) throw new ResourceError('The server did not answer the saved row.');
        return res.data.row as Row;
      })),
      deleteRow: fromPromise(({ input }) => call(async () => {
        if (!ops.delete) throw new ResourceError(`A ${config.noun} cannot be deleted here.`);
        await client.mutate({ mutation: ops.delete, variables: { id: input.id }, context: silent });
        return true;
      })),
      loadHistory: fromPromise(({ input }) => call(async () => {
        const res = await client.query({
          query: EntityHistory, variables: { resource: config.historyResource ?? '', id: input.id }, fetchPolicy: 'no-cache', context: silent,
        });
        return (res.data?.history?.data ?? []).filter((h) => !!h) as HistoryEntry[];
      })),
    },
    actions: {
      notify: (_, { intent, message }) => {
        if (message === SAVED && config.savedNotice) notify(intent, config.savedNotice.title, config.savedNotice.message);
        else notify(intent, intent === 'danger' ? 'Error' : config.title, message);
      },
    },
  });
}
