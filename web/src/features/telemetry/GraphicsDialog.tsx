// The global 'graphics' dialog (SPEC §2): telemetry of one device — speed, altitude, power, battery, fuel and
// rpm over 24 h, 7 d or 30 d (SPEC §9) with uPlot. Errors of SPEC §8: invalid server response, no data for the
// period. Opened with openDialog('graphics', { deviceId }).
import { Alert, Group, Loader, Modal, NativeSelect, SegmentedControl, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  availableMetrics,
  formatAxisTime,
  formatDateTime,
  formatDecimal,
  metricUnit,
  parseTelemetry,
  telemetryRange,
  telemetrySeries,
  TELEMETRY_RANGES,
  type TelemetryError,
  type TelemetryMetric,
  type TelemetryRange,
} from '@rastro/domain';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useTimeZone } from '../../components/timeZone.ts';
import { useUnits } from '../../i18n/useUnits.ts';
import { api } from '../../api/http.ts';
import type { DialogComponentProps } from '../../shell/dialogs.ts';
import { useLive } from '../../stores/live.ts';
import { useIsMobile } from '../../components/useIsMobile.ts';

// One uPlot line chart (time on x). Re-created when its data or size changes; uPlot draws 50,000 points quickly.
// Axis ticks, the legend's time and values come from the domain's locale formatters (issue #29): pt-BR reads
// "06:00", "27/11/2026, 15:51" and "50,87 km/h", never uPlot's English "6am" or "11/27/26".
/** The uPlot options of one metric's chart (all but its size), every shown text formatted in the reader's locale
 * and time zone; `timeLabel` is the legend's name of the time column ("Hora"). */
function chartOptions(
  label: string,
  unit: string,
  timeLabel: string,
  locale: string,
  timeZone: string,
): Omit<uPlot.Options, 'width' | 'height'> {
  const num = (v: number) => formatDecimal(v, locale, 2);
  return {
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
        value: (_u, v) => (v === null || v === undefined ? '—' : unit ? `${num(v)} ${unit}` : num(v)),
      },
    ],
    axes: [
      {
        // uPlot gives the tick spacing in seconds on time scales
        values: (_u, splits, _axis, _space, incr) =>
          splits.map((s) => formatAxisTime(s * 1000, incr * 1000, locale, timeZone)),
      },
      { label: unit, size: 60, values: (_u, splits) => splits.map(num) },
    ],
    legend: { show: true },
  };
}

const HEIGHT = 260;

function Chart({ x, y, label, unit }: { x: number[]; y: Array<number | null>; label: string; unit: string }) {
  const { t, i18n } = useTranslation('telemetry');
  const timeLabel = t('time');
  const locale = i18n.language;
  const timeZone = useTimeZone();
  const el = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const node = el.current;
    if (!node) return;
    const width = () => Math.max(280, node.clientWidth);
    const options = chartOptions(label, unit, timeLabel, locale, timeZone);
    const plot = new uPlot({ ...options, width: width(), height: HEIGHT }, [x, y], node);
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

export function GraphicsDialog({ props: { deviceId }, onClose }: DialogComponentProps<'graphics'>) {
  const { t, i18n } = useTranslation('telemetry');
  const device = useLive((s) => s.devices[deviceId]);
  const units = useUnits();
  const locale = i18n.language;
  const [range, setRange] = useState<TelemetryRange>('24h');
  const [metric, setMetric] = useState<TelemetryMetric>('speed');
  const load = useQuery({
    queryKey: ['telemetry', deviceId, range],
    queryFn: async () => {
      const { from, to } = telemetryRange(range, Date.now());
      return parseTelemetry(await api.get<unknown>('/positions', { deviceId, from, to }));
    },
    enabled: deviceId > 0,
    retry: false,
    gcTime: 0,
  });
  const points = load.data?.ok ? load.data.points : null;
  const error: TelemetryError | null =
    !deviceId || load.isError ? 'invalidResponse' : load.data && !load.data.ok ? load.data.error : null;

  const metrics = useMemo(
    () => (points ? availableMetrics(points, units) : (['speed'] as TelemetryMetric[])),
    [points, units],
  );
  const shownMetric = metrics.includes(metric) ? metric : 'speed';
  const metricOptions = metrics.map((m) => ({ value: m, label: t(`metrics.${m}`) }));
  const mobile = useIsMobile();
  const series = useMemo(
    () => (points ? telemetrySeries(points, shownMetric, units) : null),
    [points, shownMetric, units],
  );

  return (
    <Modal
      opened
      onClose={onClose}
      size="xl"
      title={t('title', { name: device?.name ?? '' })}
      data-testid="telemetry-dialog"
    >
      <Stack gap="sm" data-testid="telemetry-body">
        <Group justify="space-between" gap="xs">
          <SegmentedControl
            value={range}
            onChange={(v) => setRange(v as TelemetryRange)}
            data={TELEMETRY_RANGES.map((r) => ({ value: r, label: t(`ranges.${r}`) }))}
            data-testid="telemetry-range"
          />
          {/* six metrics do not fit a phone's width as segments (three were cut off, the highlight under the wrong one):
              a native select there */}
          {mobile ? (
            <NativeSelect
              aria-label={t('metric')}
              value={shownMetric}
              onChange={(e) => setMetric(e.currentTarget.value as TelemetryMetric)}
              data={metricOptions}
              data-testid="telemetry-metric"
            />
          ) : (
            <SegmentedControl
              value={shownMetric}
              onChange={(v) => setMetric(v as TelemetryMetric)}
              data={metricOptions}
              data-testid="telemetry-metric"
            />
          )}
        </Group>
        {!error && load.isPending && (
          <Group justify="center" p="lg">
            <Loader size="sm" />
          </Group>
        )}
        {error && (
          <Alert
            color={error === 'noData' ? 'yellow' : 'red'}
            data-testid="telemetry-error"
            data-error={error}
          >
            {t(`errors.${error}`)}
          </Alert>
        )}
        {series && (
          <>
            <Chart
              x={series.x}
              y={series.y}
              label={t(`metrics.${shownMetric}`)}
              unit={metricUnit(shownMetric, units)}
            />
            <Text size="xs" c="dimmed" data-testid="telemetry-stats" data-count={series.count}>
              {t('stats', {
                count: series.count,
                min: series.min === null ? '—' : formatDecimal(series.min, locale, 2),
                max: series.max === null ? '—' : formatDecimal(series.max, locale, 2),
                unit: metricUnit(shownMetric, units),
              })}
            </Text>
          </>
        )}
      </Stack>
    </Modal>
  );
}
