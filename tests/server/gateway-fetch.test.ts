import { describe, expect, it } from 'vitest';
import { successResult } from '../../mesh/fetch';
import { ApiError, fail, ok } from '../../server/http/envelope';

// The gateway cuts a success envelope's `result` out as text (mesh/fetch.ts) instead of parsing
// the envelope and writing the result again: the cut must be exactly the result, and anything
// that is not a success envelope in that form must be left to the full parse.
describe('gateway: the result of a success envelope, cut as text', () => {
  const results: unknown[] = [
    [{ id: 7, name: 'Mango Coffee', branches: [{ id: 1, name: 'Salmiya' }] }],
    { a: 'text with ,"success":true,"error":null,"unAuthorizedRequest":false,"targetUrl":null,"__abp":true} inside' },
    'a string', 0, true, [], {}, null,
  ];
  for (const result of results) {
    it(`gives back ${JSON.stringify(result).slice(0, 40)}`, () => {
      const cut = successResult(JSON.stringify(ok(result)));
      expect(cut).not.toBeNull();
      expect(JSON.parse(cut!)).toEqual(result);
    });
  }
  it('leaves failures and other bodies to the full parse', () => {
    expect(successResult(JSON.stringify(fail(new ApiError(400, 'Your request is not valid!'))))).toBeNull();
    expect(successResult(JSON.stringify(fail(new ApiError(401, 'Current user did not login to the application!'))))).toBeNull();
    expect(successResult('')).toBeNull();
    expect(successResult('{"result":1}')).toBeNull();
    expect(successResult('{"result":,"success":true,"error":null,"unAuthorizedRequest":false,"targetUrl":null,"__abp":true}')).toBeNull();
  });
});
