// A bar chart drawn by uPlot (canvas, a few kB). A click on a bar opens its link; the same figures, with the links,
// are in a table under a native <details> ("data"), for keyboard and screen-reader users.
import { Anchor, Table, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { useNavigate } from '../../components/navigation.ts';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface Bar {
  label: string;
  value: number;
  href?: string;
}

const HEIGHT = 180;

export function BarChart({
  title,
  bars,
  format,
  testId,
  slanted = false,
}: {
  title: string;
  bars: Bar[];
  format: (v: number) => string;
  testId: string;
  /** Names (not dates) under the bars: written at a slant so they do not overlap. */
  slanted?: boolean;
}) {
  const { t } = useTranslation('dashboard');
  const box = useRef<HTMLDivElement>(null);
  const navigate = useNavigate();
  useEffect(() => {
    const el = box.current;
    if (!el || bars.length === 0) return;
    const labels = bars.map((b) => b.label);
    const every = slanted ? 1 : Math.max(1, Math.ceil(labels.length / 8));
    const short = (s: string) => (s.length > 12 ? `${s.slice(0, 11)}…` : s);
    const opts: uPlot.Options = {
      width: Math.max(240, el.clientWidth),
      height: HEIGHT,
      legend: { show: false },
      cursor: { drag: { x: false, y: false } },
      scales: {
        x: { time: false, range: [-0.5, labels.length - 0.5] },
        y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
      },
      axes: [
        {
          splits: () => labels.map((_, i) => i).filter((i) => i % every === 0),
          values: (_u, splits) => splits.map((i) => short(labels[i] ?? '')),
          stroke: 'currentColor',
          grid: { show: false },
          ...(slanted ? { rotate: -40, size: 70 } : {}),
        },
        { values: (_u, splits) => splits.map(format), stroke: 'currentColor', size: 64 },
      ],
      series: [
        {},
        {
          label: title,
          stroke: '#228be6',
          fill: 'rgba(34, 139, 230, 0.45)',
          paths: uPlot.paths.bars!({ size: [0.7, 48] }),
          points: { show: false },
        },
      ],
    };
    const plot = new uPlot(opts, [labels.map((_, i) => i), bars.map((b) => b.value)], el);
    const resize = new ResizeObserver(() =>
      plot.setSize({ width: Math.max(240, el.clientWidth), height: HEIGHT }),
    );
    resize.observe(el);
    const open = () => {
      const i = plot.cursor.idx;
      const href = i === null || i === undefined ? undefined : bars[i]?.href;
      if (href) void navigate(href);
    };
    plot.over.addEventListener('click', open);
    return () => {
      plot.over.removeEventListener('click', open);
      resize.disconnect();
      plot.destroy();
    };
  }, [bars, format, title, navigate, slanted]);

  return (
    <figure style={{ margin: 0 }} data-testid={testId}>
      <Text component="figcaption" size="sm" fw={600} mb={4}>
        {title}
      </Text>
      <div
        ref={box}
        aria-hidden
        style={{
          width: '100%',
          minHeight: bars.length ? HEIGHT : 0,
          cursor: bars.some((b) => b.href) ? 'pointer' : undefined,
        }}
      />
      <details>
        <summary style={{ cursor: 'pointer', fontSize: 'var(--mantine-font-size-xs)' }}>
          {t('charts.data')}
        </summary>
        <Table fz="xs" data-testid={`${testId}-data`}>
          <Table.Tbody>
            {bars.map((b, i) => (
              <Table.Tr key={`${b.label}-${i}`}>
                <Table.Td>
                  {b.href ? (
                    <Anchor component={Link} to={b.href}>
                      {b.label}
                    </Anchor>
                  ) : (
                    b.label
                  )}
                </Table.Td>
                <Table.Td data-value={b.value}>{format(b.value)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </details>
    </figure>
  );
}
