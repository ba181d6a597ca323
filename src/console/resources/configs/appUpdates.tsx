import { Tag } from '@blueprintjs/core';
import { graphql } from '../../../gql';
import type { ResourceConfig } from '../types';
import { dateTimeText } from '../../../../domain/time';

const AppUpdateList = graphql(`
  query AppUpdateList($SkipCount: Int!, $MaxResultCount: Int!, $Sorting: String, $Search: String, $id: Int, $platform: String, $isForceUpdate: Boolean) {
    list: AppUpdates_GetAllUpdatesList(SkipCount: $SkipCount, MaxResultCount: $MaxResultCount, Sorting: $Sorting, Search: $Search, id: $id, platform: $platform, isForceUpdate: $isForceUpdate) {
      totalCount data { id platform version title notes isForceUpdate releasedAt }
    }
  }
`);
const AppUpdateInsert = graphql(`mutation AppUpdateInsert($input: AppUpdateCreateInput_Input!) { row: AppUpdates_Insert(input: $input) { id platform version title notes isForceUpdate releasedAt } }`);
const AppUpdateUpdate = graphql(`mutation AppUpdateUpdate($input: AppUpdateUpdateInput_Input!) { row: AppUpdates_Update(input: $input) { id platform version title notes isForceUpdate releasedAt } }`);
const AppUpdateDelete = graphql(`mutation AppUpdateDelete($id: Int!) { deleted: AppUpdates_Delete(Id: $id) }`);

const PLATFORMS = [{ value: 'android', label: 'Android' }, { value: 'ios', label: 'iOS' }];

/** /AppUpdates — mobile app releases (ADMIN). */
export const appUpdatesScreen: ResourceConfig = {
  path: '/AppUpdates',
  title: 'App Updates',
  noun: 'app update',
  historyResource: 'AppUpdates',
  columns: [
    { field: 'platform', name: 'Platform', width: 100, sortable: true, render: (r) => PLATFORMS.find((p) => p.value === r.platform)?.label ?? String(r.platform) },
    { field: 'version', name: 'Version', width: 100, sortable: true },
    { field: 'title', name: 'Title', width: 260, sortable: true },
    { field: 'isForceUpdate', name: 'Update', width: 110, render: (r) => (r.isForceUpdate ? <Tag intent="warning">Forced</Tag> : <Tag minimal>Optional</Tag>) },
    { field: 'releasedAt', name: 'Released', width: 180, sortable: true, render: (r) => dateTimeText(String(r.releasedAt)) },
  ],
  fields: [
    { name: 'platform', label: 'Platform', kind: 'select', required: true, options: PLATFORMS },
    { name: 'version', label: 'Version', kind: 'text', required: true, maxLength: 20, placeholder: '2.4.1', pattern: { regex: /^\d{1,4}(\.\d{1,4}){0,3}$/, message: 'Version is dotted numbers, e.g. 2.4.1.' } },
    { name: 'title', label: 'Title', kind: 'text', required: true, maxLength: 120 },
    { name: 'notes', label: 'Notes', kind: 'textarea', maxLength: 2000 },
    { name: 'isForceUpdate', label: 'Force the update', kind: 'boolean', help: 'Older versions must update before they can be used.' },
    { name: 'releasedAt', label: 'Released', kind: 'datetime', help: 'Now when left empty.' },
  ],
  defaults: { isForceUpdate: false, notes: '' },
  filters: [
    { field: 'platform', label: 'Platform', options: PLATFORMS },
    { field: 'isForceUpdate', label: 'Update', options: [{ value: true, label: 'Forced' }, { value: false, label: 'Optional' }] },
  ],
  searchPlaceholder: 'Search title or version',
  defaultSorting: { field: 'releasedAt', direction: 'desc' },
  rowClassName: (r) => (r.isForceUpdate ? 'resource-row-warning' : undefined),
  operations: { list: AppUpdateList, create: AppUpdateInsert, update: AppUpdateUpdate, delete: AppUpdateDelete },
};
