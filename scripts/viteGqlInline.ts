import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'graphql';
import type { Plugin } from 'vite';

/**
 * Puts each `graphql(`…`)` document into the module that uses it, as the parsed document codegen
 * wrote to src/gql/graphql.ts (fragments included). Without it, every document of the app sits in
 * src/gql/graphql.ts, one module that the entry chunk imports, so a shopper downloaded the console's
 * queries too (issue 12's first-load budget). Types are unchanged: TypeScript still reads the call
 * through src/gql/gql.ts. Only production builds use it; tests run the calls as written.
 */
export function gqlInline(gqlDir = path.resolve('src/gql')): Plugin {
  let documents: Map<string, string> | null = null;
  const documentsOf = () => {
    if (documents) return documents;
    documents = new Map();
    const source = readFileSync(path.join(gqlDir, 'graphql.ts'), 'utf8');
    // keyed by the name the document gives its first definition (codegen's variable names change its case)
    for (const m of source.matchAll(/^export const \w+ = (\{.*\}) as unknown as DocumentNode/gm)) {
      const name = (JSON.parse(m[1]) as { definitions: { name?: { value: string } }[] }).definitions[0]?.name?.value;
      if (name) documents.set(name, m[1]);
    }
    return documents;
  };
  return {
    name: 'brewops-gql-inline',
    enforce: 'pre',
    apply: 'build',
    buildStart() { documents = null; },
    transform(code, id) {
      if (!/\.(ts|tsx)$/.test(id) || id.startsWith(gqlDir) || !code.includes('graphql(`')) return null;
      let changed = false;
      const out = code.replace(/\bgraphql\(\s*`((?:[^`$]|\$(?!\{))*)`\s*\)/g, (call, text: string) => {
        const [first] = parse(text).definitions;
        const name = 'name' in first ? first.name?.value : undefined;
        const doc = name && documentsOf().get(name);
        if (!doc) throw new Error(`${id}: no generated document for ${name ?? 'an unnamed document'}; run the build's codegen step`);
        changed = true;
        return `JSON.parse(${JSON.stringify(doc)})`;
      });
      return changed ? { code: out, map: null } : null;
    },
  };
}
