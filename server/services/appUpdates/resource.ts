import { Type } from 'typebox';
import { appUpdates } from '../../db/schema';
import { Obj } from '../../http/envelope';
import { defineResource } from '../../resources/resource';
import { oneOf } from '../../resources/list';

const Platform = oneOf(['android', 'ios']);

/** A mobile app release; `isForceUpdate` makes older versions of that platform's app update before use. */
export const AppUpdate = Obj('AppUpdate', {
  id: Type.Integer(),
  platform: Platform,
  version: Type.String({ description: 'Dotted numbers, e.g. 2.4.1.' }),
  title: Type.String(),
  notes: Type.String(),
  isForceUpdate: Type.Boolean(),
  releasedAt: Type.String({ description: 'ISO date and time.' }),
});
const fields = {
  platform: Platform,
  version: Type.String({ maxLength: 20, pattern: '^\\d{1,4}(\\.\\d{1,4}){0,3}$' }),
  title: Type.String({ minLength: 1, maxLength: 120, pattern: '\\S' }),
  notes: Type.String({ maxLength: 2000 }),
  isForceUpdate: Type.Boolean(),
  releasedAt: Type.String({ format: 'date-time' }),
};
const { platform, version, title, ...optional } = fields;

/** SPEC.md 7 Configuration, AppUpdates: Insert, Update, GetAllUpdatesList, Delete (Id). Not scoped: ADMIN only. */
export const appUpdatesResource = defineResource({
  service: 'AppUpdates',
  table: appUpdates,
  item: AppUpdate,
  create: Type.Object({ platform, version, title, ...Type.Partial(Type.Object(optional)).properties }),
  update: Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2147483647 }), ...Type.Partial(Type.Object(fields)).properties }),
  scope: null,
  can: { view: 'appUpdates.manage', create: 'appUpdates.manage', update: 'appUpdates.manage', delete: 'appUpdates.manage' },
  methods: { list: 'GetAllUpdatesList', create: 'Insert', update: 'Update', delete: 'Delete?Id' },
  sortable: ['id', 'platform', 'version', 'title', 'releasedAt'],
  defaultSorting: 'releasedAt desc',
  filters: { platform: 'equals', isForceUpdate: 'equals', title: 'contains', version: 'contains' },
});
