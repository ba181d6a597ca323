import './branches.css';
import { Callout } from '@blueprintjs/core';
import { useQuery } from '@apollo/client/react';
import { useParams } from 'wouter';
import { graphql } from '../../../gql';
import { ResourceScreen } from '../ResourceScreen';
import { BranchOnlineOrderingSchedule } from '../generated/BranchOnlineOrderingSchedule';
import { declaredScreen } from '../declared';
import { CLOCK_TIME, WEEKDAYS, WeekdaySelect } from './brandSettingsDictionaries';

const BranchName = graphql(`query BranchName($branchId: Int!) { branch: Branch_GetById(branchId: $branchId) { id name openTime closeTime } }`);

/** How a day's hours read (domain/schedule.ts: equal times or 00:00–23:59 are all day; a close before the open runs past midnight). */
function hoursOf(open: string, close: string) {
  if (open === close || (open === '00:00' && close === '23:59')) return 'All day';
  return close < open ? `${open}–${close} (next day)` : `${open}–${close}`;
}

/** /branch/schedule/:id — the weekdays a branch takes online orders, and their hours. */
export const branchScheduleScreen = declaredScreen(BranchOnlineOrderingSchedule, {
  path: '/branch/schedule/:id',
  title: 'Branch Schedule',
  noun: 'day',
  fixedFilter: (params) => ({ branchId: Number(params.id) }),
  columns: [
    { field: 'dayOfWeek', name: 'Weekday', width: 140, render: (r) => WEEKDAYS[Number(r.dayOfWeek)] ?? String(r.dayOfWeek) },
    { field: 'openTime', name: 'Opens', width: 90 },
    { field: 'closeTime', name: 'Closes', width: 90 },
    { key: 'hours', name: 'Takes online orders', width: 200, render: (r) => hoursOf(String(r.openTime), String(r.closeTime)) },
  ],
  fields: [
    { name: 'dayOfWeek', label: 'Weekday', Input: WeekdaySelect },
    { name: 'openTime', label: 'Opens at', placeholder: 'HH:MM', patternMessage: CLOCK_TIME.message },
    { name: 'closeTime', label: 'Closes at', placeholder: 'HH:MM', patternMessage: CLOCK_TIME.message, help: 'Kuwait time. Before the opening: past midnight. 00:00–23:59: all day.' },
  ],
  defaults: { openTime: '07:00', closeTime: '23:00' },
  // the branch is named in the note above the list
  parent: null,
});

/** The schedule under its branch's name, with what a missing weekday means. */
export default function BranchSchedulePage() {
  const { id } = useParams<{ id: string }>();
  const branch = useQuery(BranchName, { variables: { branchId: Number(id) }, skip: !(Number(id) > 0) }).data?.branch;
  return (
    <ResourceScreen
      config={branchScheduleScreen}
      urlKey=""
      toolbar={(
        <Callout className="branch-schedule-note" compact>
          {branch ? <strong>{branch.name}. </strong> : null}
          Weekdays without a row are closed for online orders. Without any row, the branch takes online orders
          during its opening hours{branch ? ` (${branch.openTime}–${branch.closeTime})` : ''} every day.
        </Callout>
      )}
    />
  );
}
