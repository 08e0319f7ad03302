// The dashboard's figures for the period (distance, driving, engine idling, stops, overspeeds, fuel estimate) with
// their change against the period before, the devices' state now, and three charts (distance per day, utilisation
// per vehicle, the ten most idle vehicles). Every figure and bar links to the report that explains it.
import { Anchor, Group, Paper, SimpleGrid, Stack, Text, useComputedColorScheme } from '@mantine/core';
import { IconArrowDownRight, IconArrowUpRight } from '@tabler/icons-react';
import {
  changeRatio,
  formatDistance,
  formatDuration,
  formatNumber,
  formatVolume,
  convertDistance,
  UNIT_LABELS,
  type DashboardAnswer,
  type DashboardTotals,
  type Units,
} from '@rastro/domain';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { BarChart, type Bar } from './BarChart.tsx';
import { deviceLink, figureLink, FIGURES, type Figure, type InsightsFilter } from './dashboardQuery.ts';

/** The utilisation chart shows this many vehicles, most used first. */
const MOST_USED = 15;

const count = (v: number, _units: Units, locale: string) => formatNumber(v, locale, 0);

// Each figure: its value in the totals, how it is written, and whether a rise is good news (green), bad news (red)
// or neither (blue).
const FIGURE: Record<
  Figure,
  { of(t: DashboardTotals): number | null; show(v: number, units: Units, locale: string): string; rise: Rise }
> = {
  distance: {
    of: (t) => t.distance,
    show: (v, u, l) => formatDistance(v, u.distanceUnit, l, 1),
    rise: 'neutral',
  },
  drivingTime: { of: (t) => t.drivingMs, show: (v) => formatDuration(v), rise: 'neutral' },
  idleTime: { of: (t) => t.idleMs, show: (v) => formatDuration(v), rise: 'bad' },
  stops: { of: (t) => t.stops, show: count, rise: 'neutral' },
  overspeeds: { of: (t) => t.overspeedEvents, show: count, rise: 'bad' },
  fuel: { of: (t) => t.fuel, show: (v, u, l) => formatVolume(v, u.volumeUnit, l, 1), rise: 'bad' },
};
type Rise = 'good' | 'bad' | 'neutral';

function Change({ ratio, rise, locale }: { ratio: number | null; rise: Rise; locale: string }) {
  const { t } = useTranslation('dashboard');
  const scheme = useComputedColorScheme('light');
  if (ratio === null)
    return (
      <Text size="xs" c="dimmed">
        {t('change.none')}
      </Text>
    );
  const up = ratio > 0;
  const tone =
    ratio === 0 || rise === 'neutral' ? 'neutral' : (up ? rise === 'good' : rise === 'bad') ? 'good' : 'bad';
  const color = CHANGE_COLOURS[scheme][tone];
  const Icon = up ? IconArrowUpRight : IconArrowDownRight;
  return (
    <Group gap={2} c={color} data-testid="figure-change" data-ratio={ratio}>
      {ratio !== 0 && <Icon size={14} aria-hidden />}
      <Text size="xs" c={color}>
        {t('change.vsPrevious', { value: `${up ? '+' : ''}${formatNumber(ratio * 100, locale, 0)} %` })}
      </Text>
    </Group>
  );
}

// Shades of the change line that small text reads at WCAG AA contrast (4.5:1) on the light and dark cards (issue #29:
// the default blue, green and red shades read 2.4–3.6:1 on white)
const CHANGE_COLOURS = {
  light: { neutral: 'blue.8', good: 'teal.9', bad: 'red.9' },
  dark: { neutral: 'blue.4', good: 'green.5', bad: 'red.5' },
} as const;

export function Overview({
  answer,
  filter,
  units,
  locale,
}: {
  answer: DashboardAnswer;
  filter: InsightsFilter;
  units: Units;
  locale: string;
}) {
  const { t } = useTranslation('dashboard');
  const distanceIn = (m: number) => Math.round(convertDistance(m, units.distanceUnit) * 10) / 10;

  const dayFormat = new Intl.DateTimeFormat(locale, { day: '2-digit', month: '2-digit', timeZone: 'UTC' });
  const days: Bar[] = answer.days.map((d) => ({
    label: dayFormat.format(Date.parse(`${d.day}T12:00:00Z`)),
    value: distanceIn(d.distance),
  }));
  const utilisation: Bar[] = [...answer.devices]
    .sort((a, b) => b.utilisation - a.utilisation || a.name.localeCompare(b.name))
    .slice(0, MOST_USED)
    .map((d) => ({
      label: d.name,
      value: Math.round(d.utilisation * 1000) / 10,
      href: deviceLink('travels', d.deviceId, filter),
    }));
  const byId = new Map(answer.devices.map((d) => [d.deviceId, d]));
  const idle: Bar[] = answer.topIdle
    .map((id) => byId.get(id))
    .filter((d) => d !== undefined)
    .map((d) => ({
      label: d.name,
      value: Math.round((d.idleMs / 3_600_000) * 100) / 100,
      href: deviceLink('stops', d.deviceId, filter),
    }));

  return (
    <Stack gap="md" data-testid="dashboard-overview">
      <SimpleGrid cols={2} spacing="xs">
        {FIGURES.map((figure) => {
          const current = FIGURE[figure].of(answer.totals);
          return (
            <Paper key={figure} withBorder p="xs" data-testid={`figure-${figure}`}>
              <Text size="xs" c="dimmed">
                {t(`figures.${figure}`)}
              </Text>
              <Text size="md" fw={700} data-testid="figure-value" data-value={current ?? ''}>
                {current === null ? '—' : FIGURE[figure].show(current, units, locale)}
              </Text>
              {figure === 'fuel' && current === null ? (
                <Text size="xs" c="dimmed">
                  {t('fuelUnset')}
                </Text>
              ) : (
                <Change
                  ratio={changeRatio(current, FIGURE[figure].of(answer.previous))}
                  rise={FIGURE[figure].rise}
                  locale={locale}
                />
              )}
              <Anchor component={Link} to={figureLink(figure, filter)} size="xs" data-testid="figure-link">
                {t('seeReport')}
              </Anchor>
            </Paper>
          );
        })}
      </SimpleGrid>
      <Paper withBorder p="xs" data-testid="dashboard-status">
        <Text size="xs" c="dimmed" mb={4}>
          {t('status.title', { count: answer.deviceCount })}
        </Text>
        <Group gap="lg">
          {(['online', 'offline', 'never'] as const).map((s) => (
            <Anchor
              key={s}
              component={Link}
              to="/devices"
              size="sm"
              data-testid={`status-${s}`}
              data-value={answer.status[s]}
            >
              {t(`status.${s}`, { count: answer.status[s] })}
            </Anchor>
          ))}
        </Group>
      </Paper>
      <BarChart
        title={t('charts.distancePerDay', { unit: UNIT_LABELS[units.distanceUnit] })}
        bars={days}
        format={(v) => formatNumber(v, locale, 0)}
        testId="chart-days"
      />
      <BarChart
        title={t('charts.utilisation', { count: utilisation.length })}
        bars={utilisation}
        format={(v) => `${formatNumber(v, locale, 0)} %`}
        testId="chart-utilisation"
        slanted
      />
      {idle.length > 0 ? (
        <BarChart
          title={t('charts.topIdle')}
          bars={idle}
          format={(v) => `${formatNumber(v, locale, 1)} h`}
          testId="chart-idle"
          slanted
        />
      ) : (
        <Text size="sm" c="dimmed" data-testid="chart-idle-empty">
          {t('charts.noIdle')}
        </Text>
      )}
    </Stack>
  );
}
