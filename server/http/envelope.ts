import { Type, type TSchema, type TProperties } from 'typebox';
import { failEnvelope, okEnvelope, type AbpValidationError } from '../../domain/errorEnvelope';

/** An object schema with a title, so the gateway's type names read well. */
export const Obj = <P extends TProperties>(title: string, properties: P, opts: { additionalProperties?: boolean } = {}) =>
  Type.Object(properties, { title, ...opts });

export const ValidationErrorInfo = Obj('ValidationErrorInfo', {
  message: Type.String(),
  members: Type.Array(Type.String()),
});

export const ErrorInfo = Obj('ErrorInfo', {
  code: Type.Integer(),
  message: Type.String(),
  details: Type.Union([Type.String(), Type.Null()]),
  validationErrors: Type.Union([Type.Array(ValidationErrorInfo), Type.Null()]),
});

/** The ABP envelope every answer is wrapped in (domain/errorEnvelope.ts), as a schema for the OpenAPI document. */
export const envelope = (result: TSchema, title: string) =>
  Obj(`${title}Envelope`, {
    result: Type.Union([result, Type.Null()]),
    success: Type.Boolean(),
    error: Type.Union([ErrorInfo, Type.Null()]),
    unAuthorizedRequest: Type.Boolean(),
    targetUrl: Type.Union([Type.String(), Type.Null()]),
    __abp: Type.Boolean(),
  });

export type ValidationError = AbpValidationError;

export class ApiError extends Error {
  /** Seconds until a refused caller may try again (429): sent as the Retry-After header. */
  retryAfterSeconds?: number;
  /** The Arabic names of the English names the message carries (see `naming`). */
  arabicNames?: Record<string, string>;
  constructor(
    readonly status: number,
    message: string,
    readonly validationErrors: ValidationError[] | null = null,
    readonly details: string | null = null,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, validationErrors: ValidationError[] | null = null) =>
  new ApiError(400, message, validationErrors, validationErrors?.map((v) => v.message).join('\n') ?? null);
/** Something a message names (a product, an option, a group): its English name and its Arabic one if any. */
export interface Named { name: string; nameAr?: string | null }

/**
 * A refusal that names menu items keeps their Arabic names, so the error handler writes it in the
 * request's language with the names in that language too ('كابتشينو غير متوفر…', not 'Cappuccino غير متوفر…').
 */
export function naming(error: ApiError, ...named: Named[]): ApiError {
  error.arabicNames = Object.fromEntries(named.flatMap((n) => (n.nameAr ? [[n.name, n.nameAr]] : [])));
  return error;
}

export const unauthorized = (message = 'Current user did not login to the application!') => new ApiError(401, message);
export const forbidden = (message = 'Required permissions are not granted.') => new ApiError(403, message);
/** A 404 in plain English, naming what was not found: 'Order not found.' (issue 23: was 'There is no such an entity. Order'). */
export const notFound = (what?: string) => new ApiError(404, what ? `${what} not found.` : 'Not found.');
export const conflict = (message: string) => new ApiError(409, message);
export const unprocessable = (message: string) => new ApiError(422, message);
export const tooManyRequests = (message: string, retryAfterSeconds?: number) =>
  Object.assign(new ApiError(429, message), { retryAfterSeconds });

export const ok = okEnvelope;

export const fail = (err: ApiError) => failEnvelope(err.status, err);
