// One uPlot line chart (time on x). Re-created when its data or size changes; uPlot draws 50,000 points quickly.
// Axis ticks, the legend's time and values come from the domain's locale formatters (issue #29): pt-BR reads
// "06:00", "27/11/2026, 15:51" and "50,87 km/h", never uPlot's English "6am" or "11/27/26".
import { formatAxisTime, formatDateTime, formatDecimal } from '@rastro/domain';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface ChartText {
  /** The legend's name of the time column ("Hora"). */
  timeLabel: string;
  /** Intl locale of numbers, dates and times. */
  locale: string;
  /** Time zone of the reader (user's, else server's); the browser's when absent. */
  timeZone?: string;
}

/** The uPlot options of one metric's chart, every shown text formatted in the reader's locale. */
export function chartOptions(
  { label, unit, width, height }: { label: string; unit: string; width: number; height: number },
  { timeLabel, locale, timeZone }: ChartText,
): uPlot.Options {
  const withUnit = (v: number) =>
    unit ? `${formatDecimal(v, locale, 2)} ${unit}` : formatDecimal(v, locale, 2);
  return {
    width,
    height,
    scales: { x: { time: true } },
    series: [
      {
        label: timeLabel,
        value: (_u, v) => (v === null || v === undefined ? '—' : formatDateTime(v * 1000, locale, timeZone)),
      },
      {
        label: unit ? `${label} (${unit})` : label,
        stroke: '#1565c0',
        width: 2,
        spanGaps: true,
        value: (_u, v) => (v === null || v === undefined ? '—' : withUnit(v)),
      },
    ],
    axes: [
      {
        // uPlot gives the tick spacing in seconds on time scales
        values: (_u, splits, _axis, _space, incr) =>
          splits.map((s) => formatAxisTime(s * 1000, incr * 1000, locale, timeZone)),
      },
      {
        label: unit,
        size: 60,
        values: (_u, splits) => splits.map((v) => formatDecimal(v, locale, 2)),
      },
    ],
    legend: { show: true },
  };
}

export function Chart({
  x,
  y,
  label,
  unit,
  text,
  height = 260,
}: {
  x: number[];
  y: Array<number | null>;
  label: string;
  unit: string;
  text: ChartText;
  height?: number;
}) {
  const el = useRef<HTMLDivElement>(null);
  const { timeLabel, locale, timeZone } = text;
  useEffect(() => {
    const node = el.current;
    if (!node) return;
    let plot: uPlot | null = null;
    const make = () => {
      plot?.destroy();
      plot = new uPlot(
        chartOptions(
          { label, unit, width: Math.max(280, node.clientWidth), height },
          { timeLabel, locale, timeZone },
        ),
        [x, y],
        node,
      );
    };
    make();
    const ro =
      typeof ResizeObserver !== 'undefined'
        ? new ResizeObserver(() => plot?.setSize({ width: Math.max(280, node.clientWidth), height }))
        : null;
    ro?.observe(node);
    return () => {
      ro?.disconnect();
      plot?.destroy();
    };
  }, [x, y, label, unit, height, timeLabel, locale, timeZone]);
  return <div ref={el} data-testid="telemetry-chart" data-points={y.filter((v) => v !== null).length} />;
}
