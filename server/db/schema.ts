/**
 * The database's tables, one file per area under ./schema. Drizzle-kit and every query import
 * them from here.
 */
export * from './schema/organisation';
export * from './schema/users';
export * from './schema/menu';
export * from './schema/brandConfig';
export * from './schema/customers';
export * from './schema/orders';
export * from './schema/statistics';
export * from './schema/payments';
export * from './schema/administration';
export * from './schema/notifications';
export * from './schema/printing';
