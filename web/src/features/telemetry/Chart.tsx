// One uPlot line chart (time on x). Re-created when its data or size changes; uPlot draws 50,000 points quickly.
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export function Chart({
  x,
  y,
  label,
  unit,
  height = 260,
}: {
  x: number[];
  y: Array<number | null>;
  label: string;
  unit: string;
  height?: number;
}) {
  const el = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const node = el.current;
    if (!node) return;
    let plot: uPlot | null = null;
    const make = () => {
      plot?.destroy();
      plot = new uPlot(
        {
          width: Math.max(280, node.clientWidth),
          height,
          scales: { x: { time: true } },
          series: [
            {},
            { label: unit ? `${label} (${unit})` : label, stroke: '#1565c0', width: 2, spanGaps: true },
          ],
          axes: [{}, { label: unit, size: 60 }],
          legend: { show: true },
        },
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
  }, [x, y, label, unit, height]);
  return <div ref={el} data-testid="telemetry-chart" data-points={y.filter((v) => v !== null).length} />;
}
