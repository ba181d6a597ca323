import { Type } from 'typebox';

/** ABP paging: SkipCount and MaxResultCount, capped so no call reads an unbounded page. */
export const MAX_PAGE = 100;
export const pagingFields = {
  SkipCount: Type.Integer({ minimum: 0, default: 0 }),
  MaxResultCount: Type.Integer({ minimum: 1, default: 10, description: `Capped at ${MAX_PAGE}.` }),
};
export const pageOf = (q: { SkipCount: number; MaxResultCount: number }) => ({ offset: q.SkipCount, limit: Math.min(q.MaxResultCount, MAX_PAGE) });
