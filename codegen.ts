import type { CodegenConfig } from '@graphql-codegen/cli';

/** Typed GraphQL operations from the gateway's schema (.mesh/schema.graphql, written by `mesh build`). */
const config: CodegenConfig = {
  schema: '.mesh/schema.graphql',
  documents: ['src/**/*.{ts,tsx,graphql}', '!src/gql/**/*'],
  ignoreNoDocuments: true,
  generates: {
    'src/gql/': {
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: { defaultScalarType: 'unknown', scalars: { PositiveInt: 'number', NonNegativeInt: 'number', ObjMap: 'Record<string, unknown>' }, enumsAsTypes: true, useTypeImports: true },
    },
  },
};
export default config;
