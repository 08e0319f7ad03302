// The global 'graphics' dialog (SPEC §2): telemetry of one device — speed, altitude, power, battery, fuel and
// rpm over 24 h, 7 d or 30 d (SPEC §9) with uPlot. Errors of SPEC §8: invalid server response, no data for the
// period. Opened with openDialog('graphics', { deviceId }).
import { Alert, Group, Loader, Modal, SegmentedControl, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  availableMetrics,
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
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUnits } from '../../i18n/useUnits.ts';
import { api } from '../../api/http.ts';
import type { DialogComponentProps } from '../../shell/dialogs.ts';
import { useLive } from '../../stores/live.ts';
import { Chart } from './Chart.tsx';

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
          <SegmentedControl
            value={shownMetric}
            onChange={(v) => setMetric(v as TelemetryMetric)}
            data={metrics.map((m) => ({ value: m, label: t(`metrics.${m}`) }))}
            data-testid="telemetry-metric"
          />
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
