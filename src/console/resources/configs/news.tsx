import './org.css';
import { Tag } from '@blueprintjs/core';
import { imageInput } from '../ImageInput';
import { BrandAdvertisements } from '../generated/BrandAdvertisements';
import { declaredScreen, type RowOf } from '../declared';
import { BrandName, BrandSelect } from './brandSettingsDictionaries';
import { dateTimeText } from '../../../../domain/time';

type News = RowOf<typeof BrandAdvertisements>;

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
export const newsScreen = declaredScreen(BrandAdvertisements, {
  path: '/news',
  title: 'News',
  noun: 'advertisement',
  columns: [
    { field: 'imageUrl', name: 'Image', width: 90, render: (r) => (r.imageUrl ? <img className="org-logo" src={String(r.imageUrl)} alt="" /> : '—') },
    { field: 'title', name: 'Title', width: 240 },
    { field: 'brandId', name: 'Brand', width: 150, render: (r) => <BrandName id={r.brandId} /> },
    { field: 'startDate', name: 'From', width: 170, render: (r) => when(r.startDate) },
    { field: 'endDate', name: 'Until', width: 170, render: (r) => when(r.endDate) },
    { field: 'isShown', name: 'State', width: 120, render: (r) => { const s = stateOf(r); return <Tag intent={s.intent} minimal={!s.intent}>{s.label}</Tag>; } },
  ],
  fields: [
    { name: 'brandId', label: 'Brand', Input: BrandSelect },
    { name: 'imageUrl', label: 'Image', Input: imageInput('UploadBrandAdvertisementImage') },
    { name: 'title', label: 'Title' },
    { name: 'text', label: 'Text', kind: 'textarea' },
    { name: 'startDate', label: 'From' },
    { name: 'endDate', label: 'Until', help: 'The shop shows it until this moment.' },
    { name: 'isShown', label: 'Shown in the shop', help: 'Hidden news stays here but leaves the shop at once.' },
  ],
  defaults: { isShown: true, text: '' },
  filters: [
    { field: 'isShown', label: 'State', options: [{ value: true, label: 'Shown' }, { value: false, label: 'Hidden' }] },
  ],
  searchPlaceholder: 'Search title or text',
});
