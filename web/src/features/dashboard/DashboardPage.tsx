// /dashboard (issue #14, docs/insights.md): the fleet's period at a glance — a period (today, 7 or 30 days, custom…)
// and a device / group filter shared by two tabs: the figures and charts (GET /{ns}/dashboard, one request) and
// the driver / vehicle scores (GET /{ns}/scores).
import { Alert, Group, Loader, Stack, Tabs } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type DashboardAnswer } from '@rastro/domain';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUnits } from '../../i18n/useUnits.ts';
import { ext } from '../../api/http.ts';
import { DeviceGroupSelect } from '../../components/DeviceGroupSelect.tsx';
import {
  defaultPeriod,
  PeriodPicker,
  resolvePeriod,
  type PeriodValue,
} from '../../components/PeriodPicker.tsx';
import { useTimeZone } from '../../components/timeZone.ts';
import { intlLocale } from '../../i18n/index.ts';
import { insightsQuery, type InsightsFilter } from './dashboardQuery.ts';
import { Overview } from './Overview.tsx';
import { Scores } from './Scores.tsx';
import { RequestError } from '../../components/RequestError.tsx';

export function DashboardPage() {
  const { t } = useTranslation('dashboard');
  const units = useUnits();
  const tz = useTimeZone();
  const locale = intlLocale();
  const [deviceIds, setDeviceIds] = useState<string[]>([]);
  const [groupIds, setGroupIds] = useState<string[]>([]);
  const [period, setPeriod] = useState<PeriodValue>(() => defaultPeriod('last7'));
  const [tab, setTab] = useState<string | null>('overview');

  // the period is fixed when chosen (not re-resolved at each render, so "today" keeps one query)
  const filter = useMemo<InsightsFilter | null>(() => {
    const range = resolvePeriod(period, tz);
    return range
      ? { deviceIds: deviceIds.map(Number), groupIds: groupIds.map(Number), from: range.from, to: range.to }
      : null;
  }, [period, tz, deviceIds, groupIds]);

  const query = filter ? insightsQuery(filter) : '';
  const dashboard = useQuery({
    queryKey: ['dashboard', query],
    queryFn: () => ext.get<DashboardAnswer>(`/dashboard?${query}`),
    enabled: filter !== null && tab === 'overview',
    // the figures stay on screen while the next filter's load
    placeholderData: keepPreviousData,
  });

  return (
    <Stack gap="sm" data-testid="dashboard">
      <PeriodPicker value={period} onChange={setPeriod} testId="dashboard-period" />
      <Group grow gap="xs" align="flex-start">
        <DeviceGroupSelect
          devices={{
            label: t('filter.devices'),
            placeholder: t('filter.all'),
            value: deviceIds,
            onChange: setDeviceIds,
            testId: 'dashboard-devices',
          }}
          groups={{
            label: t('filter.groups'),
            placeholder: t('filter.all'),
            value: groupIds,
            onChange: setGroupIds,
            testId: 'dashboard-groups',
          }}
        />
      </Group>
      {!filter && (
        <Alert color="red" data-testid="dashboard-period-error">
          {t('reports:period.invalid')}
        </Alert>
      )}
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="overview" data-testid="tab-overview">
            {t('tabs.overview')}
          </Tabs.Tab>
          <Tabs.Tab value="scores" data-testid="tab-scores">
            {t('tabs.scores')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="overview" pt="sm">
          {dashboard.isPending && filter && <Loader size="sm" aria-label={t('loading')} />}
          <RequestError error={dashboard.error} fallback={t('error')} testId="dashboard-error" />
          {dashboard.data && filter && (
            <Overview answer={dashboard.data} filter={filter} units={units} locale={locale} />
          )}
        </Tabs.Panel>
        <Tabs.Panel value="scores" pt="sm">
          <Stack gap="xs">{filter && <Scores filter={filter} units={units} locale={locale} />}</Stack>
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
