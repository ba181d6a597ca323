import type { Plugin } from '@envelop/core';
import { GraphQLError } from 'graphql';

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

export default [sanitizeErrors];
