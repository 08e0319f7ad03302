// One uPlot line chart (time on x). Re-created when its data or size changes; uPlot draws 50,000 points quickly.
// Axis ticks, the legend's time and values come from the domain's locale formatters (issue #29): pt-BR reads
// "06:00", "27/11/2026, 15:51" and "50,87 km/h", never uPlot's English "6am" or "11/27/26".
import { formatAxisTime, formatDateTime, formatDecimal } from '@rastro/domain';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useTimeZone } from '../../components/timeZone.ts';

/** The uPlot options of one metric's chart, every shown text formatted in the reader's locale and time zone. */
function chartOptions(o: {
  label: string;
  unit: string;
  width: number;
  height: number;
  /** The legend's name of the time column ("Hora"). */
  timeLabel: string;
  locale: string;
  timeZone: string;
}): uPlot.Options {
  const { label, unit, width, height, timeLabel, locale, timeZone } = o;
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

const HEIGHT = 260;

export function Chart({
  x,
  y,
  label,
  unit,
}: {
  x: number[];
  y: Array<number | null>;
  label: string;
  unit: string;
}) {
  const { t, i18n } = useTranslation('telemetry');
  const timeLabel = t('time');
  const locale = i18n.language;
  const timeZone = useTimeZone();
  const el = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const node = el.current;
    if (!node) return;
    const width = () => Math.max(280, node.clientWidth);
    const options = { label, unit, width: width(), height: HEIGHT, timeLabel, locale, timeZone };
    const plot = new uPlot(chartOptions(options), [x, y], node);
    const ro =
      typeof ResizeObserver !== 'undefined'
        ? new ResizeObserver(() => plot.setSize({ width: width(), height: HEIGHT }))
        : null;
    ro?.observe(node);
    return () => {
      ro?.disconnect();
      plot.destroy();
    };
  }, [x, y, label, unit, timeLabel, locale, timeZone]);
  return <div ref={el} data-testid="telemetry-chart" data-points={y.filter((v) => v !== null).length} />;
}
