import { numeric, timestamp, text } from 'drizzle-orm/pg-core';

/** Money columns: 3 decimals (KD). Computed in fils through domain/money.ts. */
export const money = (name: string) => numeric(name, { precision: 12, scale: 3 }).notNull().default('0');
export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
/** A name in Arabic, shown when a request asks for Arabic (Accept-Language); null: the English one is shown. */
export const arabic = (column: string) => text(column);
