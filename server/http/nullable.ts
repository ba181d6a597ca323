import { Type, type Static, type TSchema } from 'typebox';

/**
 * A request field that may be null. Not `Type.Union([T, Type.Null()])`: with the server's
 * `coerceTypes`, ajv coerces a null into the union's first branch (null → 0, '' or false), so
 * a client's null would arrive as 0. OpenAPI 3.0's `nullable` keeps null as null in ajv, and the
 * gateway reads it as an optional field.
 */
export const Nullable = <T extends TSchema>(schema: T) => Type.Unsafe<Static<T> | null>({ ...schema, nullable: true });
