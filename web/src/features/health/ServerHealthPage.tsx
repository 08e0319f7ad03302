// /server-health (administrators; the guard sends others home): cards with the server's own figures, refreshed
// every 10 s, and the TLS status told as it is: the certificate lives in the reverse proxy in front of Rastro.
import { Alert, Badge, Card, Group, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import {
  IconActivity,
  IconCpu,
  IconDatabase,
  IconDeviceDesktopAnalytics,
  IconLock,
  IconPlugConnected,
  IconRoute,
  IconServer,
} from '@tabler/icons-react';
import { formatDecimal } from '@rastro/domain';
import { useQuery } from '@tanstack/react-query';
import { isValidElement, type ReactElement, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchHealth, fetchSsl, HEALTH_REFRESH_MS } from './api.ts';
import { formatBytes, formatUptime, percent } from './format.ts';

/** A figure line (its label, its value and the test id of the value), an element drawn as it is, or none. */
type CardLine = [label: string, value: ReactNode, testId?: string] | ReactElement | false | null | undefined;

function HealthCard({ card, Icon, lines }: { card: string; Icon: typeof IconRoute; lines: CardLine[] }) {
  const { t } = useTranslation('health');
  return (
    <Card withBorder padding="sm" radius="md" data-testid={`health-${card}`}>
      <Group gap="xs" mb="xs">
        <Icon size={18} />
        <Title order={3} size="h6">
          {t(`cards.${card}`)}
        </Title>
      </Group>
      <Stack gap={4}>
        {lines.map((line) =>
          !line || isValidElement(line) ? (
            line
          ) : (
            <Group key={line[0]} justify="space-between" gap="xs" wrap="nowrap">
              <Text size="sm" c="dimmed">
                {line[0]}
              </Text>
              <Text size="sm" fw={600} ta="right" data-testid={line[2]}>
                {line[1]}
              </Text>
            </Group>
          ),
        )}
      </Stack>
    </Card>
  );
}

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
  const bytes = (v: number) => formatBytes(v, locale);
  const h = health.data;
  if (!h)
    return (
      <Stack gap="sm" data-testid="health-page">
        <Text size="sm" c="dimmed">
          {t('intro')}
        </Text>
        {health.isError && <Alert color="red">{t('loadError')}</Alert>}
      </Stack>
    );
  const { memory: m, disk, database: db, upstream: up } = h;
  const s = ssl.data;
  // the cards in their order; null: what this server has not (no devices, positions or sockets in gateway mode, no
  // upstream embedded)
  const cards: Array<[string, typeof IconRoute, CardLine[] | null]> = [
    [
      'server',
      IconServer,
      [
        [t('fields.uptime'), formatUptime(h.uptimeSeconds), 'health-uptime'],
        [t('fields.startedAt'), new Date(h.startedAt).toLocaleString(locale)],
        [t('fields.version'), h.version, 'health-version'],
        [t('fields.node'), h.node],
        [t('fields.platform'), h.platform],
      ],
    ],
    [
      'resources',
      IconCpu,
      [
        [t('fields.rss'), bytes(m.rss), 'health-rss'],
        [t('fields.heap'), `${bytes(m.heapUsed)} / ${bytes(m.heapTotal)}`],
        [
          t('fields.systemMemory'),
          t('usedOf', { used: bytes(m.systemTotal - m.systemFree), total: bytes(m.systemTotal) }),
        ],
        <Progress
          key="memory"
          size="sm"
          value={percent(m.systemTotal - m.systemFree, m.systemTotal)}
          aria-label={t('fields.systemMemory')}
        />,
        [t('fields.load', { cpus: h.cpus }), h.loadAverage.map((v) => n(v, 2)).join(' · ')],
      ],
    ],
    [
      'storage',
      IconDatabase,
      [
        [t('fields.store'), db.kind === 'postgres' ? 'PostgreSQL' : 'SQLite', 'health-db-kind'],
        [t('fields.database'), bytes(db.sizeBytes), 'health-db-size'],
        db.kind === 'sqlite'
          ? [t('fields.wal'), bytes(db.walBytes)]
          : [
              t('fields.jobs'),
              t(h.cluster?.leader ? 'fields.jobsHere' : 'fields.jobsElsewhere'),
              'health-jobs',
            ],
        disk
          ? [
              t('fields.disk'),
              t('freeOf', { free: bytes(disk.free), total: bytes(disk.total) }),
              'health-disk',
            ]
          : [t('fields.disk'), '—'],
        disk && (
          <Progress
            key="disk"
            size="sm"
            color={percent(disk.free, disk.total) < 10 ? 'red' : 'blue'}
            value={percent(disk.total - disk.free, disk.total)}
            aria-label={t('fields.disk')}
          />
        ),
      ],
    ],
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
      up && [
        [t('fields.origin'), up.origin],
        [
          t('fields.reachable'),
          <Badge color={up.reachable ? 'green' : 'red'}>{up.reachable ? t('yes') : t('no')}</Badge>,
        ],
        [t('fields.httpStatus'), up.status ?? '—'],
      ],
    ],
    // TLS told as it is: the certificate lives in the reverse proxy in front of Rastro
    [
      'ssl',
      IconLock,
      [
        ssl.isError && (
          <Text key="error" size="sm">
            {t('sslError')}
          </Text>
        ),
        s && (
          <Text key="managed" size="sm" data-testid="health-ssl-managed">
            {t('ssl.managedByProxy')}
          </Text>
        ),
        s && [t('ssl.host'), s.host],
        s && [
          t('ssl.https'),
          <Badge color={s.https ? 'green' : 'orange'} data-testid="health-ssl-https">
            {s.https ? t('ssl.httpsOn') : t('ssl.httpsOff')}
          </Badge>,
        ],
        s && !s.https && (
          <Text key="hint" size="xs" c="dimmed">
            {t('ssl.httpsHint')}
          </Text>
        ),
      ],
    ],
  ];

  return (
    <Stack gap="sm" data-testid="health-page">
      <Text size="sm" c="dimmed">
        {t('intro')}
      </Text>
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
        {cards.map(
          ([card, Icon, lines]) => lines && <HealthCard key={card} card={card} Icon={Icon} lines={lines} />,
        )}
      </SimpleGrid>
    </Stack>
  );
}
