import { Type } from 'typebox';
import { badRequest } from './envelope';

/** A period of time a report covers: [from, to), either end open. */
export interface Period { from?: Date; to?: Date }

/** The query fields of a period; `what` says which moment of a row falls in it ("Orders placed"). */
export const periodFields = (what: string) => ({
  fromDate: Type.Optional(Type.String({ format: 'date-time', description: `${what} from this moment (ISO, inclusive).` })),
  toDate: Type.Optional(Type.String({ format: 'date-time', description: `${what} before this moment (ISO, exclusive).` })),
});

/** The period of a report's query; reversed dates are a 400 before anything is read. */
export function periodOf(query: { fromDate?: string; toDate?: string }): Period {
  const period: Period = {
    from: query.fromDate ? new Date(query.fromDate) : undefined,
    to: query.toDate ? new Date(query.toDate) : undefined,
  };
  if (period.from && period.to && period.from.getTime() >= period.to.getTime()) {
    const message = 'The start date must come before the end date.';
    throw badRequest(message, [{ message, members: ['fromDate', 'toDate'] }]);
  }
  return period;
}
