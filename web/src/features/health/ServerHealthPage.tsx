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
import { formatDecimal } from '@rastro/domain';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { fetchHealth, fetchSsl, HEALTH_REFRESH_MS, type ServerHealth } from './api.ts';
import { formatBytes, formatUptime, percent } from './format.ts';
import { Figure, Figures, HealthCard, SslCard, type FigureRow } from './HealthCard.tsx';

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
  const n = (v: number, digits = 0) => formatDecimal(v, locale, digits);
  const h = health.data;

  /** The cards of what this server has (no devices, positions or sockets in gateway mode, no upstream embedded). */
  const optionalCards = (h: ServerHealth): [string, typeof IconRoute, FigureRow[] | null][] => [
    [
      'devices',
      IconDeviceDesktopAnalytics,
      h.devices && [
        [t('fields.total'), n(h.devices.total), 'health-devices-total'],
        [t('fields.online'), n(h.devices.online), 'health-devices-online'],
        [t('fields.offline'), n(h.devices.offline)],
        [t('fields.unknown'), n(h.devices.unknown)],
      ],
    ],
    [
      'positions',
      IconRoute,
      h.positions && [
        [t('fields.perSecond'), n(h.positions.perSecond, 2), 'health-positions-rate'],
        [t('fields.perSecondSinceStart'), n(h.positions.perSecondSinceStart, 2)],
        [t('fields.stored'), n(h.positions.stored), 'health-positions-stored'],
        [t('fields.received'), n(h.positions.received)],
        [t('fields.rejected'), n(h.positions.rejected)],
        [t('fields.events'), n(h.positions.events)],
      ],
    ],
    ['sockets', IconActivity, h.sockets && [[t('fields.clients'), n(h.sockets.clients), 'health-clients']]],
    [
      'upstream',
      IconPlugConnected,
      h.upstream && [
        [t('fields.origin'), h.upstream.origin],
        [
          t('fields.reachable'),
          <Badge color={h.upstream.reachable ? 'green' : 'red'}>
            {h.upstream.reachable ? t('yes') : t('no')}
          </Badge>,
        ],
        [t('fields.httpStatus'), h.upstream.status ?? '—'],
      ],
    ],
  ];

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
              <Figures
                rows={[
                  [t('fields.uptime'), formatUptime(h.uptimeSeconds), 'health-uptime'],
                  [t('fields.startedAt'), new Date(h.startedAt).toLocaleString(locale)],
                  [t('fields.version'), h.version, 'health-version'],
                  [t('fields.node'), h.node],
                  [t('fields.platform'), h.platform],
                ]}
              />
            </HealthCard>

            <HealthCard title={t('cards.resources')} icon={<IconCpu size={18} />} testId="health-resources">
              <Figures
                rows={[
                  [t('fields.rss'), formatBytes(h.memory.rss, locale), 'health-rss'],
                  [
                    t('fields.heap'),
                    `${formatBytes(h.memory.heapUsed, locale)} / ${formatBytes(h.memory.heapTotal, locale)}`,
                  ],
                  [
                    t('fields.systemMemory'),
                    t('usedOf', {
                      used: formatBytes(h.memory.systemTotal - h.memory.systemFree, locale),
                      total: formatBytes(h.memory.systemTotal, locale),
                    }),
                  ],
                ]}
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
              <Figures
                rows={[
                  [
                    t('fields.store'),
                    h.database.kind === 'postgres' ? 'PostgreSQL' : 'SQLite',
                    'health-db-kind',
                  ],
                  [t('fields.database'), formatBytes(h.database.sizeBytes, locale), 'health-db-size'],
                  h.database.kind === 'sqlite'
                    ? [t('fields.wal'), formatBytes(h.database.walBytes, locale)]
                    : [
                        t('fields.jobs'),
                        t(h.cluster?.leader ? 'fields.jobsHere' : 'fields.jobsElsewhere'),
                        'health-jobs',
                      ],
                ]}
              />
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

            {optionalCards(h).map(
              ([card, Icon, rows]) =>
                rows && (
                  <HealthCard
                    key={card}
                    title={t(`cards.${card}`)}
                    icon={<Icon size={18} />}
                    testId={`health-${card}`}
                  >
                    <Figures rows={rows} />
                  </HealthCard>
                ),
            )}

            <SslCard data={ssl.data} isError={ssl.isError} />
          </SimpleGrid>
        </>
      )}
    </Stack>
  );
}
