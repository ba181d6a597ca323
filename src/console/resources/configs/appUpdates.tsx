import { Tag } from '@blueprintjs/core';
import { AppUpdates } from '../generated/AppUpdates';
import { declaredScreen } from '../declared';
import { dateTimeText } from '../../../../domain/time';

const PLATFORMS = [{ value: 'android', label: 'Android' }, { value: 'ios', label: 'iOS' }];

/** /AppUpdates — mobile app releases (ADMIN). */
export const appUpdatesScreen = declaredScreen(AppUpdates, {
  path: '/AppUpdates',
  title: 'App Updates',
  noun: 'app update',
  columns: [
    { field: 'platform', name: 'Platform', width: 100, render: (r) => PLATFORMS.find((p) => p.value === r.platform)?.label ?? String(r.platform) },
    { field: 'version', name: 'Version', width: 100 },
    { field: 'title', name: 'Title', width: 260 },
    { field: 'isForceUpdate', name: 'Update', width: 110, render: (r) => (r.isForceUpdate ? <Tag intent="warning">Forced</Tag> : <Tag minimal>Optional</Tag>) },
    { field: 'releasedAt', name: 'Released', width: 180, render: (r) => dateTimeText(String(r.releasedAt)) },
  ],
  fields: [
    { name: 'platform', label: 'Platform', options: PLATFORMS },
    { name: 'version', label: 'Version', placeholder: '2.4.1', pattern: { regex: /^\d{1,4}(\.\d{1,4}){0,3}$/, message: 'Version is dotted numbers, e.g. 2.4.1.' } },
    { name: 'title', label: 'Title' },
    { name: 'notes', label: 'Notes', kind: 'textarea' },
    { name: 'isForceUpdate', label: 'Force the update', help: 'Older versions must update before they can be used.' },
    { name: 'releasedAt', label: 'Released', help: 'Now when left empty.' },
  ],
  defaults: { isForceUpdate: false, notes: '' },
  filters: [
    { field: 'platform', label: 'Platform', options: PLATFORMS },
    { field: 'isForceUpdate', label: 'Update', options: [{ value: true, label: 'Forced' }, { value: false, label: 'Optional' }] },
  ],
  searchPlaceholder: 'Search title or version',
  rowClassName: (r) => (r.isForceUpdate ? 'resource-row-warning' : undefined),
});
