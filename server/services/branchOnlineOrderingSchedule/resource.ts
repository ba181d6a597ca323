import { Type } from 'typebox';
import { and, eq, ne } from 'drizzle-orm';
import { branchSchedules } from '../../db/schema';
import { badRequest, Obj } from '../../http/envelope';
import { defineResource } from '../../resources/resource';
import { ClockTime } from '../branch/resource';

const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });
const Weekday = Type.Integer({ minimum: 0, maximum: 6, description: '0 = Sunday … 6 = Saturday.' });

/**
 * One weekday on which a branch takes online orders, and its hours (domain/schedule.ts: Kuwait
 * time; a close before the open runs past midnight; equal times or 00:00–23:59 mean all day).
 * A weekday without a row is closed, once the branch has any row; a branch without rows takes
 * orders during its open/close times every day.
 */
export const BranchOnlineOrderingSchedule = Obj('BranchOnlineOrderingSchedule', {
  id: Type.Integer(),
  branchId: Type.Integer(),
  dayOfWeek: Type.Integer(),
  openTime: Type.String(),
  closeTime: Type.String(),
});

/**
 * SPEC.md 7 Configuration: POST CreateBranchOnlineOrderingcShedule (the legacy spelling), POST
 * EditBranchOnlineOrderingSchedule, GET GetBranchOnlineOrderingSchedule (branchId), DELETE
 * DeleteBranchOnlineOrderingSchedule (Id, BranchId). Saving an order reads these rows (planOrder.ts).
 */
export const branchScheduleResource = defineResource({
  service: 'BranchOnlineOrderingSchedule',
  table: branchSchedules,
  item: BranchOnlineOrderingSchedule,
  create: Type.Object({ branchId: Id, dayOfWeek: Weekday, openTime: ClockTime, closeTime: ClockTime }),
  update: Type.Object({ id: Id, dayOfWeek: Type.Optional(Weekday), openTime: Type.Optional(ClockTime), closeTime: Type.Optional(ClockTime) }),
  scope: { level: 'branch', field: 'branchId' },
  can: { view: 'branches.manage', create: 'branches.manage', update: 'branches.manage', delete: 'branches.manage' },
  methods: {
    list: 'GetBranchOnlineOrderingSchedule',
    create: 'CreateBranchOnlineOrderingcShedule',
    update: 'POST EditBranchOnlineOrderingSchedule',
    delete: 'DeleteBranchOnlineOrderingSchedule?Id&BranchId',
  },
  sortable: ['dayOfWeek', 'openTime', 'id'],
  defaultSorting: 'dayOfWeek asc',
  filters: { branchId: 'equals', dayOfWeek: 'equals' },
  label: 'Schedule day',
  async check(tx, next) {
    const taken = await tx.select({ id: branchSchedules.id }).from(branchSchedules).where(and(
      eq(branchSchedules.branchId, Number(next.branchId)), eq(branchSchedules.dayOfWeek, Number(next.dayOfWeek)),
      next.id === undefined ? undefined : ne(branchSchedules.id, Number(next.id)),
    ));
    if (taken.length) {
      const message = 'This branch already has hours for that weekday: change them instead.';
      throw badRequest(message, [{ message, members: ['dayOfWeek'] }]);
    }
  },
});
