import type { Plugin } from '@envelop/core';
import { GraphQLError, Kind, type FragmentDefinitionNode, type SelectionSetNode, type ValidationRule } from 'graphql';

/**
 * Keeps gateway errors to what a client may see: the message and our `code`, `status`
 * and `abp` extensions. Anything else (upstream URLs, request headers, stack traces) is dropped.
 */
export const sanitizeErrors: Plugin = {
  onExecute() {
    return {
      onExecuteDone({ result, setResult }) {
        if (!result || !('errors' in result) || !result.errors?.length) return;
        setResult({ ...result, errors: result.errors.map(clean) } as never);
      },
    };
  },
};

function clean(error: GraphQLError): GraphQLError {
  const original = (error.originalError as GraphQLError | undefined) ?? error;
  const ext = (original.extensions ?? error.extensions ?? {}) as Record<string, unknown>;
  const known = typeof ext.status === 'number' && ext.abp;
  return new GraphQLError(known ? original.message : error.message.replace(/https?:\/\/\S+/g, '[upstream]'), {
    nodes: error.nodes,
    path: error.path,
    extensions: known
      ? { code: ext.code, status: ext.status, abp: ext.abp }
      : { code: ext.code ?? 'INTERNAL_SERVER_ERROR' },
  });
}

/**
 * What one operation may ask for (docs/decisions.md "Hardening: accounts and limits"). Each root
 * field is one REST call, so aliases of a root field (101 logins in one request) are the cost that
 * matters; depth and the number of fields (fragments expanded) bound the rest. The app's own
 * operations stay well inside (tests/server/hardening-auth.test.ts checks every one of them).
 */
export const GRAPHQL_LIMITS = { rootFields: 10, aliases: 30, depth: 12, fields: 500, introspectionDepth: 16 };

/**
 * Introspection (`__schema`, `__type`) runs in the gateway, never against REST, and the standard
 * query GraphiQL and codegen send nests type references 13 deep: it gets its own depth bound.
 */
interface Measure { rootFields: number; aliases: number; depth: number; introspectionDepth: number; fields: number; visits: number }

/** A validation rule, so an operation over a limit is refused before any of it runs. */
export const operationLimits: ValidationRule = (context) => {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of context.getDocument().definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  return {
    OperationDefinition(operation) {
      const m: Measure = { rootFields: 0, aliases: 0, depth: 0, introspectionDepth: 0, fields: 0, visits: 0 };
      walk(operation.selectionSet, 1, m, fragments, new Set(), false);
      const over = [
        m.rootFields > GRAPHQL_LIMITS.rootFields && `${m.rootFields} root fields, aliases included (at most ${GRAPHQL_LIMITS.rootFields})`,
        m.aliases > GRAPHQL_LIMITS.aliases && `${m.aliases} aliases (at most ${GRAPHQL_LIMITS.aliases})`,
        m.depth > GRAPHQL_LIMITS.depth && `a depth of ${m.depth} (at most ${GRAPHQL_LIMITS.depth})`,
        m.introspectionDepth > GRAPHQL_LIMITS.introspectionDepth && `an introspection depth of ${m.introspectionDepth} (at most ${GRAPHQL_LIMITS.introspectionDepth})`,
        m.fields > GRAPHQL_LIMITS.fields && `more than ${GRAPHQL_LIMITS.fields} fields`,
      ].filter(Boolean);
      if (over.length) {
        context.reportError(new GraphQLError(`The operation is too complex: ${over.join(', ')}.`, {
          nodes: [operation], extensions: { code: 'QUERY_TOO_COMPLEX' },
        }));
      }
    },
  };
};

/** Counts an operation's selections with its fragments expanded; stops early once it is over a limit. */
function walk(set: SelectionSetNode, depth: number, m: Measure, fragments: Map<string, FragmentDefinitionNode>, inFragments: Set<string>, introspection: boolean) {
  for (const selection of set.selections) {
    // Bounded work whatever the document: nested fragments can expand exponentially.
    if (++m.visits > GRAPHQL_LIMITS.fields * 4 || m.fields > GRAPHQL_LIMITS.fields) { m.fields = Math.max(m.fields, GRAPHQL_LIMITS.fields + 1); return; }
    if (selection.kind === Kind.FIELD) {
      m.fields++;
      if (depth === 1) m.rootFields++;
      if (selection.alias) m.aliases++;
      const inIntrospection = introspection || (depth === 1 && selection.name.value.startsWith('__'));
      if (inIntrospection) m.introspectionDepth = Math.max(m.introspectionDepth, depth);
      else m.depth = Math.max(m.depth, depth);
      if (selection.selectionSet) walk(selection.selectionSet, depth + 1, m, fragments, inFragments, inIntrospection);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      walk(selection.selectionSet, depth, m, fragments, inFragments, introspection);
    } else {
      const fragment = fragments.get(selection.name.value);
      // A fragment that spreads itself is refused by graphql's own rules; here it must not loop.
      if (!fragment || inFragments.has(fragment.name.value)) continue;
      walk(fragment.selectionSet, depth, m, fragments, new Set(inFragments).add(fragment.name.value), introspection);
    }
  }
}

export const operationLimitsPlugin: Plugin = {
  onValidate({ addValidationRule }) {
    addValidationRule(operationLimits);
  },
};

export default [operationLimitsPlugin, sanitizeErrors];
