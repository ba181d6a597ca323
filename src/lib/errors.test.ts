import { describe, expect, it } from 'vitest';
import { CombinedGraphQLErrors } from '@apollo/client/errors';
import { errorMessage } from './errors';

const gqlError = (abp: object | undefined) =>
  new CombinedGraphQLErrors({ data: null, errors: [{ message: 'x', extensions: abp ? { status: 400, abp } : {} }] });

describe('errorMessage (SPEC.md 8 order)', () => {
  it('prefers the validation details when there are validation errors', () => {
    const e = gqlError({ message: 'Your request is not valid!', details: 'phone: is required', validationErrors: [{ message: 'phone: is required', members: ['phone'] }] });
    expect(errorMessage(e, 'client says')).toBe('phone: is required');
  });
  it('then the server message', () => {
    expect(errorMessage(gqlError({ message: 'The branch is busy', details: null, validationErrors: null }), 'client says')).toBe('The branch is busy');
  });
  it('then the client message', () => {
    expect(errorMessage(gqlError(undefined), 'client says')).toBe('client says');
    expect(errorMessage(new Error('network'), 'client says')).toBe('client says');
  });
  it("else 'Sorry!! Something went wrong('", () => {
    expect(errorMessage(new Error('network'))).toBe('Sorry!! Something went wrong(');
  });
});
