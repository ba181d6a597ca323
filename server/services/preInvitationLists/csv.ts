import { phoneFromText } from '../../../domain/phone';

/** Most rows one upload takes (a brand's invitation campaign is hundreds, not hundreds of thousands). */
export const MAX_UPLOAD_ROWS = 10_000;

export interface BadRow { line: number; text: string; problem: string }
export interface ParsedPhones { phones: string[]; bad: BadRow[]; rows: number }

const HEADER = /phone|mobile|number|tel|هاتف|جوال/i;
const cellsOf = (line: string) => line.split(/[,;\t]/).map((c) => c.trim().replace(/^"(.*)"$/, '$1').trim());

/**
 * The phones of an uploaded CSV (docs/decisions.md "Pre-invitation lists"): one row a phone, in
 * the column headed phone/mobile/number when the first row is such a header, else the first
 * column. Blank lines are skipped; every phone is made E.164 the way the phone input makes it
 * (8 local digits are Kuwait's). Rows that are no phone are reported with their 1-based line.
 * The same phone twice counts once.
 */
export function parsePhoneCsv(content: string): ParsedPhones {
  const lines = content.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  let column = 0;
  let start = 0;
  const first = lines.findIndex((l) => l.trim() !== '');
  if (first >= 0) {
    const cells = cellsOf(lines[first]);
    const headed = cells.findIndex((c) => HEADER.test(c));
    if (headed >= 0 && !cells.some((c) => phoneFromText(c))) {
      column = headed;
      start = first + 1;
    }
  }
  const phones = new Set<string>();
  const bad: BadRow[] = [];
  let rows = 0;
  for (let i = start; i < lines.length; i++) {
    if (lines[i].trim() === '') continue;
    rows++;
    const text = cellsOf(lines[i])[column] ?? '';
    const phone = text ? phoneFromText(text) : null;
    if (phone) phones.add(phone);
    else bad.push({ line: i + 1, text: lines[i].trim().slice(0, 60), problem: text ? 'is not a valid phone number' : 'has no phone number' });
  }
  return { phones: [...phones], bad, rows };
}
