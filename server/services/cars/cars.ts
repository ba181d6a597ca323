import { Type, type Static } from 'typebox';
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { LanguageCode } from '../../../domain/languages';
import { localizedColumn } from '../../http/language';
import { carBrands, carColors, carTypes, customerCars } from '../../db/schema';
import { Obj } from '../../http/envelope';

export const CustomerCar = Obj('CustomerCar', {
  id: Type.Integer(),
  userId: Type.Integer(),
  carBrandId: Type.Integer(),
  carBrandName: Type.String(),
  carTypeId: Type.Integer(),
  carTypeName: Type.String(),
  carColorId: Type.Integer(),
  carColorName: Type.String(),
  plateNumber: Type.String(),
  description: Type.String(),
});
export type CustomerCarDto = Static<typeof CustomerCar>;

/**
 * A user's cars (or one of them), with the dictionary names in `language`. The order keeps the
 * English description (describeCar) that the branch's staff read.
 */
export async function carsOf(db: Db, userId: number, id?: number, language: LanguageCode = 'en'): Promise<CustomerCarDto[]> {
  return db
    .select({
      id: customerCars.id, userId: customerCars.userId,
      carBrandId: customerCars.carBrandId, carBrandName: localizedColumn(language, carBrands.name, carBrands.nameAr),
      carTypeId: customerCars.carTypeId, carTypeName: localizedColumn(language, carTypes.name, carTypes.nameAr),
      carColorId: customerCars.carColorId, carColorName: localizedColumn(language, carColors.name, carColors.nameAr),
      plateNumber: customerCars.plateNumber, description: customerCars.description,
    })
    .from(customerCars)
    .innerJoin(carBrands, eq(carBrands.id, customerCars.carBrandId))
    .innerJoin(carTypes, eq(carTypes.id, customerCars.carTypeId))
    .innerJoin(carColors, eq(carColors.id, customerCars.carColorId))
    .where(and(eq(customerCars.userId, userId), id === undefined ? undefined : eq(customerCars.id, id)))
    .orderBy(asc(customerCars.id));
}

/** How staff recognise a car at the window, e.g. "White Toyota SUV, plate 12345 (roof box)". */
export const describeCar = (c: CustomerCarDto) =>
  `${c.carColorName} ${c.carBrandName} ${c.carTypeName}, plate ${c.plateNumber}${c.description ? ` (${c.description})` : ''}`;
