import '../dashboard/statisticsCharts.css';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Card, H3, Switch } from '@blueprintjs/core';
import * as echarts from 'echarts/core';
import { BarChart, HeatmapChart, LineChart, PieChart } from 'echarts/charts';
import { AriaComponent, GridComponent, LegendComponent, TooltipComponent, VisualMapComponent } from 'echarts/components';
import { SVGRenderer } from 'echarts/renderers';

// Only the parts in use: this file is reached from the console's lazy chunks alone (the dashboard, /brands/qrscans), never the shop.
echarts.use([BarChart, HeatmapChart, LineChart, PieChart, AriaComponent, GridComponent, LegendComponent, TooltipComponent, VisualMapComponent, SVGRenderer]);

export type ChartOption = echarts.EChartsCoreOption;

/** One ECharts chart, drawn as SVG, with its own description for screen readers (the aria component). */
export function Chart({ option, label }: { option: ChartOption; label: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!ref.current) return;
    const chart = echarts.init(ref.current, undefined, { renderer: 'svg' });
    chart.setOption({ aria: { enabled: true }, animation: false, ...option });
    const resize = () => chart.resize();
    window.addEventListener('resize', resize);
    return () => { window.removeEventListener('resize', resize); chart.dispose(); };
  }, [option]);
  return <div ref={ref} className="stat-chart" role="img" aria-label={label} />;
}

/** A chart and, behind the switch, the same numbers in a table. */
export function ChartCard({ title, chart, table }: { title: string; chart: ReactNode; table: ReactNode }) {
  const [asTable, setAsTable] = useState(false);
  return (
    <Card className="console-card stat-card" role="region" aria-label={title}>
      <div className="stat-card__head">
        <H3>{title}</H3>
        <Switch checked={asTable} label="View as table" onChange={() => setAsTable((v) => !v)} />
      </div>
      {asTable ? table : chart}
    </Card>
  );
}
