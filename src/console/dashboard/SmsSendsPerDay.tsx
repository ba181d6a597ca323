import { useQuery } from '@apollo/client/react';
import { Callout, HTMLTable, Spinner } from '@blueprintjs/core';
import { graphql } from '../../gql';
import { Chart, ChartCard } from '../charts/Chart';
import { errorMessage } from '../../lib/errors';
import { smsCostText } from './smsCost';

/** The days the card covers (Statistic/GetSmsSendsPerDay's default). */
const DAYS = 30;

const SmsSendsPerDayQuery = graphql(`
  query DashboardSmsSendsPerDay($days: Int!) {
    days: Statistic_GetSmsSendsPerDay(Days: $days) { day sends delivered failed verified cost currency }
  }
`);


/**
 * Codes sent through the SMS provider per day (issue 27, "a pumping attack shows up as a number"):
 * sends, delivered, verified and their cost. Only for staff with `sms.guard` (the caller decides,
 * so no one else ever asks for it); newest day first, as the server answers.
 */
export function SmsSendsPerDay() {
  const { data, loading, error } = useQuery(SmsSendsPerDayQuery, { variables: { days: DAYS }, fetchPolicy: 'network-only', context: { silent: true } });
  const title = 'SMS codes sent per day';
  if (loading && !data) return <Spinner size={24} aria-label="Loading SMS sends" />;
  if (error && !data) return <Callout intent="danger" title={title}>{errorMessage(error)}</Callout>;
  const days = (data?.days ?? []).filter((d) => !!d);
  const oldestFirst = [...days].reverse();
  return (
    <section className="stat-grid" aria-label="SMS">
      <ChartCard
        title={title}
        chart={days.length === 0
          ? <p className="stat-empty">No code was sent through an SMS provider in the last {DAYS} days.</p>
          : <Chart label={`SMS codes per day, last ${DAYS} days: ${days.reduce((n, d) => n + d.sends, 0)} sent, ${days.reduce((n, d) => n + d.verified, 0)} verified`} option={{
            tooltip: { trigger: 'axis' },
            legend: { bottom: 0 },
            grid: { left: 48, right: 56, top: 40, bottom: 56 },
            xAxis: { type: 'category', data: oldestFirst.map((d) => d.day) },
            yAxis: [{ type: 'value', name: 'Codes', minInterval: 1 }, { type: 'value', name: oldestFirst[0]?.currency ?? 'Cost', splitLine: { show: false } }],
            series: [
              { name: 'Sent', type: 'bar', data: oldestFirst.map((d) => d.sends) },
              { name: 'Verified', type: 'bar', data: oldestFirst.map((d) => d.verified) },
              { name: 'Cost', type: 'line', yAxisIndex: 1, data: oldestFirst.map((d) => Number(d.cost.toFixed(5))) },
            ],
          }} />}
        table={(
          <HTMLTable compact striped className="stat-table" aria-label={title}>
            <thead><tr><th>Day (Kuwait)</th><th>Sent</th><th>Delivered</th><th>Verified</th><th>Not sent</th><th>Cost</th></tr></thead>
            <tbody>
              {days.map((d) => (
                <tr key={d.day}><td>{d.day}</td><td>{d.sends}</td><td>{d.delivered}</td><td>{d.verified}</td><td>{d.failed}</td><td>{smsCostText(d.cost, d.currency)}</td></tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
      />
    </section>
  );
}
