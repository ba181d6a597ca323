import { Type } from 'typebox';
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { carBrands, carColors, carTypes, customerCars } from '../../db/schema';
import { badRequest, forbidden, Obj, type ValidationError } from '../../http/envelope';
import { route, service } from '../../http/routes';
import type { AppContext } from '../../http/context';
import { carsOf, CustomerCar } from './cars';
import { localizedColumn, requestLanguage } from '../../http/language';
import { CAR_TEXT } from '../../../domain/constants';
import { normalisePlate } from '../../../domain/digits';

export const CarDictionaryItem = Obj('CarDictionaryItem', { id: Type.Integer(), name: Type.String() });

const dictionary = (name: string, table: typeof carBrands | typeof carTypes | typeof carColors) => route({
  method: 'GET',
  name,
  access: 'public',
  result: Type.Array(CarDictionaryItem),
  handler: ({ ctx, req }) => ctx.db.select({ id: table.id, name: localizedColumn(requestLanguage(req.headers), table.name, table.nameAr) }).from(table).orderBy(asc(table.id)),
});

/**
 * Car service: the car dictionaries and the caller's own cars. The guest account is shared by
 * every guest, so it keeps no cars: its list is empty, and a guest describes the car in the
 * order's carDetails instead.
 */
export function registerShopCars(app: FastifyInstance, ctx: AppContext) {
  service(app, ctx, 'Cars', [
    dictionary('GetCarBrands', carBrands),
    dictionary('GetCarTypes', carTypes),
    dictionary('GetCarColors', carColors),
    route({
      method: 'GET',
      name: 'GetCustomerCars',
      access: 'customer',
      summary: "The caller's own cars.",
      result: Type.Array(CustomerCar),
      handler: async ({ caller, ctx, req }) => (caller!.isGuest ? [] : carsOf(ctx.db, caller!.id, undefined, requestLanguage(req.headers))),
    }),
    route({
      method: 'POST',
      name: 'AddCustomerCar',
      access: 'customer',
      summary: 'Adds a car to the caller. The car is sent as query parameters. A plate is saved with ASCII digits ("٢٣/٤٥٦٧٨" is "23/45678"); '
        + "a plate the caller already has is that car, updated with what is sent (one car per plate).",
      query: Obj('AddCustomerCarQuery', {
        carBrandId: Type.Integer(),
        carColorId: Type.Integer(),
        carTypeId: Type.Integer(),
        plateNumber: Type.String({ maxLength: 20 }),
        description: Type.Optional(Type.String({ maxLength: 200 })),
      }),
      result: CustomerCar,
      async handler({ query, caller, ctx, req }) {
        if (caller!.isGuest) throw forbidden('Please log in to save a car.');
        const [brand] = await ctx.db.select({ id: carBrands.id }).from(carBrands).where(eq(carBrands.id, query.carBrandId));
        const [type] = await ctx.db.select({ id: carTypes.id }).from(carTypes).where(eq(carTypes.id, query.carTypeId));
        const [color] = await ctx.db.select({ id: carColors.id }).from(carColors).where(eq(carColors.id, query.carColorId));
        const plateNumber = normalisePlate(query.plateNumber);
        const errors: ValidationError[] = [
          ...(!brand ? [{ message: CAR_TEXT.brand, members: ['carBrandId'] }] : []),
          ...(!type ? [{ message: CAR_TEXT.type, members: ['carTypeId'] }] : []),
          ...(!color ? [{ message: CAR_TEXT.color, members: ['carColorId'] }] : []),
          ...(!plateNumber ? [{ message: CAR_TEXT.plate, members: ['plateNumber'] }] : []),
        ];
        if (errors.length) throw badRequest(errors[0].message, errors);
        const details = { carBrandId: query.carBrandId, carTypeId: query.carTypeId, carColorId: query.carColorId, description: query.description?.trim() ?? '' };
        const [row] = await ctx.db.insert(customerCars).values({ userId: caller!.id, plateNumber, ...details })
          .onConflictDoUpdate({ target: [customerCars.userId, customerCars.plateNumber], set: details })
          .returning({ id: customerCars.id });
        return (await carsOf(ctx.db, caller!.id, row.id, requestLanguage(req.headers)))[0];
      },
    }),
  ]);
}
