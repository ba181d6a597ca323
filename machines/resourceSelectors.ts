import type { SnapshotFrom } from 'xstate';
import { checkFields, type FieldErrors } from './resourceFields';
import type { resourceMachine } from './resourceMachine';

export type ResourceSnapshot = SnapshotFrom<typeof resourceMachine>;

/** What the resource screen's views read of its machine (machines/resourceMachine.ts). */
export const selectRows = (s: ResourceSnapshot) => s.context.rows;
export const selectPaging = (s: ResourceSnapshot) => ({ skip: s.context.skip, take: s.context.take, totalCount: s.context.totalCount });
export const selectSorting = (s: ResourceSnapshot) => s.context.sorting;
export const selectListLoading = (s: ResourceSnapshot) => s.matches({ list: 'loading' });
export const selectListError = (s: ResourceSnapshot) => (s.matches({ list: 'error' }) ? s.context.listError : null);
export const selectFilter = (s: ResourceSnapshot) => s.context.filter;
export const selectSearch = (s: ResourceSnapshot) => s.context.search;
/** The form: open, new or not, busy, values and the messages to show (rules once touched or tried, then the server's). */
export const selectForm = (s: ResourceSnapshot) => {
  const c = s.context;
  const open = s.matches({ panel: 'edit' });
  const isNew = c.editId === null;
  const rules = checkFields(c.fields, c.values, isNew);
  const errors: FieldErrors = {};
  for (const [field, message] of Object.entries(rules)) if (c.triedSave || c.touched[field]) errors[field] = message;
  return {
    open, isNew, editId: c.editId, values: c.values, errors: { ...errors, ...c.serverErrors },
    loading: s.matches({ panel: { edit: 'loading' } }), saving: s.matches({ panel: { edit: 'saving' } }), confirming: s.matches({ panel: { edit: 'confirming' } }),
    saveError: s.matches({ panel: { edit: 'saveFailed' } }) ? c.saveError : null,
  };
};
export const selectDelete = (s: ResourceSnapshot) => ({
  open: s.matches({ panel: 'confirmDelete' }), id: s.context.deleteId, deleting: s.matches({ panel: { confirmDelete: 'deleting' } }), error: s.context.deleteError,
});
export const selectHistory = (s: ResourceSnapshot) => ({
  entries: s.context.history, loading: s.matches({ history: 'loading' }), error: s.matches({ history: 'error' }) ? s.context.historyError : null,
  loaded: s.matches({ history: 'ready' }),
});
