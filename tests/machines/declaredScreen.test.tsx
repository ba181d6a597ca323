import { describe, expect, it } from 'vitest';
import { print } from 'graphql';
import { Tax } from '../../src/console/resources/generated/Tax';
import { Company } from '../../src/console/resources/generated/Company';
import { declaredScreen } from '../../src/console/resources/declared';
import { taxScreen } from '../../src/console/resources/configs/tax';
import { companyScreen } from '../../src/console/resources/configs/companies';

/**
 * A declared resource's screen (src/console/resources/declared.ts): the documents, the fields'
 * rules, the sorting and the history come from the server's declaration (generated at build time);
 * the config names only labels, widths, renderers and the route, and names them by the row's and
 * the declaration's fields, so a misspelt one is a compile error (`tsc` checks the lines below).
 */
describe('declaredScreen', () => {
  it("joins the Tax declaration's half to the config's", () => {
    expect(print(taxScreen.operations.list)).toContain('Tax_GetAllByBrandId');
    expect(Object.keys(taxScreen.operations).sort()).toEqual(['create', 'delete', 'list', 'update']);
    expect(taxScreen.historyResource).toBe('Tax');
    expect(taxScreen.parent).toEqual({ level: 'brand', field: 'brandId' });
    expect(taxScreen.defaultSorting).toEqual({ field: 'name', direction: 'asc' });
    expect(taxScreen.defaults).toEqual({ isActive: true });
    // sortable where the server sorts by the field
    expect(taxScreen.columns.map((c) => [c.field, c.sortable])).toEqual([['name', true], ['percent', true], ['isActive', true]]);
    expect(taxScreen.fields).toEqual([
      { name: 'name', label: 'Name', kind: 'text', required: true, maxLength: 100, min: undefined, max: undefined, createOnly: undefined },
      { name: 'percent', label: 'Percent', kind: 'number', required: true, min: 0, max: 100, maxLength: undefined, createOnly: undefined, help: 'Of the subtotal after discounts, up to 3 decimals.' },
      { name: 'isActive', label: 'Active', kind: 'boolean', required: undefined, min: undefined, max: undefined, maxLength: undefined, createOnly: undefined },
    ]);
  });

  it('leaves out the writes a screen does not offer, and names no parent for rows that place themselves', () => {
    expect(Object.keys(companyScreen.operations).sort()).toEqual(['list', 'update']);
    expect(companyScreen.parent).toBeUndefined();
    expect(companyScreen.columns.every((c) => !c.sortable)).toBe(true);
  });

  it('a misspelt column, field, filter or sorting does not compile', () => {
    const screen = (s: Parameters<typeof declaredScreen<typeof Tax>>[1]) => s;
    const base = { path: '/t', title: 'T', noun: 'tax' };
    // @ts-expect-error: the row has no field "nmae"
    screen({ ...base, columns: [{ field: 'nmae', name: 'Name' }] });
    // @ts-expect-error: the declaration writes no field "rate"
    screen({ ...base, columns: [], fields: [{ name: 'rate', label: 'Rate' }] });
    // @ts-expect-error: the list does not filter by "percent"
    screen({ ...base, columns: [], filters: [{ field: 'percent', label: 'Percent', options: [] }] });
    // @ts-expect-error: the server does not sort by "brandId"
    screen({ ...base, columns: [], defaultSorting: { field: 'brandId', direction: 'asc' } });
    // @ts-expect-error: a renderer reads the row as typed ("percent" is a number)
    screen({ ...base, columns: [{ field: 'percent', name: 'Percent', render: (r) => r.percent.toUpperCase() }] });
    // a computed column has a key and draws itself
    const ok = screen({ ...base, columns: [{ field: 'name', name: 'Name' }, { key: 'rate', name: 'Rate', render: (r) => `${r.percent} %` }] });
    expect(declaredScreen(Tax, ok).columns.map((c) => c.field ?? c.key)).toEqual(['name', 'rate']);
    expect(Company.scope).toEqual({ level: 'company', field: 'id' });
  });
});
