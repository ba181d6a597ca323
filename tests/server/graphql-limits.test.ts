import { describe, expect, it } from 'vitest';
import { buildSchema, getIntrospectionQuery, parse, validate } from 'graphql';
import { GRAPHQL_LIMITS, operationLimits } from '../../mesh/plugins';

/** The gateway's operation limits as a validation rule, on a small schema that nests without end. */
const schema = buildSchema('type Node { id: Int, child: Node } type Query { node: Node, login(name: String): Int }');
const errorsOf = (query: string) => validate(schema, parse(query), [operationLimits]).map((e) => e.message);
const nested = (depth: number) => `{ node ${'{ child '.repeat(depth - 2)}{ id }${' }'.repeat(depth - 2)} }`;

describe('GraphQL operation limits', () => {
  it('let the standard introspection query through (GraphiQL and codegen send it)', () => {
    expect(errorsOf(getIntrospectionQuery())).toEqual([]);
  });

  it('bound introspection depth on its own', () => {
    const deep = `{ __schema { types { ${'fields { type { '.repeat(8)}name${' } }'.repeat(8)} } } }`;
    expect(errorsOf(deep).join()).toMatch(/introspection depth/);
  });

  it(`refuse an ordinary operation deeper than ${GRAPHQL_LIMITS.depth}`, () => {
    expect(errorsOf(nested(GRAPHQL_LIMITS.depth))).toEqual([]);
    expect(errorsOf(nested(GRAPHQL_LIMITS.depth + 1)).join()).toMatch(/depth of 13/);
  });

  it('refuse more aliased root fields than the cap', () => {
    const logins = Array.from({ length: GRAPHQL_LIMITS.rootFields + 1 }, (_, i) => `a${i}: login(name: "x")`).join(' ');
    expect(errorsOf(`{ ${logins} }`).join()).toMatch(/root fields/);
  });
});
