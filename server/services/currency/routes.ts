import { Type } from 'typebox';
import { asc } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { currencies } from '../../db/schema';
import { Obj } from '../../http/envelope';
import { route, service } from '../../http/routes';
import type { AppContext } from '../../http/context';

export const Currency = Obj('Currency', {
  id: Type.Integer(),
  code: Type.String(),
  name: Type.String(),
  decimals: Type.Integer({ description: 'Digits after the decimal point of its prices (KD: 3).' }),
});

/** SPEC.md 7 Brand: Currency/GetCurrenciesDictionary, the currencies a brand can price in (SPEC.md 9: stored per brand). */
export function registerCurrency(app: FastifyInstance, ctx: AppContext) {
  service(app, ctx, 'Currency', [
    route({
      method: 'GET', name: 'GetCurrenciesDictionary', access: 'brands.view',
      summary: 'Every currency, by code.',
      result: Type.Array(Currency),
      handler: ({ ctx }) => ctx.db.select().from(currencies).orderBy(asc(currencies.code)),
    }),
  ]);
}
