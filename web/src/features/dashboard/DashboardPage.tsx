// /dashboard (issue #14, docs/insights.md): the fleet's period at a glance — a period (today, 7 or 30 days, custom…)
// and a device / group filter shared by two tabs: the figures and charts (GET /{ns}/dashboard, one request) and
// the driver / vehicle scores (GET /{ns}/scores).
import { Alert, Group, Loader, MultiSelect, Stack, Tabs } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type DashboardAnswer, type Device, type Group as DeviceGroup } from '@rastro/domain';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUnits } from '../../i18n/useUnits.ts';
import { ext, serverMessage } from '../../api/http.ts';
import { useResourceList } from '../../api/resources.ts';
import {
  defaultPeriod,
  PeriodPicker,
  resolvePeriod,
  type PeriodValue,
} from '../../components/PeriodPicker.tsx';
import { userTimeZone } from '../../components/timeZone.ts';
import { intlLocale } from '../../i18n/index.ts';
import { useLive } from '../../stores/live.ts';
import { useSession } from '../../stores/session.ts';
import { insightsQuery, type InsightsFilter } from './dashboardQuery.ts';
import { Overview } from './Overview.tsx';
import { Scores } from './Scores.tsx';

export function DashboardPage() {
  const { t } = useTranslation('dashboard');
  const devices = useLive((s) => s.devices);
  const groups = useResourceList('groups');
  const user = useSession((s) => s.user);
  const server = useSession((s) => s.server);
  const units = useUnits();
  const tz = useMemo(() => userTimeZone(user, server), [user, server]);
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

  const deviceOptions = useMemo(
    () =>
      Object.values(devices)
        .sort((a: Device, b: Device) => a.name.localeCompare(b.name))
        .map((d) => ({ value: String(d.id), label: d.name })),
    [devices],
  );
  const groupOptions = useMemo(
    () => (groups.data ?? []).map((g: DeviceGroup) => ({ value: String(g.id), label: g.name })),
    [groups.data],
  );

  return (
    <Stack gap="sm" data-testid="dashboard">
      <PeriodPicker value={period} onChange={setPeriod} testId="dashboard-period" />
      <Group grow gap="xs" align="flex-start">
        <MultiSelect
          label={t('filter.devices')}
          placeholder={t('filter.all')}
          data={deviceOptions}
          value={deviceIds}
          onChange={setDeviceIds}
          searchable
          clearable
          data-testid="dashboard-devices"
          comboboxProps={{ withinPortal: true }}
        />
        <MultiSelect
          label={t('filter.groups')}
          placeholder={t('filter.all')}
          data={groupOptions}
          value={groupIds}
          onChange={setGroupIds}
          searchable
          clearable
          data-testid="dashboard-groups"
          comboboxProps={{ withinPortal: true }}
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
          {dashboard.isError && (
            <Alert color="red" data-testid="dashboard-error">
              {serverMessage(dashboard.error) ?? t('error')}
            </Alert>
          )}
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
