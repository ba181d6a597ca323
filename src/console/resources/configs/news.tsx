import './org.css';
import { Tag } from '@blueprintjs/core';
import { graphql } from '../../../gql';
import { imageInput } from '../ImageInput';
import type { ResourceConfig } from '../types';
import { BrandName, BrandSelect } from './brandSettingsDictionaries';
import { dateTimeText } from '../../../../domain/time';

const NewsList = graphql(`
  query BrandAdvertisementList($SkipCount: Int!, $MaxResultCount: Int!, $Sorting: String, $Search: String, $id: Int, $brandId: Int, $isShown: Boolean) {
    list: BrandAdvertisements_GetAll(SkipCount: $SkipCount, MaxResultCount: $MaxResultCount, Sorting: $Sorting, Search: $Search, id: $id, brandId: $brandId, isShown: $isShown) {
      totalCount data { id brandId title text imageUrl startDate endDate isShown createdAt }
    }
  }
`);
const NewsCreate = graphql(`mutation BrandAdvertisementCreate($input: BrandAdvertisementCreateInput_Input!) { row: BrandAdvertisements_CreateBrandAdvertisement(input: $input) { id brandId title text imageUrl startDate endDate isShown createdAt } }`);
const NewsUpdate = graphql(`mutation BrandAdvertisementUpdate($input: BrandAdvertisementUpdateInput_Input!) { row: BrandAdvertisements_UpdateBrandAdvertisement(input: $input) { id brandId title text imageUrl startDate endDate isShown createdAt } }`);

type News = { id: number; brandId?: unknown; title?: unknown; imageUrl?: unknown; startDate?: unknown; endDate?: unknown; isShown?: unknown };

/** Whether the shop's home shows it now: shown, and now within its dates (as the server decides). */
function stateOf(r: News): { label: string; intent?: 'success' | 'warning' } {
  if (!r.isShown) return { label: 'Hidden' };
  const now = Date.now();
  if (new Date(String(r.startDate)).getTime() > now) return { label: 'Scheduled', intent: 'warning' };
  if (new Date(String(r.endDate)).getTime() <= now) return { label: 'Ended' };
  return { label: 'In the shop', intent: 'success' };
}

const when = (v: unknown) => dateTimeText(String(v));

/**
 * /news — a brand's advertisements (SPEC.md 2.2, 7 News): image, title, text, dates and a
 * shown/hidden switch. The shop's home shows a brand's shown ones within their dates. There is
 * no delete in the legacy calls: hiding takes one off the shop and keeps its history.
 */
export const newsScreen: ResourceConfig<News> = {
  path: '/news',
  title: 'News',
  noun: 'advertisement',
  historyResource: 'BrandAdvertisements',
  columns: [
    { field: 'imageUrl', name: 'Image', width: 90, render: (r) => (r.imageUrl ? <img className="org-logo" src={String(r.imageUrl)} alt="" /> : '—') },
    { field: 'title', name: 'Title', width: 240, sortable: true },
    { field: 'brandId', name: 'Brand', width: 150, render: (r) => <BrandName id={r.brandId} /> },
    { field: 'startDate', name: 'From', width: 170, sortable: true, render: (r) => when(r.startDate) },
    { field: 'endDate', name: 'Until', width: 170, sortable: true, render: (r) => when(r.endDate) },
    { field: 'isShown', name: 'State', width: 120, sortable: true, render: (r) => { const s = stateOf(r); return <Tag intent={s.intent} minimal={!s.intent}>{s.label}</Tag>; } },
  ],
  fields: [
    { name: 'brandId', label: 'Brand', kind: 'number', required: true, createOnly: true, Input: BrandSelect },
    { name: 'imageUrl', label: 'Image', kind: 'text', required: true, Input: imageInput('UploadBrandAdvertisementImage') },
    { name: 'title', label: 'Title', kind: 'text', required: true, maxLength: 120 },
    { name: 'text', label: 'Text', kind: 'textarea', maxLength: 2000 },
    { name: 'startDate', label: 'From', kind: 'datetime', required: true },
    { name: 'endDate', label: 'Until', kind: 'datetime', required: true, help: 'The shop shows it until this moment.' },
    { name: 'isShown', label: 'Shown in the shop', kind: 'boolean', help: 'Hidden news stays here but leaves the shop at once.' },
  ],
  defaults: { isShown: true, text: '' },
  filters: [
    { field: 'isShown', label: 'State', options: [{ value: true, label: 'Shown' }, { value: false, label: 'Hidden' }] },
  ],
  searchPlaceholder: 'Search title or text',
  defaultSorting: { field: 'startDate', direction: 'desc' },
  operations: { list: NewsList, create: NewsCreate, update: NewsUpdate },
};
