import { expect } from 'vitest';
import type { createFetchApi } from './fetchApi';

const SCHEDULE = '/api/services/app/BranchOnlineOrderingSchedule';

/** A branch takes online orders all day, every day (its schedule replaced), so only the menu's hours and the slots decide. */
export async function openAllDay(api: ReturnType<typeof createFetchApi>, token: string, branchId: number) {
  const ok = async (call: Promise<{ status: number; body: any }>) => {
    const res = await call;
    expect(res.status, JSON.stringify(res.body.error)).toBe(200);
    return res.body.result;
  };
  for (const row of (await ok(api.get(`${SCHEDULE}/GetBranchOnlineOrderingSchedule`, { token, query: { branchId } }))).data) {
    await ok(api.delete(`${SCHEDULE}/DeleteBranchOnlineOrderingSchedule`, { token, query: { Id: row.id, BranchId: branchId } }));
  }
  for (let dayOfWeek = 0; dayOfWeek < 7; dayOfWeek += 1) {
    await ok(api.post(`${SCHEDULE}/CreateBranchOnlineOrderingcShedule`, { token, body: { branchId, dayOfWeek, openTime: '00:00', closeTime: '23:59' } }));
  }
}
