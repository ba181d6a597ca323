import * as t from '../../server/db/schema';
import type { Db } from '../../server/db/client';
import type { TestServer } from './server';

/** Shared by the notification tests (tests/server/notifications*.test.ts). */
export const NOTIFICATIONS_API = '/api/services/app/Notifications';

let seq = 0;
/** n new customers (with a wallet at brandId when given); their ids. */
export async function newCustomers(s: TestServer, n: number, brandId?: number) {
  const rows = await (s.database.db as unknown as Db).insert(t.users).values(Array.from({ length: n }, () => {
    seq++;
    return { userName: `notify${seq}`, fullName: `Notify Customer ${seq}`, role: 'CUSTOMER', phoneNumber: `+9656${String(seq).padStart(7, '0')}`, passwordHash: '!' };
  })).returning({ id: t.users.id });
  if (brandId) await (s.database.db as unknown as Db).insert(t.customerWallets).values(rows.map((r) => ({ userId: r.id, brandId })));
  return rows.map((r) => r.id);
}
