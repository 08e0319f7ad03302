// The global 'graphics' dialog (SPEC §2): telemetry of one device — speed, altitude, power, battery, fuel and
// rpm over 24 h, 7 d or 30 d (SPEC §9) with uPlot. Errors of SPEC §8: invalid server response, no data for the
// period. Opened with openDialog('graphics', { deviceId }).
import { Alert, Group, Loader, Modal, SegmentedControl, Stack, Text } from '@mantine/core';
import {
  availableMetrics,
  formatDecimal,
  metricUnit,
  parseTelemetry,
  telemetryRange,
  telemetrySeries,
  TELEMETRY_RANGES,
  type RoutePoint,
  type TelemetryError,
  type TelemetryMetric,
  type TelemetryRange,
} from '@rastro/domain';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUnits } from '../../i18n/useUnits.ts';
import { z } from 'zod';
import { api } from '../../api/http.ts';
import { userTimeZone } from '../../components/timeZone.ts';
import type { DialogComponentProps } from '../../shell/dialogs.ts';
import { useLive } from '../../stores/live.ts';
import { useSession } from '../../stores/session.ts';
import { Chart } from './Chart.tsx';

const propsSchema = z.object({ deviceId: z.coerce.number().int().positive() });

type State =
  { status: 'loading' } | { status: 'error'; error: TelemetryError } | { status: 'ok'; points: RoutePoint[] };

export function GraphicsDialog({ props, onClose }: DialogComponentProps) {
  const { t, i18n } = useTranslation('telemetry');
  const parsed = propsSchema.safeParse(props);
  const deviceId = parsed.success ? parsed.data.deviceId : 0;
  const device = useLive((s) => (deviceId ? s.devices[deviceId] : undefined));
  const units = useUnits();
  const user = useSession((s) => s.user);
  const server = useSession((s) => s.server);
  const locale = i18n.language;
  const timeZone = userTimeZone(user, server);
  const chartText = useMemo(() => ({ timeLabel: t('time'), locale, timeZone }), [t, locale, timeZone]);
  const [range, setRange] = useState<TelemetryRange>('24h');
  const [metric, setMetric] = useState<TelemetryMetric>('speed');
  const [state, setState] = useState<State>({ status: 'loading' });

  useEffect(() => {
    if (!deviceId) {
      setState({ status: 'error', error: 'invalidResponse' });
      return;
    }
    let live = true;
    setState({ status: 'loading' });
    const { from, to } = telemetryRange(range, Date.now());
    api
      .get<unknown>('/positions', { deviceId, from, to })
      .then((answer) => {
        if (!live) return;
        const r = parseTelemetry(answer);
        setState(r.ok ? { status: 'ok', points: r.points } : { status: 'error', error: r.error });
      })
      .catch(() => live && setState({ status: 'error', error: 'invalidResponse' }));
    return () => {
      live = false;
    };
  }, [deviceId, range]);

  const metrics = useMemo(
    () => (state.status === 'ok' ? availableMetrics(state.points, units) : (['speed'] as TelemetryMetric[])),
    [state, units],
  );
  const shownMetric = metrics.includes(metric) ? metric : 'speed';
  const series = useMemo(
    () => (state.status === 'ok' ? telemetrySeries(state.points, shownMetric, units) : null),
    [state, shownMetric, units],
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
        {state.status === 'loading' && (
          <Group justify="center" p="lg">
            <Loader size="sm" />
          </Group>
        )}
        {state.status === 'error' && (
          <Alert
            color={state.error === 'noData' ? 'yellow' : 'red'}
            data-testid="telemetry-error"
            data-error={state.error}
          >
            {t(`errors.${state.error}`)}
          </Alert>
        )}
        {series && (
          <>
            <Chart
              x={series.x}
              y={series.y}
              label={t(`metrics.${shownMetric}`)}
              unit={metricUnit(shownMetric, units)}
              text={chartText}
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
