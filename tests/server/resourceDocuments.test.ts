import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildSchema, parse, validate } from 'graphql';
import { RESOURCES } from '../../server/resources/index';
import { taxResource } from '../../server/services/tax/resource';
import { productSubTypeResource } from '../../server/services/productTypesAndSubtypes/resource';
import { documentsOf, fieldsOf, moduleOf, READS, readDocumentOf, readsModuleOf } from '../../scripts/resourceDocuments';

/**
 * The console's half of every declared resource is generated from the declaration (issue 22):
 * scripts/resourceDocuments.ts, a build step between the gateway and codegen. Every registered
 * declaration gets documents the gateway's schema accepts, and the files the build wrote are the
 * generator's output for the declarations as they are now.
 */
const schema = buildSchema(readFileSync('.mesh/schema.graphql', 'utf8'), { assumeValidSDL: true });

describe('documents and rules generated from the server declarations', () => {
  it.each(RESOURCES.map((r) => [r.declaration.service, r] as const))('%s: valid documents, and the build wrote them', (service, resource) => {
    const docs = documentsOf(resource.declaration, schema, `Check${service}`);
    for (const [kind, text] of Object.entries(docs)) {
      expect(validate(schema, parse(text)).map((e) => `${kind}: ${e.message}`)).toEqual([]);
    }
    expect(Object.keys(docs)).toEqual((['list', 'create', 'update', 'delete'] as const).filter((k) => resource.declaration.methods[k]));
    const file = `src/console/resources/generated/${service.replace(/\W/g, '')}.ts`;
    expect(readFileSync(file, 'utf8'), `${file} is stale: run the build`).toBe(moduleOf(resource.declaration, schema));
  });

  it('a resource mounted under another service (product types) is named by that service, and has no list when it declares none', () => {
    const docs = documentsOf(productSubTypeResource.declaration, schema, 'ResourceProductSubType');
    expect(docs.list).toBeUndefined();
    expect(docs.update).toContain('row: ProductTypesAndSubtypes_UpdateProductSubType(input: $input)');
    expect(docs.delete).toBe('mutation ResourceProductSubTypeDelete($id: Int!) { deleted: ProductTypesAndSubtypes_DeleteProductSubType(productSubTypeId: $id) }');
  });

  it('Tax: the gateway names, the fields rules and defaults of its TypeBox schemas', () => {
    const decl = taxResource.declaration;
    const docs = documentsOf(decl, schema, 'ResourceTax');
    expect(docs.list).toContain('list: Tax_GetAllByBrandId(');
    expect(docs.list).toContain('$brandId: Int');
    expect(docs.create).toBe('mutation ResourceTaxCreate($input: TaxCreateInput_Input!) { row: Tax_Create(input: $input) { id brandId name percent isActive } }');
    expect(docs.delete).toBe('mutation ResourceTaxDelete($id: Int!) { deleted: Tax_Delete(TaxId: $id) }');
    const { fields, defaults } = fieldsOf(decl);
    expect(fields).toEqual({
      brandId: { kind: 'number', min: 1, max: 2147483647, required: true, createOnly: true },
      name: { kind: 'text', maxLength: 100, required: true },
      percent: { kind: 'number', min: 0, max: 100, required: true },
      isActive: { kind: 'boolean' },
    });
    expect(defaults).toEqual({ isActive: true });
  });

  it('reads shown whole (/store\'s tree) select every field the server answers, and the build wrote them', () => {
    for (const [name, roots] of Object.entries(READS)) expect(validate(schema, parse(readDocumentOf(name, roots, schema))).map((e) => e.message)).toEqual([]);
    const tree = readDocumentOf('MenuTree', READS.MenuTree, schema);
    expect(tree).toMatch(/^query ReadMenuTree\(\$brandId: Int!\) \{ tree: Products_GetProductsGroupedByTypeAndSubtype\(brandId: \$brandId\)/);
    // The type's item (its declaration), the sub-type's, and the product fields its declaration flags `tree`.
    expect(tree).toContain('{ id brandId name nameAr isHidden sortOrder availabilityWindows { weekday fromMinute toMinute } subtypes { id typeId name nameAr');
    expect(tree).toContain('products { id name nameAr price isHidden availabilityWindows { weekday fromMinute toMinute } productImage sortOrder available unavailableUntil }');
    expect(readFileSync('src/console/resources/generated/reads.ts', 'utf8'), 'generated/reads.ts is stale: run the build').toBe(readsModuleOf(schema));
  });
});
