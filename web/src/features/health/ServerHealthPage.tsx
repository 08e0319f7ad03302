// /server-health (administrators; the guard sends others home): cards with the server's own figures, refreshed
// every 10 s, and the TLS status told as it is: the certificate lives in the reverse proxy in front of Rastro.
import { Alert, Badge, Group, Progress, SimpleGrid, Stack, Text } from '@mantine/core';
import {
  IconActivity,
  IconCpu,
  IconDatabase,
  IconDeviceDesktopAnalytics,
  IconPlugConnected,
  IconRoute,
  IconServer,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { fetchHealth, fetchSsl, HEALTH_REFRESH_MS } from './api.ts';
import { formatBytes, formatUptime, percent } from './format.ts';
import { Figure, HealthCard, SslCard } from './HealthCard.tsx';

export function ServerHealthPage() {
  const { t, i18n } = useTranslation('health');
  const locale = i18n.language;
  const health = useQuery({
    queryKey: ['server-health'],
    queryFn: fetchHealth,
    refetchInterval: HEALTH_REFRESH_MS,
    refetchIntervalInBackground: false,
  });
  const ssl = useQuery({ queryKey: ['ssl-check'], queryFn: fetchSsl, refetchInterval: HEALTH_REFRESH_MS });
  const n = (v: number, digits = 0) =>
    new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(v);
  const h = health.data;

  return (
    <Stack gap="sm" data-testid="health-page">
      <Text size="sm" c="dimmed">
        {t('intro')}
      </Text>
      {health.isError && !h && <Alert color="red">{t('loadError')}</Alert>}
      {h && (
        <>
          <Group gap="xs">
            <Badge color={h.status === 'ok' ? 'green' : 'orange'} data-testid="health-status">
              {t(`status.${h.status}`)}
            </Badge>
            <Badge variant="light">{t(`mode.${h.mode}`)}</Badge>
            <Text size="xs" c="dimmed" data-testid="health-updated">
              {t('updatedAt', { time: new Date(h.time).toLocaleTimeString(locale) })}
            </Text>
          </Group>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <HealthCard title={t('cards.server')} icon={<IconServer size={18} />} testId="health-server">
              <Figure
                label={t('fields.uptime')}
                value={formatUptime(h.uptimeSeconds)}
                testId="health-uptime"
              />
              <Figure label={t('fields.startedAt')} value={new Date(h.startedAt).toLocaleString(locale)} />
              <Figure label={t('fields.version')} value={h.version} testId="health-version" />
              <Figure label={t('fields.node')} value={h.node} />
              <Figure label={t('fields.platform')} value={h.platform} />
            </HealthCard>

            <HealthCard title={t('cards.resources')} icon={<IconCpu size={18} />} testId="health-resources">
              <Figure label={t('fields.rss')} value={formatBytes(h.memory.rss, locale)} testId="health-rss" />
              <Figure
                label={t('fields.heap')}
                value={`${formatBytes(h.memory.heapUsed, locale)} / ${formatBytes(h.memory.heapTotal, locale)}`}
              />
              <Figure
                label={t('fields.systemMemory')}
                value={t('usedOf', {
                  used: formatBytes(h.memory.systemTotal - h.memory.systemFree, locale),
                  total: formatBytes(h.memory.systemTotal, locale),
                })}
              />
              <Progress
                size="sm"
                value={percent(h.memory.systemTotal - h.memory.systemFree, h.memory.systemTotal)}
                aria-label={t('fields.systemMemory')}
              />
              <Figure
                label={t('fields.load', { cpus: h.cpus })}
                value={h.loadAverage.map((v) => n(v, 2)).join(' · ')}
              />
            </HealthCard>

            <HealthCard title={t('cards.storage')} icon={<IconDatabase size={18} />} testId="health-storage">
              <Figure
                label={t('fields.store')}
                value={h.database.kind === 'postgres' ? 'PostgreSQL' : 'SQLite'}
                testId="health-db-kind"
              />
              <Figure
                label={t('fields.database')}
                value={formatBytes(h.database.sizeBytes, locale)}
                testId="health-db-size"
              />
              {h.database.kind === 'sqlite' ? (
                <Figure label={t('fields.wal')} value={formatBytes(h.database.walBytes, locale)} />
              ) : (
                <Figure
                  label={t('fields.jobs')}
                  value={t(h.cluster?.leader ? 'fields.jobsHere' : 'fields.jobsElsewhere')}
                  testId="health-jobs"
                />
              )}
              {h.disk ? (
                <>
                  <Figure
                    label={t('fields.disk')}
                    value={t('freeOf', {
                      free: formatBytes(h.disk.free, locale),
                      total: formatBytes(h.disk.total, locale),
                    })}
                    testId="health-disk"
                  />
                  <Progress
                    size="sm"
                    color={percent(h.disk.free, h.disk.total) < 10 ? 'red' : 'blue'}
                    value={percent(h.disk.total - h.disk.free, h.disk.total)}
                    aria-label={t('fields.disk')}
                  />
                </>
              ) : (
                <Figure label={t('fields.disk')} value="—" />
              )}
            </HealthCard>

            {h.devices && (
              <HealthCard
                title={t('cards.devices')}
                icon={<IconDeviceDesktopAnalytics size={18} />}
                testId="health-devices"
              >
                <Figure label={t('fields.total')} value={n(h.devices.total)} testId="health-devices-total" />
                <Figure
                  label={t('fields.online')}
                  value={n(h.devices.online)}
                  testId="health-devices-online"
                />
                <Figure label={t('fields.offline')} value={n(h.devices.offline)} />
                <Figure label={t('fields.unknown')} value={n(h.devices.unknown)} />
              </HealthCard>
            )}

            {h.positions && (
              <HealthCard
                title={t('cards.positions')}
                icon={<IconRoute size={18} />}
                testId="health-positions"
              >
                <Figure
                  label={t('fields.perSecond')}
                  value={n(h.positions.perSecond, 2)}
                  testId="health-positions-rate"
                />
                <Figure
                  label={t('fields.perSecondSinceStart')}
                  value={n(h.positions.perSecondSinceStart, 2)}
                />
                <Figure
                  label={t('fields.stored')}
                  value={n(h.positions.stored)}
                  testId="health-positions-stored"
                />
                <Figure label={t('fields.received')} value={n(h.positions.received)} />
                <Figure label={t('fields.rejected')} value={n(h.positions.rejected)} />
                <Figure label={t('fields.events')} value={n(h.positions.events)} />
              </HealthCard>
            )}

            {h.sockets && (
              <HealthCard
                title={t('cards.sockets')}
                icon={<IconActivity size={18} />}
                testId="health-sockets"
              >
                <Figure label={t('fields.clients')} value={n(h.sockets.clients)} testId="health-clients" />
              </HealthCard>
            )}

            {h.upstream && (
              <HealthCard
                title={t('cards.upstream')}
                icon={<IconPlugConnected size={18} />}
                testId="health-upstream"
              >
                <Figure label={t('fields.origin')} value={h.upstream.origin} />
                <Figure
                  label={t('fields.reachable')}
                  value={
                    <Badge color={h.upstream.reachable ? 'green' : 'red'}>
                      {h.upstream.reachable ? t('yes') : t('no')}
                    </Badge>
                  }
                />
                <Figure label={t('fields.httpStatus')} value={h.upstream.status ?? '—'} />
              </HealthCard>
            )}

            <SslCard data={ssl.data} isError={ssl.isError} />
          </SimpleGrid>
        </>
      )}
    </Stack>
  );
}
